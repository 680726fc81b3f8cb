"""A cancel claimed but never sent: `orchestrate cancel` marks the session, claims the workflow's cancel, and dies
(a kill, a crash) before the scheduler hears of it. Before, the claim kept everyone else from sending it: the
resumed session saw the mark, found the claim, sent nothing, and watched the workflow run on. Now a claim the
scheduler never acknowledged, whose maker is gone, is sent again (a cancel is idempotent) and the session says so."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from cli_helpers import env_for, json_lines, run, spawn

# runs until canceled (bounded, so a failing test leaves nothing running for long)
FOREVER = """\
workflow:
  name: forever
  resources:
    default: {cpu: 0.25, memory: 128Mi}
  tasks:
  - name: loop
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["for i in $(seq 1 120); do echo step $i/120; sleep 1; done"]
"""

# the door, dying between its claim and the scheduler's cancel
DIES_MID_CANCEL = """\
import os, sys
from pathlib import Path
from runshepherd import cancel_mark
from runshepherd.backends.local.backend import LocalBackend

state = Path(sys.argv[1])
backend = LocalBackend(state)
target = cancel_mark.find_target(backend, state, "k1")
assert target.live, target
backend.cancel = lambda workflow_id: os._exit(9)  # type: ignore[method-assign]
cancel_mark.cancel(backend, state, target, via="orchestrate cancel", approved_by="--yes")
"""


def test_a_claimed_cancel_the_scheduler_never_got_is_sent_again_on_resume(tmp_path: Path) -> None:
    (tmp_path / "forever.yaml").write_text(FOREVER)
    driver = spawn(tmp_path, "run", "--spec", "forever.yaml", "--yes", "--json", "--session", "k1", "--cadence", "0.5")
    assert driver.stdout is not None
    deadline = time.time() + 60
    for line in driver.stdout:
        if '"to": "RUNNING"' in line or time.time() > deadline:
            break
    os.kill(driver.pid, signal.SIGKILL)  # the session's driver is gone; its workflow runs on
    driver.communicate(timeout=30)
    state = tmp_path / "state"
    died = subprocess.run(
        [sys.executable, "-c", DIES_MID_CANCEL, str(state)], env=env_for(tmp_path), capture_output=True, text=True
    )
    assert died.returncode == 9, died.stderr
    assert json.loads(run(tmp_path, "status", "forever-1", "--json").stdout)["status"] == "RUNNING"

    resumed = run(tmp_path, "resume", "k1", "--json", timeout=90)
    events = json_lines(resumed.stdout)
    said = [e["text"] for e in events if e["event"] == "message"]
    assert any(
        "the cancel of forever-1 (session k1 was canceled by you (orchestrate cancel" in t
        and "had been claimed but was never confirmed sent (the process making it ended, or was not heard from for "
        "over a minute): sent again now"
        in t
        for t in said
    ), said
    assert events[-1]["outcome"] == "CANCELED" and resumed.returncode == 1, events[-1]
    assert json.loads(run(tmp_path, "status", "forever-1", "--json").stdout)["status"] == "FAILED_CANCELED"
    audit = [json.loads(x) for x in (state / "audit.jsonl").read_text().splitlines()]
    cancels = [a for a in audit if a["what"] == "cancel"]
    assert [(a["workflow"], a.get("resent")) for a in cancels] == [("forever-1", True)]  # sent once, and said so
