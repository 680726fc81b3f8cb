"""`orchestrate "…"` end to end: the main job, pauses and answers, kill -9 and resume, one driver per session."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest
from cli_helpers import EXAMPLES, gated_spec, json_lines, quick_example, run, slow_spec, spawn, until_running

from runshepherd.events import EVENTS


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> list[str]:
    """Where sessions live: SQLite in the state dir (no flag), or PostgreSQL (--checkpointer URL)."""
    return ["--checkpointer", request.getfixturevalue("pg_url")] if request.param == "postgres" else []


def test_main_job_completes_and_downloads_the_model(tmp_path: Path) -> None:
    res = run(tmp_path, "train a small classifier for 3 epochs", "--yes", "--json")
    events = json_lines(res.stdout)
    assert res.returncode == 0, res.stderr
    assert all("session" in e for e in events)
    assert all(EVENTS.validate_python(e) for e in events)  # every line is an event of the published schema
    kinds = [e["event"] for e in events]
    assert kinds[0] == "planned" and kinds[-1] == "done"
    done = events[-1]
    assert done["outcome"] == "COMPLETED" and done["fix_attempts"] == 0
    wid = done["workflow_ids"][0]
    assert (tmp_path / "home" / wid / "train" / "model.npz").is_file() or any(
        p.endswith("model.npz") for p in done["downloaded"]
    )
    statuses = [(e["from"], e["to"]) for e in events if e["event"] == "status"]
    assert statuses[-1][1] == "COMPLETED"


def test_no_input_pauses_and_answer_later_continues(tmp_path: Path) -> None:
    store: list[str] = []  # on PostgreSQL: test_sqlite_sessions_migrate_to_postgres_and_continue_there
    spec = str(quick_example(tmp_path, "train-classifier.yaml"))  # only its end matters: no per-step sleep
    first = run(tmp_path, "run", "--spec", spec, "--no-input", "--json", "--session", "later1", *store)
    assert first.returncode == 3, first.stderr
    events = json_lines(first.stdout)
    assert all(EVENTS.validate_python(e) for e in events)
    question = next(e for e in events if e["event"] == "question")
    assert question["kind"] == "submit" and question["default"] == "yes"
    assert "orchestrate resume later1 --answer" in events[-1]["resume"]
    sessions = json.loads(run(tmp_path, "sessions", "--json", *store).stdout)["sessions"]
    assert sessions[0]["session"] == "later1" and sessions[0]["state"] == "waiting"
    second = run(tmp_path, "resume", "later1", "--answer", "yes", "--no-input", "--json", *store)
    assert second.returncode == 3  # the next question (download) pauses again
    assert any(e["event"] == "submitted" for e in json_lines(second.stdout))
    third = run(tmp_path, "resume", "later1", "--yes", "--json", "--answer", "no", *store)
    assert third.returncode == 0, third.stderr
    assert json_lines(third.stdout)[-1]["outcome"] == "COMPLETED"


def test_no_at_the_submit_question_is_the_persons_final_word(tmp_path: Path) -> None:
    spec = str(EXAMPLES / "train-classifier.yaml")
    assert run(tmp_path, "run", "--spec", spec, "--no-input", "--session", "nope1").returncode == 3
    res = run(tmp_path, "resume", "nope1", "--answer", "no")  # was: "done · CANCELED (you chose not to submit)", 1
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == "session nope1 done · Not submitted, as you said"
    table = run(tmp_path, "sessions").stdout
    assert "nope1" in table and "stopped by you" in table, table
    again = run(tmp_path, "resume", "nope1", "--json")  # the word stands: nothing to continue, nothing submitted
    done = json_lines(again.stdout)[-1]
    assert done["outcome"] == "CANCELED" and done["declined"] is True and done["workflow_ids"] == []
    # an answer to a session that has ended is said to be unused, exit 2 (was: dropped silently, the old result, 0)
    late = run(tmp_path, "resume", "nope1", "--answer", "yes")
    assert late.returncode == 2 and late.stdout == "", late.stdout
    said = " ".join(late.stderr.split())
    assert "session nope1 has already ended: not submitted, as you said." in said, said
    assert "There is no question to answer, so --answer yes was not used" in said, said
    assert json.loads(run(tmp_path, "list", "--json").stdout)["workflows"] == []


def test_kill_9_while_monitoring_then_resume_submits_once(tmp_path: Path, store: list[str]) -> None:
    spec = tmp_path / "slow.yaml"
    spec.write_text(gated_spec(tmp_path / "go"))  # runs until the driver is killed, then finishes at once
    proc = spawn(tmp_path, "run", "--spec", str(spec), "--yes", "--json", "--session", "k9", *store)
    until_running(proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    (tmp_path / "go").touch()
    res = run(tmp_path, "resume", "k9", "--yes", "--json", *store)  # the killed driver's lock is gone
    assert res.returncode == 0, res.stderr
    events = json_lines(res.stdout)
    assert not any(e["event"] == "submitted" and not e.get("reused") for e in events)
    assert events[-1]["outcome"] == "COMPLETED" and events[-1]["workflow_ids"] == ["slow-1"]
    listed = json.loads(run(tmp_path, "list", "--json").stdout)["workflows"]
    assert [w["workflow_id"] for w in listed] == ["slow-1"]


def test_a_second_process_on_the_same_session_is_refused(tmp_path: Path, store: list[str]) -> None:
    spec = tmp_path / "slow.yaml"
    spec.write_text(slow_spec(60))  # still running when both resumes are turned away; canceled below
    proc = spawn(tmp_path, "run", "--spec", str(spec), "--yes", "--json", "--session", "two", *store)
    assert proc.stdout is not None
    for line in proc.stdout:
        if '"event": "submitted"' in line:
            break
    res = run(tmp_path, "resume", "two", "--yes", *store)
    assert res.returncode == 2 and "being driven by another orchestrate process" in res.stderr
    # a racing `resume --answer` said "not waiting for an answer; run `orchestrate resume two`" (which fails the same
    # way): now who drives it (pid and host) and what to do from here
    import socket

    racing = run(tmp_path, "resume", "two", "--answer", "yes", *store)
    said = racing.stderr
    assert racing.returncode == 2 and f"(pid {proc.pid} on {socket.gethostname()}, orchestrate run" in said, said
    assert "not waiting for an answer; run" not in said and "`orchestrate cancel two` cancels it" in said
    assert run(tmp_path, "cancel", "two", "--yes", *store).returncode == 0  # as the message says, on either store
    rest = proc.stdout.read()
    assert proc.wait(timeout=60) == 1 and json_lines(rest)[-1]["outcome"] == "CANCELED"


def test_ctrl_c_leaves_a_resumable_session(tmp_path: Path) -> None:
    spec = tmp_path / "slow.yaml"
    spec.write_text(gated_spec(tmp_path / "go"))  # runs until the driver is interrupted, then finishes at once
    proc = spawn(tmp_path, "run", "--spec", str(spec), "--yes", "--json", "--session", "cc")
    assert proc.stderr is not None
    until_running(proc)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    (tmp_path / "go").touch()
    assert "orchestrate resume cc" in proc.stderr.read()
    res = run(tmp_path, "resume", "cc", "--yes", "--json")
    assert res.returncode == 0, res.stderr
    done = json_lines(res.stdout)[-1]
    assert done["outcome"] == "COMPLETED" and done["workflow_ids"] == ["slow-1"]


def test_sqlite_sessions_migrate_to_postgres_and_continue_there(tmp_path: Path, pg_url: str) -> None:
    spec = tmp_path / "quick.yaml"
    spec.write_text(gated_spec(tmp_path / "go"))
    (tmp_path / "go").touch()  # it only has to finish once resumed on PostgreSQL
    first = run(tmp_path, "run", "--spec", str(spec), "--no-input", "--json", "--session", "mig1")
    assert first.returncode == 3, first.stderr  # waiting for "submit?" in SQLite
    moved = run(tmp_path, "migrate-sessions", pg_url, "--json")
    assert moved.returncode == 0, moved.stderr
    report = json.loads(moved.stdout)
    assert report["copied"] == ["mig1"] and report["checkpoints"] > 0 and report["writes"] > 0
    pg = ["--checkpointer", pg_url]
    listed = json.loads(run(tmp_path, "sessions", "--json", *pg).stdout)["sessions"]
    assert [(s["session"], s["state"]) for s in listed] == [("mig1", "waiting")]
    assert json.loads(run(tmp_path, "migrate-sessions", pg_url, "--json").stdout)["skipped"] == ["mig1"]
    res = run(tmp_path, "resume", "mig1", "--answer", "yes", "--yes", "--json", *pg)
    assert res.returncode == 0, res.stderr
    done = json_lines(res.stdout)[-1]
    assert done["outcome"] == "COMPLETED" and len(done["workflow_ids"]) == 1
    still = json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]
    assert still[0]["state"] == "waiting"  # the SQLite copy was left as it was


def test_sessions_lists_the_points_a_running_sweep_drives_as_running(tmp_path: Path) -> None:
    spec = tmp_path / "slow.yaml"
    spec.write_text(gated_spec(tmp_path / "go"))  # both points run until they have been listed
    proc = spawn(tmp_path, "run", "--spec", str(spec), "--repeat", "2", "--yes", "--json", "--session", "sw")
    assert proc.stdout is not None
    for line in proc.stdout:
        if '"event": "submitted"' in line:
            break
    rows = {r["session"]: r["state"] for r in json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]}
    (tmp_path / "go").touch()
    assert rows.get("sw-p1") == "running" and rows.get("sw-p2") == "running", rows  # not "stopped" mid-run
    proc.stdout.read()
    assert proc.wait(timeout=90) == 0
    rows = {r["session"]: r["state"] for r in json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]}
    assert rows["sw-p1"] == rows["sw-p2"] == "COMPLETED"


def test_a_workflow_command_given_a_session_id_names_the_sessions_workflow(tmp_path: Path) -> None:
    spec = tmp_path / "quick.yaml"
    spec.write_text(gated_spec(tmp_path / "go"))
    (tmp_path / "go").touch()  # it only has to finish
    res = run(tmp_path, "run", "--spec", str(spec), "--yes", "--json", "--session", "qs")
    assert res.returncode == 0, res.stderr
    status = run(tmp_path, "status", "qs")
    assert (
        status.returncode == 2
        and "qs is a session — its workflow is slow-1: orchestrate status slow-1" in status.stderr
    )
    paused = run(tmp_path, "train a small classifier", "--no-input", "--session", "ps")
    assert paused.returncode == 3
    logs = run(tmp_path, "logs", "ps")
    assert logs.returncode == 2 and "ps is a session that has submitted nothing yet" in logs.stderr
