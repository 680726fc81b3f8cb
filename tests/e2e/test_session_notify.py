"""`orchestrate run --notify`: the session announces its workflow's state changes, the diagnosis and its end."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import EXAMPLES, quick_example, run


def test_a_session_notifies_state_changes_diagnosis_and_end(tmp_path: Path) -> None:
    notes = tmp_path / "notes.jsonl"
    res = run(
        tmp_path,
        "run",
        "--spec",
        str(EXAMPLES / "fail-command.yaml"),
        "--yes",
        "--no-input",
        "--max-fixes",
        "0",
        "--cadence",
        "0.5",
        "--notify",
        f"file:{notes}",
    )
    assert res.returncode == 1, res.stderr
    rows = [json.loads(x) for x in notes.read_text().splitlines()]
    wid = rows[0]["workflow_id"]
    assert wid.startswith("fail-command-")
    statuses = [r["status"] for r in rows if r["label"] in (None, "completed")]
    assert statuses[-1] == "FAILED" and statuses.count("FAILED") == 1
    diag = [r for r in rows if r["label"] == "missing_dependency"]
    assert len(diag) == 1 and "torchrun-missing" in diag[0]["summary"]
    assert rows[-1]["label"] == "needs_input" and rows[-1]["status"] == "NEEDS_INPUT"
    assert len({r["fingerprint"] for r in rows}) == len(rows)


def test_a_bad_notify_target_stops_before_anything_is_submitted(tmp_path: Path) -> None:
    res = run(tmp_path, "run", "--spec", str(EXAMPLES / "fail-command.yaml"), "--yes", "--notify", "gopher://x")
    assert res.returncode == 2 and "notify target" in res.stderr
    assert not (tmp_path / "state" / "workflows").exists()


def test_a_sweep_notifies_every_points_state_changes_foreground_and_detached(tmp_path: Path) -> None:
    """`run --sweep … --notify` (listed in `run --help`) sent nothing at all: each point now announces its
    workflow's changes and end, named by its session (SWEEP-pN), in the terminal and in a detached sweep."""
    spec = str(quick_example(tmp_path, "sweep-lr.yaml"))  # only the points' ends are asserted: no per-step sleep
    for sid, detach in (("sw", ()), ("swd", ("--detach",))):
        notes = tmp_path / f"{sid}.jsonl"
        args = ("run", "--spec", spec, "--sweep", "lr=0.05,0.1", "--yes", "--cadence", "0.5", *detach)
        res = run(tmp_path, *args, "--session", sid, "--notify", f"file:{notes}")
        assert res.returncode == 0, res.stdout[-2000:] + res.stderr
        if detach:
            assert run(tmp_path, "attach", sid, timeout=240).returncode == 0
        rows = [json.loads(x) for x in notes.read_text().splitlines()]
        ended = {r["summary"].split(":")[0]: r["status"] for r in rows if r["status"] == "COMPLETED"}
        assert ended == {f"session {sid}-p1": "COMPLETED", f"session {sid}-p2": "COMPLETED"}, rows
