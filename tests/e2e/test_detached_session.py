"""`orchestrate run --detach`: the session runs in the background, its id is printed at once, `sessions` shows it
running, and `attach` follows its events to the end."""

from __future__ import annotations

import json
import time
from pathlib import Path

from cli_helpers import EXAMPLES, json_lines, quick_example, run


def test_a_detached_session_runs_in_the_background_and_attach_follows_it(tmp_path: Path) -> None:
    started = time.monotonic()
    spec = quick_example(tmp_path, "train-classifier.yaml")  # running or ended are both asserted: no step sleep
    res = run(tmp_path, "run", "--spec", str(spec), "--yes", "--detach", "--json")
    returned_in = time.monotonic() - started
    assert res.returncode == 0, res.stderr
    detached = json.loads(res.stdout)
    sid = detached["session"]
    assert detached["event"] == "detached" and returned_in < 15  # it returns before the job has even started

    rows = {r["session"]: r for r in json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]}
    assert rows[sid]["state"] in ("running", "COMPLETED")

    res = run(tmp_path, "attach", sid, "--json", timeout=240)
    assert res.returncode == 0, res.stderr
    events = json_lines(res.stdout)
    kinds = [e["event"] for e in events]
    assert kinds[0] == "planned" and "submitted" in kinds and kinds[-1] == "done"
    assert events[-1]["outcome"] == "COMPLETED" and all(e["session"] == sid for e in events)
    rows = {r["session"]: r for r in json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]}
    assert rows[sid]["state"] == "COMPLETED"

    human = run(tmp_path, "attach", sid)  # a finished session replays its events and its end
    assert f"session {sid} done · COMPLETED" in human.stdout and "● submitted" in human.stdout


def test_a_detached_session_that_needs_an_answer_says_how_to_give_it(tmp_path: Path) -> None:
    res = run(tmp_path, "run", "--spec", str(EXAMPLES / "fail-command.yaml"), "--detach")
    assert res.returncode == 0, res.stderr
    sid = res.stdout.split()[1]
    res = run(tmp_path, "attach", sid, timeout=120)
    assert res.returncode == 3, res.stdout + res.stderr
    assert "paused, waiting for your answer" in res.stdout and f"orchestrate resume {sid} --answer" in res.stdout


def test_attach_to_an_unknown_session_is_one_clear_line(tmp_path: Path) -> None:
    res = run(tmp_path, "attach", "nope")
    assert res.returncode == 2 and "no session 'nope'" in res.stderr  # was: "was not started with --detach"
