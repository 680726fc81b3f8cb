"""The emitters' documented formats (runshepherd/diagnosis/formats): every table row reads its own quoted example,
and excerpts built from documented lines (tests/data/diagnosis_docs, each with its source) get the right verdict:
healthy runs are called healthy, and a failure printed after progress is never outvoted by it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.errorblock import error_looking, is_benign, prepare
from runshepherd.diagnosis.formats import Marker, all_markers
from runshepherd.diagnosis.positive import positive_evidence

_DOCS = Path(__file__).resolve().parents[2] / "data" / "diagnosis_docs" / "healthy_lines.jsonl"
_EXCERPTS = [json.loads(line) for line in _DOCS.read_text(encoding="utf-8").splitlines() if line.strip()]
_MARKERS = all_markers()


def _id(m: Marker) -> str:
    return f"{m.kind}:{m.emitter}:{m.example[:30]}"


@pytest.mark.parametrize("marker", _MARKERS, ids=[_id(m) for m in _MARKERS])
def test_every_row_reads_its_quoted_example_and_cites_an_address(marker: Marker) -> None:
    line = prepare([marker.example]).lines[0]  # as the verdict sees it: prefixes stripped
    assert re.search(marker.pattern, line.text, re.IGNORECASE), (marker.emitter, line.text)
    assert re.match(r"https://\S+$", marker.source)
    if marker.kind == "finished":
        assert positive_evidence([line]) == ("finished", line)
    elif marker.kind in ("progress", "summary"):
        assert (positive_evidence([line]) or ("", line))[0] in ("finished", "progress")
    elif marker.kind == "started":
        assert positive_evidence([line]) is not None
    elif marker.kind == "benign":
        assert is_benign(line.text) and not list(error_looking([line]))
    else:  # a documented failure record is error evidence, never positive evidence
        assert list(error_looking([line])) == [line]
        assert diagnose_log_text(marker.example).label != "healthy"


def test_the_documented_set_holds_healthy_runs_and_failures_after_progress() -> None:
    kinds = {c["expect"] for c in _EXCERPTS}
    assert kinds == {"healthy", "failure"} and len(_EXCERPTS) >= 50
    assert all(c["source"].startswith("https://") for c in _EXCERPTS)


@pytest.mark.parametrize("case", [c for c in _EXCERPTS if c["expect"] == "healthy"], ids=lambda c: c["id"])
def test_a_healthy_run_in_a_documented_format_is_healthy(case: dict[str, str]) -> None:
    d = diagnose_log_text(case["log"])
    assert d.label == "healthy", (case["id"], d.explanation)
    assert d.evidence, "the verdict quotes the line it rests on"


@pytest.mark.parametrize("case", [c for c in _EXCERPTS if c["expect"] == "failure"], ids=lambda c: c["id"])
def test_a_failure_after_progress_is_never_healthy(case: dict[str, str]) -> None:
    d = diagnose_log_text(case["log"])
    assert d.label != "healthy", (case["id"], d.explanation)


def test_a_crash_after_steps_is_named_and_a_teardown_summary_after_it_does_not_excuse_it() -> None:
    """detectron2 prints its training summary from a ``finally`` (engine/hooks.py IterationTimer.after_train), so it
    follows the traceback of a run that crashed; Ray's launcher prints 'Job … failed' after the steps it ran."""
    steps = "".join(
        f"[01/01 10:0{i}:00 d2.utils.events]:  eta: 0:10:00  iter: {i}9  total_loss: 2.1  lr: 0.0004\n"
        for i in range(3)
    )
    crash = "ERROR [01/01 10:04:00 d2.engine.train_loop]: Exception during training:\n"
    summary = (
        "[01/01 10:05:00 d2.engine.hooks]: Overall training speed: 20 iterations in 0:00:07 (0.3520 s / it)\n"
        "[01/01 10:05:00 d2.engine.hooks]: Total training time: 0:00:08 (0:00:01 on hooks)\n"
    )
    assert diagnose_log_text(steps + summary).label == "healthy"
    d = diagnose_log_text(steps + crash + summary)
    assert d.label == "unknown" and "Exception during training" in d.explanation
    ray = "Job 'raysubmit_x' submitted successfully\nstep 1 loss 0.9\nstep 2 loss 0.8\nJob 'raysubmit_x' failed\n"
    d = diagnose_log_text(ray)
    assert d.label == "unknown" and "Job 'raysubmit_x' failed" in d.explanation


def test_slurm_extern_step_completing_is_not_the_job_completing() -> None:
    """sacct lists the .extern step (Slurm's container for the job's processes) as COMPLETED whatever the job did."""
    log = (
        "       JobID    JobName  Partition    Account  AllocCPUS      State ExitCode\n"
        "12345             train        gpu    default          8     FAILED      1:0\n"
        "12345.extern     extern               default          8  COMPLETED      0:0\n"
    )
    assert diagnose_log_text(log).label != "healthy"


def test_a_workflow_runner_that_says_a_later_task_failed_is_not_finished_by_an_earlier_task() -> None:
    log = (
        "2020-08-24 06:17:37.718 [1598264257255545/start/1 (pid 19041)] Task is starting.\n"
        "2020-08-24 06:17:39.665 [1598264257255545/start/1 (pid 19041)] Task finished successfully.\n"
        "2020-08-24 06:17:39.802 [1598264257255545/segfault/2 (pid 19077)] Task is starting.\n"
        "2020-08-24 06:17:41.069 [1598264257255545/segfault/2 (pid 19077)] Task failed.\n"
        "2020-08-24 06:17:41.069 Workflow failed.\n"
    )
    d = diagnose_log_text(log)
    assert d.label != "healthy"
    assert any("Task failed." in e for e in d.evidence)
