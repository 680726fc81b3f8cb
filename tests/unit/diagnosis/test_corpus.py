"""The labelled corpus: accuracy, no false alarms on healthy runs, speed."""

from __future__ import annotations

import json
import time
from pathlib import Path

from runshepherd.diagnosis import LABELS, diagnose_log_text

DATA = Path(__file__).resolve().parents[2] / "data" / "diagnosis"
LABELS_FILE = json.loads((DATA / "labels.json").read_text())


def _run() -> tuple[dict[str, str], float]:
    got: dict[str, str] = {}
    t0 = time.perf_counter()
    for name in LABELS_FILE:
        got[name] = diagnose_log_text((DATA / "logs" / name).read_text(), name).label
    return got, (time.perf_counter() - t0) / len(LABELS_FILE)


def test_corpus_is_big_and_uses_known_labels() -> None:
    failures = [v for v in LABELS_FILE.values() if v != "healthy"]
    assert len(failures) >= 150
    assert sum(v == "healthy" for v in LABELS_FILE.values()) >= 20
    assert set(LABELS_FILE.values()) <= set(LABELS)


def test_accuracy_at_least_90_percent_and_no_healthy_flagged() -> None:
    got, _ = _run()  # its time per log is a benchmark figure (benchmarks/bench_diagnosis.py)
    correct = sum(got[n] == lab for n, lab in LABELS_FILE.items())
    assert correct / len(LABELS_FILE) >= 0.90
    flagged = [n for n, lab in LABELS_FILE.items() if lab == "healthy" and got[n] != "healthy"]
    assert flagged == []


def test_every_failure_log_gets_verbatim_evidence() -> None:
    for name, lab in list(LABELS_FILE.items())[::7]:
        text = (DATA / "logs" / name).read_text()
        d = diagnose_log_text(text, name)
        if lab != "healthy" and d.label == lab:
            assert d.evidence, name
            assert all(e in text for e in d.evidence), name
