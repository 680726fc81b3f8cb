"""MCP `session` on a session another process drives: "running (in another process)", never "stopped"."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from cli_helpers import slow_spec, spawn, until_running

from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError
from runshepherd.mcpserver.sessions import Sessions


def test_a_session_driven_by_another_process_is_running_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite sessions (a file lock); the PostgreSQL advisory lock is probed in test_session_driven_on_postgres."""
    spec = tmp_path / "slow.yaml"
    spec.write_text(slow_spec(30))
    proc = spawn(tmp_path, "run", "--spec", str(spec), "--yes", "--json", "--session", "far")
    try:
        until_running(proc)
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
        sessions = Sessions(ctx)  # this server drives nothing: only the session lock knows
        view = sessions.view("far")
        assert view.state == "running" and view.driven_by == "another process", view
        assert view.note is not None and "another orchestrate process" in view.note
        assert view.resume_hint is None
        with pytest.raises(UsageError, match="driven by another orchestrate process"):
            sessions.answer("far", "yes")
        proc.send_signal(signal.SIGINT)  # the driver stops at a safe point and releases the lock
        assert proc.wait(timeout=30) == 130
        view = sessions.view("far")
        assert view.state == "stopped" and view.driven_by is None
        assert view.resume_hint is not None and "orchestrate resume far" in view.resume_hint
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
        for wid in [w.workflow_id for w in ctx.backend.list_workflows(statuses=None, pool=None)]:
            if ctx.backend.query(wid).status.alive():
                ctx.backend.cancel(wid)


def test_session_driven_on_postgres_reads_the_advisory_lock_without_taking_it(tmp_path: Path, pg_url: str) -> None:
    from runshepherd.graph.checkpoint import SessionBusy, session_driven, session_lock

    state = tmp_path / "state"
    assert not session_driven(state, "pg1", pg_url)
    with session_lock(state, "pg1", pg_url):  # its own connection, as another process's would be
        assert session_driven(state, "pg1", pg_url)
        assert session_driven(state, "pg1", pg_url)  # probing took nothing: still held, still only once
        assert not session_driven(state, "pg2", pg_url)
    assert not session_driven(state, "pg1", pg_url)
    with session_lock(state, "pg1", pg_url), pytest.raises(SessionBusy):
        with session_lock(state, "pg1", pg_url):
            pass
