"""Which session waits at a question that would act, named by its session id or by the workflow it runs.

The one lookup behind every cancel (`orchestrate cancel`, the chat, the MCP `cancel` tool): a cancel by either id
of a session paused at its question goes through the same cancel mark (`cancel_mark.cancel_waiting_session`), so
the question is withdrawn wherever it waits. Reads checkpoints only; takes no session lock."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from runshepherd.cancel_mark import ACTING_QUESTIONS

MAX_SCANNED = 200  # newest sessions read when a workflow id is looked up (bounded: one checkpoint read each)


@dataclass(frozen=True)
class Waiting:
    session: str
    kind: str  # the question's kind (submit, resubmit, pending, …)
    text: str
    workflow_id: str | None  # the workflow of its latest attempt, None before anything was submitted


def waiting_session(state_dir: Path, target: str, checkpointer: str | None = None) -> Waiting | None:
    """``target`` as a session id, else as the workflow id a session's latest attempt runs: that session when it
    waits at a question that would act, else None."""
    from runshepherd.graph.builder import compile_graph
    from runshepherd.graph.checkpoint import db_path, open_saver, thread_ids
    from runshepherd.graph.runner import Question, session_config

    if not checkpointer and not db_path(state_dir).exists():
        return None
    with open_saver(state_dir, checkpointer) as saver:
        graph = compile_graph(saver)
        ids = thread_ids(saver)
        for tid in [target] if target in ids else ids[:MAX_SCANNED]:
            snap = graph.get_state(session_config(tid))
            wid = ((snap.values or {}).get("attempt") or {}).get("workflow_id")
            if tid != target and wid != target:
                continue
            asked = [Question.of(i.id, i.value) for i in snap.interrupts]
            if asked and asked[0].kind in ACTING_QUESTIONS:
                return Waiting(tid, asked[0].kind, asked[0].text, wid)
            return None  # the session that runs it is not waiting at such a question
    return None
