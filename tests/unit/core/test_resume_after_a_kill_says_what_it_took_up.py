"""`resume` of a session whose process was killed mid-run (kill -9, the OOM killer) first says what it took up: the
workflow, its attempt and the state last seen, as a fresh run's first line names its session.

Before: the first line was the run's next progress line, so the person could not tell which run they now watched."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_resume_of_a_killed_run_names_the_workflow_first(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [sys.executable, "-m", "runshepherd.cli.main", "run", "train a small classifier for 2 epochs"]
    env = {**os.environ, "RUNSHEPHERD_BACKEND": "local"}
    proc = subprocess.Popen(
        [*argv, "--yes", "--json", "--session", "killed"], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    try:
        for line in proc.stdout:  # killed once its workflow runs: the checkpoint holds a submitted attempt
            if line.startswith("{") and json.loads(line).get("event") == "status" and "RUNNING" in line:
                break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    capsys.readouterr()
    assert main(["resume", "killed", "--no-input"]) == 3  # the run ends, then its follow-up question waits
    first = capsys.readouterr().out.splitlines()[0]
    assert re.fullmatch(r"session killed: re-attached to train-classifier-1 \(attempt 1, last seen \w+\)", first), first


def test_a_resume_between_a_retry_and_its_submission_names_the_last_workflow() -> None:
    """Killed after a fix or retry was approved, before its attempt was submitted: an earlier attempt was (was:
    "nothing submitted yet", as if the session had never run)."""
    from runshepherd.cli.session import reattached

    values = {"spec_name": "train-classifier", "attempt": {"n": 2, "workflow_id": None}, "workflow_ids": ["wf-1"]}
    assert reattached("s", values) == "session s: resumed — attempt 2 is not submitted yet (the last was wf-1)"
    first = {"spec_name": "train-classifier", "attempt": {"n": 1, "workflow_id": None}}
    assert reattached("s", first) == "session s: resumed — train-classifier is planned, nothing submitted yet"


def test_the_first_line_is_in_the_json_stream(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`resume --json` carries the same first line as an info message (was: printed on the terminal only)."""
    os.environ["RUNSHEPHERD_BACKEND"] = "local"
    try:
        assert main(["run", "train a small classifier for 1 epoch", "--no-input", "--session", "paused"]) == 3
        capsys.readouterr()
        main(["resume", "paused", "--json", "--no-input", "--answer", "no"])
    finally:
        del os.environ["RUNSHEPHERD_BACKEND"]
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first == {
        "event": "message",
        "level": "info",
        "text": "session paused: resumed — train-classifier is planned, nothing submitted yet",
        "session": "paused",
    }, first
