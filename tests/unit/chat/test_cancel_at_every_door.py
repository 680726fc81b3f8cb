"""A running session canceled through any door — `orchestrate cancel SESSION`, "cancel it" in the chat, MCP's
`cancel` tool — goes one way (`cancel_mark.cancel`): the session is marked canceled first, then its workflow, so
every door leaves the same record and the session ends with the same words, naming the door and the time.

Before: only the chat marked the session ("X canceled: session S was canceled by you (chat, TIME)"); the CLI and MCP
only canceled the workflow (no `cancel session` record; "X was canceled by you (orchestrate cancel, TIME)", found
in the audit log after a wait of up to 1 s), and MCP told "session S ends CANCELED when it is continued" of a
session that was running."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest


def _cancel(door: str, convo: Any, sid: str) -> str:
    """Cancel session ``sid`` through ``door``; what the person was told there."""
    if door == "chat":
        convo.handle("cancel it")
        convo.handle("yes")
        return ""
    if door == "orchestrate cancel":
        from typer.testing import CliRunner

        from runshepherd.cli.main import app

        state = str(convo.ctx.state_dir)
        res = CliRunner().invoke(app, ["cancel", sid, "--yes", "--state-dir", state, "--backend", "local"])
        assert res.exit_code == 0, res.output
        return str(res.output)
    from runshepherd.mcpserver.sessions import Sessions

    got = Sessions(convo.ctx).cancel(session=sid)
    assert got.canceled and got.session == sid
    return got.message


@pytest.mark.parametrize(
    ("door", "via", "approved"),
    [
        ("chat", "chat", "person"),
        ("orchestrate cancel", "orchestrate cancel", "--yes"),
        ("mcp", "mcp cancel", "person"),
    ],
)
def test_a_running_session_canceled_at_any_door_is_marked_and_ends_saying_who(
    door: str, via: str, approved: str, submitted_chat: tuple[Any, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    convo, d = submitted_chat
    wid, sid = d.workflow_id, d.session
    told = _cancel(door, convo, sid)
    assert d.wait(60, until=lambda: not d.busy)
    out = capsys.readouterr().out
    said = told or out
    assert f"session {sid} canceled: nothing more is submitted or fixed\n  cancel requested for {wid}" in said, said
    ended = f"{wid} canceled: session {sid} was canceled by you ({via}, 20"
    # the session's thread prints on the process's stdout, which CliRunner swaps for its own buffer while the CLI
    # door runs: a line the session prints in that window is in what the door captured
    assert f"info: {ended}" in out + told and f"session {sid} done · CANCELED ({ended}" in out + told, out + told
    assert "outside" not in out and "when it is continued" not in told, out + told
    audit = [json.loads(x) for x in (convo.ctx.state_dir / "audit.jsonl").read_text().splitlines()]
    mine = [(e["what"], e["approved_by"], e["session"]) for e in audit if e.get("via") == via]
    assert mine == [("cancel session", approved, sid), ("cancel", approved, sid)], audit


def test_the_chat_says_cancel_requested_before_the_status_change_it_caused(
    submitted_chat: tuple[Any, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """The run's monitor may see the workflow end before the scheduler's cancel call returns (the local backend's
    returns once the workflow has ended); here it always does. Before: "● status PENDING → FAILED_CANCELED" came
    out before "cancel requested for …"."""
    convo, d = submitted_chat
    seen_end = threading.Event()
    on_event = d.on_event

    def watched(sid: str, ev: dict[str, Any]) -> None:
        if "CANCELED" in json.dumps(ev):
            seen_end.set()
        on_event(sid, ev)

    d.on_event = watched
    backend = convo.ctx.backend
    cancel = backend.cancel

    def slow_to_return(workflow_id: str) -> None:
        cancel(workflow_id)
        if threading.current_thread() is threading.main_thread():  # the chat's call, not the run's own cancel
            seen_end.wait(10)  # the run has seen the end (and, before, printed it) before this call returns

    backend.cancel = slow_to_return
    convo.handle("cancel it")
    capsys.readouterr()
    convo.handle("yes")
    assert d.wait(60, until=lambda: not d.busy)
    out = capsys.readouterr().out
    assert seen_end.is_set()
    assert out.index(f"cancel requested for {d.workflow_id}") < out.index("FAILED_CANCELED"), out


def test_a_workflow_canceled_outside_runshepherd_is_said_so_without_waiting(
    submitted_chat: tuple[Any, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """As scancel or another tool would cancel it: no mark, no audit line. The session looks once (every door of
    RunShepherd marks the session before it cancels, so there is no audit line to wait for) and never says who."""
    convo, d = submitted_chat
    convo.ctx.backend.cancel(d.workflow_id)
    assert d.wait(60, until=lambda: not d.busy)
    out = capsys.readouterr().out
    said = f"{d.workflow_id} was canceled outside RunShepherd (no cancel of it is recorded in this state dir)"
    assert f"info: {said}; it stays canceled" in out and f"done · CANCELED ({said}; not resubmitted)" in out, out
    assert "by you" not in out
