"""`orchestrate run --notify`: the session announces its workflow's state changes, the diagnosis and its end."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import EXAMPLES, run


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
