"""Diagnosis benchmark on the labelled corpus: accuracy per label, confusion pairs, healthy false alarms, speed.

Speed is reported as ms per log and as a ratio against a trivial baseline measured in the same run (reading the
file and splitting it into lines), so the number means something on any machine. The bar is per log, so the
mean, p95 and max of each log's time (best of ``REPEATS`` runs, to drop scheduler noise) are printed too, and
the time of one synthetic 5,000-line training log (progress bars, metrics, warnings, NCCL chatter, a CUDA OOM
traceback at the end), the long-log case the corpora only reach at ~600 lines.

    python benchmarks/bench_diagnosis.py [--corpus original|holdout|DIR]

``original`` is the rule author's corpus (tests/data/diagnosis, logs under logs/); ``holdout`` is the blind corpus
written without reading the rules (tests/data/diagnosis_holdout, logs beside labels.json).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from runshepherd.diagnosis import diagnose_log_text

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
CORPORA = {"original": DATA / "diagnosis", "holdout": DATA / "diagnosis_holdout"}
DEFAULT = CORPORA["original"]
REPEATS = 3
LONG_LINES = 5000


def synthetic_long_log(n_lines: int = LONG_LINES, seed: int = 7) -> str:
    """A realistic long training log that ends in a CUDA OOM (deterministic for a given seed)."""
    rnd = random.Random(seed)
    out = [
        "[2024-05-09 12:00:00,001] [INFO] [launch.py:146:main] WORLD INFO DICT: {'localhost': [0, 1, 2, 3]}",
        "[W socket.cpp:464] [c10d] The server socket cannot be initialized on [::]:29500 (errno: 97).",
        "NCCL INFO Bootstrap : Using eth0:10.0.0.12<0>",
        "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py:557: UserWarning: This DataLoader "
        "will create 16 worker processes in total.",
        "Some weights of BertForSequenceClassification were not initialized from the model checkpoint",
        "You should probably TRAIN this model on a down-stream task to be able to use it for predictions.",
    ]
    step, total = 0, 60000
    while len(out) < n_lines - 12:
        step += 10
        kind = rnd.random()
        ts = f"2024-05-09T{12 + step // 36000:02d}:{step // 600 % 60:02d}:{step // 10 % 60:02d}.{rnd.randrange(1000):03d}Z"
        if kind < 0.45:
            pct = step * 100 // total
            out.append(f"{ts} Epoch 1: {pct:3d}%|{'█' * (pct // 10):<10}| {step}/{total} "
                       f"[{step // 60:02d}:{step % 60:02d}<99:59, {rnd.uniform(1, 6):.2f}it/s, loss={rnd.uniform(0.5, 3):.3f}]")
        elif kind < 0.8:
            out.append(f"{ts} {{'loss': {rnd.uniform(0.5, 3):.4f}, 'grad_norm': {rnd.uniform(0.1, 4):.6f}, "
                       f"'learning_rate': {5e-5 * (1 - step / total):.4e}, 'epoch': {step / total:.2f}}}")
        elif kind < 0.9:
            out.append(f"{ts} [rank{rnd.randrange(4)}]: INFO: step {step} throughput {rnd.uniform(100, 400):.1f} "
                       f"samples/s, mem {rnd.uniform(20, 70):.1f} GiB, data wait {rnd.uniform(0, 30):.1f} ms")
        elif kind < 0.95:
            out.append(f"{ts} NCCL INFO Channel {rnd.randrange(32):02d}/0 : {rnd.randrange(4)}[{rnd.randrange(4)}] -> "
                       f"{rnd.randrange(4)}[{rnd.randrange(4)}] via P2P/IPC/read")
        elif kind < 0.98:
            out.append(f"{ts} [INFO] saving checkpoint to /checkpoints/step_{step}.pt (eval accuracy "
                       f"{rnd.uniform(0.6, 0.9):.4f}, eval loss {rnd.uniform(0.3, 1):.4f})")
        else:
            out.append(f"{ts} /opt/conda/lib/python3.10/site-packages/torch/optim/lr_scheduler.py:139: "
                       "UserWarning: Detected call of `lr_scheduler.step()` before `optimizer.step()`.")
    out += [
        "Traceback (most recent call last):",
        '  File "/workspace/train.py", line 212, in <module>',
        "    main()",
        '  File "/workspace/train.py", line 188, in main',
        "    loss.backward()",
        '  File "/opt/conda/lib/python3.10/site-packages/torch/_tensor.py", line 522, in backward',
        "    torch.autograd.backward(",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total "
        "capacity; 75.02 GiB already allocated; 1.21 GiB free; 76.80 GiB reserved in total by PyTorch)",
        "[2024-05-09 14:02:11,934] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) "
        "local_rank: 0 (pid: 812) of binary: /opt/conda/bin/python",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
        "train.py FAILED",
        "Root Cause (first observed failure): exitcode: 1",
    ]
    return "\n".join(out[:n_lines]) + "\n"


def _best_ms(text: str, name: str) -> float:
    """Best of ``REPEATS`` runs of one log, in ms."""
    best = float("inf")
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        diagnose_log_text(text, name)
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def _speed_report(files: list[tuple[Path, str]]) -> str:
    per_log = sorted((_best_ms(path.read_text(), path.name), path.name) for path, _ in files)
    ms = [t for t, _ in per_log]
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    slowest = ", ".join(f"{n} {t:.1f}" for t, n in reversed(per_log[-3:]))
    long_text = synthetic_long_log()
    long_ms = _best_ms(long_text, "synthetic")
    long_label = diagnose_log_text(long_text, "synthetic").label
    return (f"per log (best of {REPEATS}): mean {statistics.mean(ms):.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms "
            f"(slowest: {slowest})\n"
            f"synthetic {LONG_LINES}-line log: {long_ms:.1f} ms (label {long_label})")


def _log_path(corpus: Path, name: str) -> Path:
    """Logs live in ``logs/`` (original corpus) or beside ``labels.json`` (holdout)."""
    nested = corpus / "logs" / name
    return nested if nested.exists() else corpus / name


def main(corpus: Path = DEFAULT) -> int:
    labels: dict[str, str] = json.loads((corpus / "labels.json").read_text())
    files = [(_log_path(corpus, name), lab) for name, lab in sorted(labels.items())]

    t0 = time.perf_counter()
    for path, _ in files:
        path.read_text().splitlines()
    baseline = time.perf_counter() - t0

    per_label: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    confusion: Counter[tuple[str, str]] = Counter()
    t0 = time.perf_counter()
    results = [(lab, diagnose_log_text(path.read_text(), path.name).label) for path, lab in files]
    elapsed = time.perf_counter() - t0

    for want, got in results:
        per_label[want][1] += 1
        if want == got:
            per_label[want][0] += 1
        else:
            confusion[(want, got)] += 1
    correct = sum(c for c, _ in per_label.values())
    print(f"corpus: {corpus} ({len(files)} logs)")
    print(f"{'label':<22}{'correct':>9}{'total':>7}{'acc':>8}")
    for lab in sorted(per_label):
        c, n = per_label[lab]
        print(f"{lab:<22}{c:>9}{n:>7}{c / n:>8.0%}")
    print(f"overall accuracy: {correct / len(files):.1%}")
    print("confusion pairs (expected -> got):" + ("" if confusion else " none"))
    for (want, got), n in confusion.most_common():
        print(f"  {want} -> {got}: {n}")
    healthy = [g for w, g in results if w == "healthy"]
    print(f"false alarms on healthy runs: {sum(g != 'healthy' for g in healthy)} of {len(healthy)}")
    ms = elapsed / len(files) * 1000
    print(f"time per log: {ms:.2f} ms (baseline read+split: {baseline / len(files) * 1000:.3f} ms; "
          f"ratio {elapsed / max(baseline, 1e-9):.0f}x)")
    print(_speed_report(files))
    return 0


def _parse(argv: list[str]) -> Path:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="original", help="original, holdout, or a directory with labels.json")
    ap.add_argument("corpus_dir", nargs="?", help="(older form) a corpus directory")
    args = ap.parse_args(argv)
    choice = args.corpus_dir or args.corpus
    path = CORPORA.get(choice, Path(choice))
    if not (path / "labels.json").is_file():
        ap.error(f"no labels.json in {path}")
    return path


if __name__ == "__main__":
    sys.exit(main(_parse(sys.argv[1:])))
