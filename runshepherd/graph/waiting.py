"""Which session waits at a question that would act, named by its session id or by the workflow it runs.

The one lookup behind every cancel (`orchestrate cancel`, the chat, the MCP `cancel` tool): a cancel by either id
of a session paused at its question goes through the same cancel mark (`cancel_mark.cancel`), so
the question is withdrawn wherever it waits. A workflow id is traced to its session by the audit log's submit line
(every session submit is audited with its session), so a `cancel WF` reads one file and at most one checkpoint;
takes no session lock."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from runshepherd.cancel_mark import ACTING_QUESTIONS


@dataclass(frozen=True)
class Waiting:
    session: str
    kind: str  # the question's kind (submit, resubmit, pending, …)
    text: str
    workflow_id: str | None  # the workflow of its latest attempt, None before anything was submitted


def submitted_by(state_dir: Path, workflow_id: str) -> str | None:
    """The session that submitted ``workflow_id`` (the newest audited submit or resubmit of it), or None when
    none did (`orchestrate submit`, or a workflow started elsewhere)."""
    from runshepherd.audit import read

    for entry in reversed(read(state_dir)):
        if entry.get("workflow") == workflow_id and entry.get("what") in ("submit", "resubmit"):
            return entry.get("session") or None
    return None


def waiting_session(state_dir: Path, target: str, checkpointer: str | None = None) -> Waiting | None:
    """``target`` as a session id, else as the workflow id a session's latest attempt runs: that session when it
    waits at a question that would act, else None. A workflow that ended while its session waits at the download
    or save-as-app question names that session too: the person's `cancel WF` ends the question as `cancel SESSION`
    does, never "already ended; nothing to cancel" with the question left open."""
    from runshepherd.graph.checkpoint import has_session
    from runshepherd.graph.runner import Question, SessionRunner

    session = target if has_session(state_dir, target, checkpointer) else submitted_by(state_dir, target)
    if session is None:
        return None
    snap = SessionRunner(state_dir, session, checkpointer=checkpointer).snapshot()
    wid = ((snap.values or {}).get("attempt") or {}).get("workflow_id")
    if session != target and wid != target:  # the session has moved on to a later workflow
        return None
    asked = [Question.of(i.id, i.value) for i in snap.interrupts]
    if asked and asked[0].kind in ACTING_QUESTIONS:
        return Waiting(session, asked[0].kind, asked[0].text, wid)
    return None
