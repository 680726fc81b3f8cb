"""The demo trainer: ``python -m runshepherd.demo.trainer --epochs 3 --output-dir out``.

It prints progress the way real trainers do (one flushed line per event), so RunShepherd's log reader, progress
extraction and diagnosis see realistic material, and it fails the way real jobs fail: a too-high ``--lr``
diverges to ``nan`` and raises ``FloatingPointError``; a missing ``--data`` file raises ``FileNotFoundError``;
a huge ``--batch-size`` or ``--memory-mb`` grows RSS until a memory limit kills the process.
"""

from __future__ import annotations

import math
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from runshepherd.demo import checkpoint as ckpt
from runshepherd.demo.config import TrainConfig, parse_config
from runshepherd.demo.data import Dataset, batch_indices, fit_standardizer, load_dataset, make_blobs, split
from runshepherd.demo.memory import MIB, hold_ballast, rss_mib
from runshepherd.demo.model import Params, activation_bytes, evaluate, init_params, sgd_step, train_step

Emit = Callable[[str], None]


def _print_flush(line: str) -> None:
    print(line, flush=True)


@dataclass
class _Window:
    """Running sums between two progress lines."""

    loss: float = 0.0
    acc: float = 0.0
    steps: int = 0
    samples: int = 0
    started: float = 0.0

    def reset(self, now: float) -> None:
        self.loss, self.acc, self.steps, self.samples, self.started = 0.0, 0.0, 0, 0, now


def _fmt(value: float, digits: int) -> str:
    return f"{value:.{digits}f}"


def step_line(epoch: int, epochs: int, step: int, steps: int, loss: float, acc: float, lr: float, tput: float) -> str:
    """``epoch 2/3 step 40/120 loss=0.4123 acc=0.871 lr=0.5 throughput=5234.1 samples/s``."""
    return (
        f"epoch {epoch}/{epochs} step {step}/{steps} loss={_fmt(loss, 4)} acc={_fmt(acc, 3)} "
        f"lr={lr:g} throughput={tput:.1f} samples/s"
    )


def epoch_line(epoch: int, epochs: int, m: ckpt.EpochMetrics, seconds: float) -> str:
    """``Epoch [2/3] loss=0.4100 acc=0.870 eval_loss=0.4400 eval_acc=0.860 time=1.3s``."""
    return (
        f"Epoch [{epoch}/{epochs}] loss={_fmt(m.loss, 4)} acc={_fmt(m.acc, 3)} "
        f"eval_loss={_fmt(m.eval_loss, 4)} eval_acc={_fmt(m.eval_acc, 3)} time={seconds:.1f}s"
    )


def _load_data(config: TrainConfig, emit: Emit) -> Dataset:
    if config.data is not None:
        data = load_dataset(config.data)  # missing file -> FileNotFoundError, uncaught on purpose
        emit(f"data: loaded {config.data} ({len(data)} samples, {data.features} features, {data.classes} classes)")
        return data
    data = make_blobs(config.samples, config.features, config.classes, config.seed)
    emit(
        f"data: synthetic gaussian blobs ({config.samples} samples, {config.features} features, "
        f"{config.classes} classes, seed {config.seed})"
    )
    return data


def _initial_state(
    config: TrainConfig, features: int, classes: int, emit: Emit
) -> tuple[Params, list[ckpt.EpochMetrics], int]:
    """Fresh weights, or the latest checkpoint's when ``--resume`` finds one: ``(params, history, done epochs)``."""
    params = init_params(features, config.hidden, classes, np.random.default_rng(config.seed + 2))
    if not config.resume:
        return params, [], 0
    path = ckpt.latest_checkpoint(config.output_dir)
    if path is None:
        emit(f"No checkpoint found in {config.output_dir / ckpt.CHECKPOINT_DIR}, starting from scratch")
        return params, [], 0
    saved = ckpt.load_checkpoint(path)
    expected = {name: arr.shape for name, arr in params.as_arrays().items()}
    found = {name: arr.shape for name, arr in saved.params.as_arrays().items()}
    if expected != found:
        raise ValueError(f"checkpoint {path} has shapes {found}, but this model needs {expected}")
    emit(f"Resumed from checkpoint {path} (epoch {saved.epoch}/{config.epochs})")
    return saved.params, saved.history, saved.epoch


