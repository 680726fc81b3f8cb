"""The diagnosis benchmark reads the real corpus through its split rule and scores the issue's figures."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_diagnosis.py"

SPLIT_PY = """
import hashlib
def split_of(case_id):
    return "blind" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 100 < 40 else "dev"
"""


def _bench():
    spec = importlib.util.spec_from_file_location("bench_diagnosis", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _corpus(root: Path, cases: list[tuple[str, str, str, str]]) -> None:
    (root / "logs").mkdir(parents=True)
    (root / "split.py").write_text(SPLIT_PY)
    rows = []
    for cid, label, fix, text in cases:
        (root / "logs" / f"{cid}.log").write_text(text)
        rows.append(json.dumps({"id": cid, "label": label, "fix_kind": fix, "source": "x/y#1"}))
    (root / "part-a.jsonl").write_text("\n".join(rows) + "\n")


def test_missing_corpus_is_a_clear_message_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    bench.REAL = tmp_path / "nothing"
    assert bench.main("real-dev") == 2
    assert "not there yet" in capsys.readouterr().err


def test_real_split_scored_with_fix_kinds_and_healthy_counts(tmp_path: Path) -> None:
    bench = _bench()
    oom = "Traceback (most recent call last):\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    ok = "epoch 1 loss 0.5\nTraining completed. Saved model to /out\n"
    # ids chosen on both sides of the hash rule
    ids = [f"t-{i:04d}" for i in range(12)]
    cases = [
        (cid, "gpu_oom", "reduce_memory", oom) if i % 2 else (cid, "healthy", "none", ok) for i, cid in enumerate(ids)
    ]
    _corpus(tmp_path, cases)
    dev = bench.load_real("dev", tmp_path)
    blind = bench.load_real("blind", tmp_path)
    assert dev and blind and {c.name for c in dev}.isdisjoint(c.name for c in blind)
    assert len(dev) + len(blind) == len(ids)
    verdicts, ms = bench.run_in_process(dev)
    s = bench.score(dev, verdicts, ms)
    assert s["label_acc"] == 1.0 and s["fix_acc"] == 1.0
    assert s["healthy_flagged"] == 0 and s["failures_healthy"] == 0


def test_misses_are_refused_on_the_blind_split(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    _corpus(tmp_path, [(f"t-{i:04d}", "gpu_oom", "reduce_memory", "CUDA out of memory\n") for i in range(8)])
    bench.REAL = tmp_path
    assert bench.main("real-blind", misses=True) == 2
    assert "never studied" in capsys.readouterr().err


def test_invariance_counts_labels_a_paste_layout_changes_and_refuses_blind_parts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _bench()
    oom = "Traceback (most recent call last):\ntorch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    ids = [f"t-{i:04d}" for i in range(12)]
    _corpus(tmp_path, [(cid, "gpu_oom", "reduce_memory", oom) for cid in ids])
    blind = [cid for cid in ids if bench._split_module(tmp_path).split_of(cid) == "blind"]
    assert blind, "the hash rule puts some of these ids in the blind split"
    # this corpus's split.py hashes ids: part a holds blind cases, so asking for it is refused
    assert bench.invariance(("a",), ["bold", "ansi"], root=tmp_path) == 2
    assert "never read" in capsys.readouterr().err
    part = tmp_path / "part-a.jsonl"
    keep = [ln for ln in part.read_text().splitlines() if json.loads(ln)["id"] not in blind]
    part.write_text("\n".join(keep) + "\n")
    assert bench.invariance(("a",), ["bold", "ansi", "compose"], root=tmp_path) == 0
    out = capsys.readouterr().out
    assert f"({len(ids) - len(blind)} logs; as-is {len(ids) - len(blind)} right" in out
    assert "ansi" in out and "labels changed by a layout: 0 of" in out


def test_an_open_blind_split_is_refused_until_it_is_frozen(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a split still being collected (split.py: BLIND_FROZEN = None) is not scored: a score would spend it on a few cases
    bench = _bench()
    _corpus(tmp_path, [(f"t-{i:04d}", "gpu_oom", "reduce_memory", "CUDA out of memory\n") for i in range(12)])
    split_py = tmp_path / "split.py"
    split_py.write_text(SPLIT_PY + 'BLIND_PARTS = ("t-",)\nBLIND_FROZEN = None\n')
    bench.REAL = tmp_path
    assert bench.main("real-blind") == 2
    assert "still being collected" in capsys.readouterr().err
    assert bench.load_real("dev", tmp_path)  # the dev half is read as before
    split_py.write_text(SPLIT_PY + 'BLIND_FROZEN = "2026-12-03T07:00Z"\n')
    assert bench.load_real("blind", tmp_path)


def test_cli_batches_are_even_so_no_short_batch_sets_the_p95():
    bench = _bench()
    assert sorted(len(r) for r in bench.even_batches(169, 40)) == [33, 34, 34, 34, 34]
    assert [len(r) for r in bench.even_batches(80, 40)] == [40, 40]
    assert sorted(len(r) for r in bench.even_batches(41, 40)) == [20, 21]
    assert bench.even_batches(0, 40) == []
    covered = [i for r in bench.even_batches(3992, 40) for i in r]
    assert covered == list(range(3992))


def test_the_report_splits_labels_by_source_kind_and_names_unknown_healthy_readings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _bench()
    oom = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    bare = "loading config\n"  # no sign of health: read as unknown
    cases = [
        bench.Case("c-1", tmp_path / "c1.log", "gpu_oom", "reduce_memory", "committed"),
        bench.Case("t-1", tmp_path / "t1.log", "gpu_oom", "reduce_memory", "thread"),
        bench.Case("t-2", tmp_path / "t2.log", "healthy", "none", "thread"),
    ]
    for c, text in zip(cases, [oom, oom, bare], strict=True):
        c.path.write_text(text)
    verdicts, ms = bench.run_in_process(cases)
    bench.report("t", cases, verdicts, ms, via_cli=False)
    out = capsys.readouterr().out
    assert "labels by source: committed 1/1 (100.0%), thread 1/2 (50.0%)" in out
    assert "healthy runs flagged: 1 of 1 (1 of them read as unknown)" in out


def test_a_log_the_cli_refuses_is_scored_as_refused_and_the_batch_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real excerpt the CLI declines (v30's zzzzzn-0018, a train.log with a NUL-padded tail, read as "not a text
    log") stopped the whole benchmark; it is what a user would see, so it is scored as no verdict and the other logs
    of its batch are still read."""
    bench = _bench()
    text = tmp_path / "a.log"
    text.write_text('Traceback (most recent call last):\n  File "t.py", line 1, in <module>\nMemoryError\n')
    binary = tmp_path / "b.log"
    binary.write_bytes(bytes(range(256)) * 64)
    cases = [bench.Case("a", text, "host_oom"), bench.Case("b", binary, "user_code_error")]
    verdicts, ms = bench.run_via_cli(cases)
    assert [v.label for v in verdicts] == ["host_oom", bench.REFUSED] and len(ms) == 2
    bench.report("t", cases, verdicts, ms, via_cli=True)
    out = capsys.readouterr().out
    assert "refused by the CLI (no verdict, scored wrong): 1: b.log" in out and "label accuracy: 50.0%" in out
