"""`attach` to a background session whose process was killed (kill -9, the OOM killer, a reboot) says what to do.
Before: "session det1 ended without a result; see …/det1.log", with no word that `resume` continues it."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_attach_to_a_dead_background_session_says_resume_continues_it(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = here / "state" / "detached"
    folder.mkdir(parents=True)
    events = folder / "det1.events.jsonl"
    events.write_text(json.dumps({"event": "submitted", "session": "det1", "workflow_id": "w-1", "attempt": 1}) + "\n")
    record = {
        "session": "det1",
        "pid": 2**22 + 12345,  # no such process
        "create_time": 1.0,
        "started_at": datetime.now(UTC).isoformat(),
        "events": str(events),
        "log": str(folder / "det1.log"),
    }
    (folder / "det1.json").write_text(json.dumps(record))
    assert main(["attach", "det1"]) == 1
    err = " ".join(capsys.readouterr().err.split())  # the console wraps at its width
    assert "its background process (pid 4206649) has stopped without a result" in err
    assert "`orchestrate resume det1` continues it from its last checkpoint" in err
