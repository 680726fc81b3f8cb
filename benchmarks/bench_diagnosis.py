"""Diagnosis benchmark on the labelled corpus: accuracy per label, confusion pairs, healthy false alarms, speed.

Speed is reported as ms per log and as a ratio against a trivial baseline measured in the same run (reading the
file and splitting it into lines), so the number means something on any machine.

    python benchmarks/bench_diagnosis.py [--corpus original|holdout|DIR]

``original`` is the rule author's corpus (tests/data/diagnosis, logs under logs/); ``holdout`` is the blind corpus
written without reading the rules (tests/data/diagnosis_holdout, logs beside labels.json).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from runshepherd.diagnosis import diagnose_log_text

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
CORPORA = {"original": DATA / "diagnosis", "holdout": DATA / "diagnosis_holdout"}
DEFAULT = CORPORA["original"]


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