def train(config: TrainConfig, emit: Emit = _print_flush) -> ckpt.Metrics:
    """Run the whole training job; returns what it wrote to ``metrics.json``."""
    run_started = time.monotonic()
    emit(
        f"{datetime.now(UTC).isoformat(timespec='seconds')} runshepherd demo trainer starting "
        f"(pid {os.getpid()}, python {platform.python_version()}, numpy {np.__version__}, device cpu)"
    )
    ballast = None
    if config.memory_mb:
        emit(f"memory: allocating {config.memory_mb} MiB ballast (--memory-mb {config.memory_mb})")
        ballast = hold_ballast(config.memory_mb)
        emit(f"memory: holding {ballast.nbytes // MIB} MiB ballast, rss={rss_mib():.1f} MiB")

    data = _load_data(config, emit)
    parts = split(data, config.eval_fraction, config.seed)
    standardizer = fit_standardizer(parts.train)
    train_set, eval_set = standardizer.apply(parts.train), standardizer.apply(parts.eval)
    features, classes = data.features, data.classes
    steps = config.steps_for(len(train_set))
    act_mib = activation_bytes(config.batch_size, features, config.hidden, classes) / MIB
    emit(
        f"config: epochs={config.epochs} steps_per_epoch={steps} batch_size={config.batch_size} lr={config.lr:g} "
        f"hidden={config.hidden} features={features} classes={classes} train={len(train_set)} eval={len(eval_set)} "
        f"seed={config.seed} step_delay={config.step_delay:g} output_dir={config.output_dir}"
    )
    emit(
        f"memory: activations ~{act_mib:.1f} MiB per step "
        f"(batch_size * (features + 3*hidden + 3*classes + 2) * 8 bytes), rss={rss_mib():.1f} MiB"
    )
    config.output_dir.mkdir(parents=True, exist_ok=True)
    params, history, done = _initial_state(config, features, classes, emit)

    for epoch in range(done + 1, config.epochs + 1):
        history.append(_train_epoch(config, params, train_set, eval_set, epoch, steps, emit))
        path = ckpt.save_checkpoint(config.output_dir, epoch, params, history)
        emit(f"checkpoint saved to {path}")
    if done >= config.epochs:
        emit(f"checkpoint epoch {done} already reaches --epochs {config.epochs}; nothing left to train")

    eval_loss, eval_acc = evaluate(params, eval_set.x, eval_set.y)
    last = history[-1] if history else None
    metrics = ckpt.Metrics(
        epochs=config.epochs,
        steps=config.epochs * steps,
        final_loss=last.loss if last else eval_loss,
        final_acc=last.acc if last else eval_acc,
        eval_loss=eval_loss,
        eval_acc=eval_acc,
        lr=config.lr,
        batch_size=config.batch_size,
        history=history,
    )
    emit(f"model saved to {ckpt.save_model(config.output_dir, params, standardizer)}")
    emit(f"metrics saved to {ckpt.write_metrics(config.output_dir, metrics)}")
    del ballast
    emit(
        f"Training complete in {time.monotonic() - run_started:.1f}s: eval_loss={eval_loss:.4f} eval_acc={eval_acc:.3f}"
    )
    return metrics


def _train_epoch(
    config: TrainConfig, params: Params, train_set: Dataset, eval_set: Dataset, epoch: int, steps: int, emit: Emit
) -> ckpt.EpochMetrics:
    rng = np.random.default_rng([config.seed, epoch])  # per-epoch stream: a resumed run sees the same batches
    window = _Window()
    epoch_started = time.monotonic()
    window.reset(epoch_started)
    loss_sum = acc_sum = 0.0
    cache = None
    for step, idx in enumerate(batch_indices(len(train_set), config.batch_size, steps, rng), start=1):
        cache = None  # release the previous step's activations before materialising this step's
        loss, acc, grads, cache = train_step(params, train_set.x[idx], train_set.y[idx])
        if config.step_delay:
            time.sleep(config.step_delay)  # stands in for real compute: the step's activations stay resident
        if not math.isfinite(loss):
            tput = (window.samples + len(idx)) / max(time.monotonic() - window.started, 1e-9)
            emit(step_line(epoch, config.epochs, step, steps, loss, acc, config.lr, tput))
            raise FloatingPointError(f"Loss is {loss} at epoch {epoch} step {step}; try a lower learning rate")
        sgd_step(params, grads, config.lr)
        loss_sum += loss
        acc_sum += acc
        window.loss += loss
        window.acc += acc
        window.steps += 1
        window.samples += len(idx)
        if step % config.log_every == 0 or step == steps:
            now = time.monotonic()
            tput = window.samples / max(now - window.started, 1e-9)
            loss_avg, acc_avg = window.loss / window.steps, window.acc / window.steps
            emit(step_line(epoch, config.epochs, step, steps, loss_avg, acc_avg, config.lr, tput))
            window.reset(now)
    del cache
    eval_loss, eval_acc = evaluate(params, eval_set.x, eval_set.y)
    metrics = ckpt.EpochMetrics(
        epoch=epoch, loss=loss_sum / steps, acc=acc_sum / steps, eval_loss=eval_loss, eval_acc=eval_acc
    )
    emit(epoch_line(epoch, config.epochs, metrics, time.monotonic() - epoch_started))
    return metrics


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; errors propagate as tracebacks with exit code 1, as in any Python trainer."""
    train(parse_config(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
