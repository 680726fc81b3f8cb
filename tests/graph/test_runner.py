"""The SessionRunner over the production checkpointer: stop at a safe point and resume, the lock, pruning, and
the chat's Ctrl-C (which reaches the same runner)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from graph_helpers import make_deps

from runshepherd.backends.local import LocalBackend
from runshepherd.graph.checkpoint import SessionBusy, db_path, open_saver, prune, session_lock
from runshepherd.graph.runner import Asked, Emitted, Finished, SessionRunner, Stopped

# Runs until the test creates tmp_path/go (at most 120 s): alive for as long as a test stops and looks at it, then
# done at once (a fixed `sleep 3` was waited out after the test had done its part).
SLEEPY = """\
workflow:
  name: sleepy
  resources:
    default: {cpu: 1, memory: 128Mi}
  tasks:
  - name: main
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo step 1/2; for i in $(seq 1 1200); do [ -e GO ] && break; sleep 0.1; done; echo step 2/2; \\
echo ok > {{output}}/ok.txt"]
"""


def _spec(tmp_path: Path) -> str:
    p = tmp_path / "sleepy.yaml"
    p.write_text(SLEEPY.replace("GO", str(tmp_path / "go")))
    return str(p)


def test_stop_while_monitoring_then_resume_finishes_with_one_submission(
    tmp_path: Path, checkpointer: str | None
) -> None:
    backend = LocalBackend(tmp_path / "state")
    deps = make_deps(backend, tmp_path, auto_yes=True)
    runner = SessionRunner(deps.state_dir, "s1", deps, max_concurrency=4, checkpointer=checkpointer)
    items = []
    for item in runner.run({"request": "sleep", "spec_path": _spec(tmp_path)}):
        items.append(item)
        if isinstance(item, Emitted) and item.event.get("event") == "submitted":
            threading.Thread(target=runner.stop, args=("test",)).start()  # from another thread, like chat
    end = items[-1]
    assert isinstance(end, Stopped) and end.reason == "test"
    wid = end.values["workflow_ids"][0]
    assert backend.query(wid).status.alive()  # a stop leaves the workflow running
    snap = runner.snapshot()
    assert snap.next and not snap.values.get("outcome")  # resumable, not finished

    (tmp_path / "go").touch()
    again = SessionRunner(deps.state_dir, "s1", deps, max_concurrency=4, checkpointer=checkpointer)
    final = list(again.run())[-1]
    assert isinstance(final, Finished) and final.values["outcome"] == "COMPLETED"
    assert final.values["workflow_ids"] == [wid]  # resumed the same workflow, never submitted twice
    assert SessionRunner.ended(again.snapshot())


def test_questions_pause_the_run_and_answers_continue_it(tmp_path: Path, checkpointer: str | None) -> None:
    backend = LocalBackend(tmp_path / "state")
    deps = make_deps(backend, tmp_path)
    runner = SessionRunner(deps.state_dir, "s1", deps, checkpointer=checkpointer)
    end = list(runner.run({"request": "sleep", "spec_path": _spec(tmp_path)}))[-1]
    assert isinstance(end, Asked) and [q.kind for q in end.questions] == ["submit"]
    assert backend.list_workflows() == []
    assert [q.id for q in runner.questions()] == [q.id for q in end.questions]
    end = list(runner.run(answers={end.questions[0].id: "no"}))[-1]
    assert isinstance(end, Finished) and end.values["outcome"] == "CANCELED"
    assert backend.list_workflows() == []


def test_has_session_is_one_read_that_creates_no_store(tmp_path: Path, checkpointer: str | None) -> None:
    """What `orchestrate cancel WF` asks of every id: is it a session? A state dir without a store stays without."""
    from runshepherd.graph.checkpoint import has_session

    deps = make_deps(LocalBackend(tmp_path / "state"), tmp_path)
    assert not has_session(deps.state_dir, "s1", checkpointer)
    assert not db_path(deps.state_dir).exists()  # asking created nothing
    runner = SessionRunner(deps.state_dir, "s1", deps, checkpointer=checkpointer)
    assert isinstance(list(runner.run({"request": "sleep", "spec_path": _spec(tmp_path)}))[-1], Asked)
    assert has_session(deps.state_dir, "s1", checkpointer)
    assert not has_session(deps.state_dir, "sleepy-1", checkpointer)


def test_a_second_driver_is_refused_while_the_first_holds_the_session(tmp_path: Path, checkpointer: str | None) -> None:
    deps = make_deps(LocalBackend(tmp_path / "state"), tmp_path, auto_yes=True)
    runner = SessionRunner(deps.state_dir, "s1", deps, checkpointer=checkpointer)
    with session_lock(deps.state_dir, "s1", checkpointer), pytest.raises(SessionBusy, match="another orchestrate") as e:
        next(runner.run({"request": "x", "spec_path": _spec(tmp_path)}))
    import os
    import socket

    assert f"(pid {os.getpid()} on {socket.gethostname()}" in str(e.value)  # the driver, as it recorded itself
    with session_lock(deps.state_dir, "s2", checkpointer):  # another session is not blocked
        pass
    with session_lock(deps.state_dir, "s1", checkpointer):  # released when its holder is done
        pass


def test_a_sessions_listing_looking_at_the_lock_does_not_turn_a_resume_away(tmp_path: Path) -> None:
    """`orchestrate sessions` can only look at a SQLite session's flock by taking it for an instant
    (`session_driven`); a resume that starts in that instant waits for the look instead of being told the session
    is busy."""
    from filelock import FileLock

    state = tmp_path / "state"
    (state / "locks").mkdir(parents=True)
    taken = threading.Event()

    def listing_looks() -> None:  # takes the lock, and lets go a moment later
        with FileLock(str(state / "locks" / "s1.lock")):
            taken.set()
            threading.Event().wait(0.05)

    looker = threading.Thread(target=listing_looks)
    looker.start()
    assert taken.wait(5)
    with session_lock(state, "s1"):
        entered = True
    looker.join()
    assert entered


def test_postgres_prune_keeps_the_latest_checkpoint_and_the_session_resumes(tmp_path: Path, pg_url: str) -> None:
    """On PostgreSQL the runner prunes with PostgresSaver.prune(keep_latest): same contract as the SQLite prune."""
    import psycopg

    from runshepherd.graph.checkpoint import prune_saver

    backend = LocalBackend(tmp_path / "state")
    deps = make_deps(backend, tmp_path)
    runner = SessionRunner(deps.state_dir, "s1", deps, checkpointer=pg_url)
    asked = list(runner.run({"request": "sleep", "spec_path": _spec(tmp_path)}))[-1]
    assert isinstance(asked, Asked)

    def count(what: str = "*") -> int:
        with psycopg.connect(pg_url) as conn:
            row = conn.execute(f"SELECT count({what}) FROM checkpoints WHERE thread_id='s1'").fetchone()
            return int(row[0]) if row else 0

    before = count()
    with open_saver(deps.state_dir, pg_url) as saver:
        prune_saver(saver, "s1")
    assert before > count() == count("DISTINCT checkpoint_ns")
    assert [q.id for q in runner.questions()] == [q.id for q in asked.questions]  # same open question
    end = list(runner.run(answers={asked.questions[0].id: "no"}))[-1]
    assert isinstance(end, Finished) and end.values["outcome"] == "CANCELED"


def test_an_unreachable_postgres_is_a_clear_error(tmp_path: Path) -> None:
    from runshepherd.graph.checkpoint import CheckpointerUnavailable

    deps = make_deps(LocalBackend(tmp_path / "state"), tmp_path)
    runner = SessionRunner(deps.state_dir, "s1", deps, checkpointer="postgresql://nobody:secret@127.0.0.1:9/x")
    with pytest.raises(CheckpointerUnavailable, match="cannot reach the session database") as err:
        runner.snapshot()
    assert "secret" not in str(err.value) and "scripts/pg-up.sh" in str(err.value)


def test_a_password_in_the_url_query_is_hidden_and_the_sentence_kept(tmp_path: Path) -> None:
    """`?password=S3cret` (libpq reads it there too) is shown as `***`, like one before the host. Before, the log
    redaction caught it and ate the colon after it: "…?password=[REDACTED:password] connection failed: …"."""
    from runshepherd.graph.checkpoint import CheckpointerUnavailable

    deps = make_deps(LocalBackend(tmp_path / "state"), tmp_path)
    url = "postgresql://nobody@127.0.0.1:9/x?sslmode=disable&password=S3cret"
    runner = SessionRunner(deps.state_dir, "s1", deps, checkpointer=url)
    with pytest.raises(CheckpointerUnavailable) as err:
        runner.snapshot()
    said = str(err.value)
    assert "postgresql://nobody@127.0.0.1:9/x?sslmode=disable&password=***: connection failed" in said, said
    assert "S3cret" not in said, said


def test_the_log_redaction_leaves_a_colon_that_ends_a_secret() -> None:
    from runshepherd.logs.redact import redact

    text, _ = redact("db?password=S3cret: connection failed; token=ab:cd here")
    assert text == "db?password=[REDACTED:password]: connection failed; token=[REDACTED:token] here", text


def _count(db: Path, table: str, thread: str, what: str = "*") -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute(f"SELECT count({what}) FROM {table} WHERE thread_id=?", (thread,)).fetchone()[0]


def test_prune_keeps_only_the_latest_checkpoint_and_the_session_still_resumes(tmp_path: Path) -> None:
    """prune() runs raw SQL on LangGraph's tables: check it against a real multi-step session."""
    backend = LocalBackend(tmp_path / "state")
    deps = make_deps(backend, tmp_path)
    runner = SessionRunner(deps.state_dir, "s1", deps)
    other = SessionRunner(deps.state_dir, "s2", make_deps(backend, tmp_path, session_id="s2"))
    asked = list(runner.run({"request": "sleep", "spec_path": _spec(tmp_path)}))[-1]
    list(other.run({"request": "sleep", "spec_path": _spec(tmp_path)}))
    db = db_path(deps.state_dir)
    before, other_before = _count(db, "checkpoints", "s1"), _count(db, "checkpoints", "s2")
    with open_saver(deps.state_dir) as saver:
        prune(saver.conn, "s1")
    namespaces = _count(db, "checkpoints", "s1", "DISTINCT checkpoint_ns")
    assert before > namespaces and _count(db, "checkpoints", "s1") == namespaces  # the latest per namespace
    assert _count(db, "checkpoints", "s2") == other_before  # other sessions untouched
    with sqlite3.connect(db) as conn:  # no write is left pointing at a deleted checkpoint
        orphans = conn.execute(
            "SELECT count(*) FROM writes w WHERE thread_id='s1' AND NOT EXISTS (SELECT 1 FROM checkpoints c"
            " WHERE c.thread_id=w.thread_id AND c.checkpoint_ns=w.checkpoint_ns AND c.checkpoint_id=w.checkpoint_id)"
        ).fetchone()[0]
    assert orphans == 0
    assert isinstance(asked, Asked)
    assert [q.id for q in runner.questions()] == [q.id for q in asked.questions]  # still waiting, same question
    end = list(runner.run(answers={asked.questions[0].id: "no"}))[-1]
    assert isinstance(end, Finished) and end.values["outcome"] == "CANCELED"


@pytest.mark.slow
def test_ctrl_c_in_chat_stops_the_run_at_a_safe_point(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord
    from runshepherd.cli.context import CliContext

    monkeypatch.chdir(tmp_path)
    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c1"), interactive=False, cadence=0.2)
    d = convo._driver("s1")
    d.deps.auto_yes = True
    d.start({"request": "sleep", "spec_path": _spec(tmp_path), "set_values": {}, "pool": None})
    assert d.wait(60, until=lambda: d.workflow_id is not None) and d.workflow_id
    assert convo.stop_runs() == []  # every run reached a safe point
    assert d.stopped and not d.busy and d.values is None
    assert ctx.backend.query(d.workflow_id).status.alive()  # the workflow keeps running
    snap = SessionRunner(ctx.state_dir, "s1").snapshot()
    assert snap.next and not snap.values.get("outcome")  # resumable: `orchestrate resume s1` continues it
    ctx.backend.cancel(d.workflow_id)
