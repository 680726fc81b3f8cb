"""`resume SWEEP` first says what it took up, as a session's resume does: its plan still waiting, or how many points
were submitted and the states they were last seen in (in --json too, as an info message). Before, a sweep's resume
began by showing its plan again, with nothing said about the points already running."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sweep_specs import FAILS_ABOVE_ONE_STEP as SPEC
from sweep_specs import tinysweep

from runshepherd.cli.main import main

# long enough that both points still run when the kill lands, however late the reader of its events is
SLOW = tinysweep("echo step {{ steps }}; sleep 20; exit $(( {{ steps }} > 1 ? 3 : 0 ))")


def test_a_sweep_waiting_at_its_plan(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "s.yaml").write_text(SPEC)
    assert main(["run", "--spec", "s.yaml", "--sweep", "steps=1,2", "--no-input", "--session", "swp"]) == 3
    capsys.readouterr()
    main(["resume", "swp", "--no-input"])
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "sweep swp: resumed at its plan (2 point(s)), nothing submitted yet", first


def test_a_killed_sweep_is_re_attached_to_its_points(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (here / "s.yaml").write_text(SLOW)
    argv = [sys.executable, "-m", "runshepherd.cli.main", "run", "--spec", "s.yaml", "--sweep", "steps=1,2"]
    env = {**os.environ, "RUNSHEPHERD_BACKEND": "local"}
    proc = subprocess.Popen([*argv, "--yes", "--json", "--session", "swk"], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    running: set[str] = set()
    try:
        for line in proc.stdout:  # killed once both points run: their checkpoints hold submitted attempts
            if line.startswith("{") and (ev := json.loads(line)).get("event") == "status" and ev["to"] == "RUNNING":
                running.add(ev["workflow_id"])
                if len(running) == 2:
                    break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    capsys.readouterr()
    from runshepherd.graph.runner import SessionRunner

    reads: dict[str, int] = {}  # each point's checkpoint reads before it is driven: once (was three times)
    driven: set[str] = set()
    real_snapshot, real_run = SessionRunner.snapshot, SessionRunner.run

    def snapshot(self: SessionRunner) -> Any:
        if self.session.startswith("swk-") and self.session not in driven:
            reads[self.session] = reads.get(self.session, 0) + 1
        return real_snapshot(self)

    def run(self: SessionRunner, *args: Any, **kwargs: Any) -> Any:
        driven.add(self.session)
        return real_run(self, *args, **kwargs)

    monkeypatch.setattr(SessionRunner, "snapshot", snapshot)
    monkeypatch.setattr(SessionRunner, "run", run)
    main(["resume", "swk", "--no-input", "--json"])
    assert len(reads) == 2 and set(reads.values()) == {1}, reads
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["event"] == "message" and first["session"] == "swk", first
    assert re.fullmatch(r"sweep swk: re-attached to 2 of 2 point\(s\) \(last seen: [^)]+\)", first["text"]), first
