"""The demo trainer as a user runs it: a real subprocess, its printed progress, its files, its failures."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
from demo_runner import run_trainer

from runshepherd.demo.data import make_blobs, save_npz

STEP_RE = re.compile(
    r"^epoch (\d+)/(\d+) step (\d+)/(\d+) loss=(\S+) acc=([\d.]+) lr=(\S+) throughput=([\d.]+) samples/s$"
)
EPOCH_RE = re.compile(r"^Epoch \[(\d+)/(\d+)\] loss=(\S+) acc=([\d.]+) eval_loss=(\S+) eval_acc=([\d.]+) time=")
ISO_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00 ")


def test_default_model_converges_and_prints_parseable_progress(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = run_trainer(tmp_path, "--epochs", "2", "--step-delay", "0", "--output-dir", str(out))

    assert run.returncode == 0, run.stderr
    assert ISO_RE.match(run.lines[0]), run.lines[0]
    assert any(line.startswith("config: epochs=2 steps_per_epoch=60 batch_size=64 lr=0.5") for line in run.lines)
    steps = [STEP_RE.match(line) for line in run.lines if line.startswith("epoch ")]
    assert steps and all(steps), "every progress line matches the documented format"
    assert [(m.group(1), m.group(3)) for m in steps if m][:2] == [("1", "10"), ("1", "20")]
    losses = [float(m.group(5)) for m in steps if m]
    assert losses[-1] < losses[0] / 2, "loss falls during training"
    epochs = [EPOCH_RE.match(line) for line in run.lines if line.startswith("Epoch [")]
    assert [m.group(1) for m in epochs if m] == ["1", "2"]
    assert sum("checkpoint saved to" in line for line in run.lines) == 2
    assert run.lines[-1].startswith("Training complete")

    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["epochs"] == 2 and len(metrics["history"]) == 2
    assert metrics["eval_acc"] >= 0.9
    with np.load(out / "model.npz") as model:
        assert model["w1"].shape == (16, 64) and model["w2"].shape == (64, 4)
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == ["epoch_001.npz", "epoch_002.npz"]


def test_output_dir_defaults_to_env_then_dot_output(tmp_path: Path) -> None:
    env = {**os.environ, "OUTPUT_DIR": str(tmp_path / "from-env")}
    run = run_trainer(tmp_path, "--epochs", "1", "--step-delay", "0", env=env)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "from-env" / "model.npz").is_file()

    env.pop("OUTPUT_DIR")
    run = run_trainer(tmp_path, "--epochs", "1", "--step-delay", "0", env=env)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "output" / "model.npz").is_file()


def test_too_high_lr_diverges_to_nan_and_raises(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = run_trainer(tmp_path, "--lr", "50", "--step-delay", "0", "--output-dir", str(out))

    assert run.returncode == 1
    nan_lines = [line for line in run.lines if STEP_RE.match(line) and "loss=nan" in line]
    assert nan_lines, run.stdout
    assert "Traceback (most recent call last)" in run.stderr
    expected = r"^FloatingPointError: Loss is nan at epoch 1 step \d+; try a lower learning rate$"
    assert re.search(expected, run.stderr, re.M)
    assert not (out / "model.npz").exists(), "a diverged run saves no model"


def test_missing_data_file_fails_like_real_code(tmp_path: Path) -> None:
    run = run_trainer(tmp_path, "--data", str(tmp_path / "nope" / "train.npz"), "--output-dir", str(tmp_path))
    assert run.returncode == 1
    assert "Traceback (most recent call last)" in run.stderr
    expected = f"FileNotFoundError: [Errno 2] No such file or directory: '{tmp_path / 'nope' / 'train.npz'}'"
    assert run.stderr.rstrip().endswith(expected)


def test_trains_on_a_data_file(tmp_path: Path) -> None:
    path = save_npz(make_blobs(1500, 5, 3, seed=4), tmp_path / "data.npz")
    out = tmp_path / "out"
    run = run_trainer(tmp_path, "--data", str(path), "--step-delay", "0", "--output-dir", str(out))
    assert run.returncode == 0, run.stderr
    assert f"data: loaded {path} (1500 samples, 5 features, 3 classes)" in run.lines
    with np.load(out / "model.npz") as model:
        assert model["w1"].shape == (5, 64) and model["w2"].shape == (64, 3)


def test_resume_continues_from_the_latest_checkpoint(tmp_path: Path) -> None:
    out = str(tmp_path / "out")
    fresh = run_trainer(tmp_path, "--epochs", "3", "--step-delay", "0", "--output-dir", out, "--resume")
    assert fresh.returncode == 0, fresh.stderr
    assert f"No checkpoint found in {Path(out) / 'checkpoints'}, starting from scratch" in fresh.lines
    (Path(out) / "checkpoints" / "epoch_003.npz").unlink()  # as if the first run died during epoch 3

    resumed = run_trainer(tmp_path, "--epochs", "3", "--step-delay", "0", "--output-dir", out, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert f"Resumed from checkpoint {Path(out) / 'checkpoints' / 'epoch_002.npz'} (epoch 2/3)" in resumed.lines
    assert [line[:12] for line in resumed.lines if line.startswith("Epoch [")] == ["Epoch [3/3] "]
    assert not any(line.startswith("epoch 1/") for line in resumed.lines)
    metrics = json.loads((Path(out) / "metrics.json").read_text())
    assert [item["epoch"] for item in metrics["history"]] == [1, 2, 3]
    assert metrics["eval_acc"] >= 0.9


def test_memory_mb_really_grows_resident_memory(tmp_path: Path) -> None:
    args = ["--memory-mb", "200", "--epochs", "1", "--steps-per-epoch", "20", "--output-dir", str(tmp_path)]
    run = run_trainer(tmp_path, *args)
    assert run.returncode == 0, run.stderr
    assert run.peak_rss_mib > 200, f"peak RSS {run.peak_rss_mib:.0f} MiB"
    held = next(line for line in run.lines if line.startswith("memory: holding"))
    assert float(re.search(r"rss=([\d.]+) MiB", held).group(1)) > 200  # type: ignore[union-attr]


def test_large_batch_allocates_the_documented_activation_memory(tmp_path: Path) -> None:
    common = ["--epochs", "1", "--steps-per-epoch", "4", "--step-delay", "0.1", "--output-dir", str(tmp_path)]
    small = run_trainer(tmp_path, *common)
    big = run_trainer(tmp_path, "--batch-size", "50000", *common)
    assert small.returncode == 0 and big.returncode == 0, big.stderr
    announced = next(line for line in big.lines if line.startswith("memory: activations"))
    predicted = float(re.search(r"~([\d.]+) MiB per step", announced).group(1))  # type: ignore[union-attr]
    assert 80 < predicted < 90  # 50000 * 1776 bytes
    growth = big.peak_rss_mib - small.peak_rss_mib
    assert 0.8 * predicted < growth < 1.6 * predicted, f"grew {growth:.0f} MiB for a predicted {predicted:.0f} MiB"


def test_invalid_flag_value_is_a_usage_error(tmp_path: Path) -> None:
    run = run_trainer(tmp_path, "--epochs", "0")
    assert run.returncode == 2
    # argparse's own words ("argument --flag: …"), which the log digest and the diagnosis read as a rejected flag
    assert "error: argument --epochs: Input should be greater than or equal to 1" in run.stderr
    assert "Traceback" not in run.stderr
