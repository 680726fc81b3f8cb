"""explain_pending: why the workflow waits (events, pools, nodes → plain words: quota, capacity or per-node
fit) and what would make it start. A task that can never fit asks the person; otherwise we keep waiting."""

from __future__ import annotations

from typing import Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from runshepherd.diagnosis.pending import request_of
from runshepherd.events import Pending
from runshepherd.graph.context import Deps, deps_of
from runshepherd.graph.state import SessionState, submitted_id
from runshepherd.nodes.common import ask, emit, say


def explain_pending(state: SessionState, runtime: Runtime[Deps]) -> Command[Literal["monitor", "cancel_workflow"]]:
    from runshepherd.diagnosis.pending import explain_pending as explain

    deps = deps_of(runtime)
    wid = submitted_id(state)
    events = [e.line() for e in deps.backend.events(wid)]
    result = explain(
        events, deps.backend.pools(), deps.backend.resources(None), request_of(state["spec"], state.get("pool"))
    )
    emit(
        Pending(
            workflow_id=wid, kind=result.kind, origin=result.origin, text=result.summary, suggestions=result.suggestions
        )
    )
    update = {"pending_explained": True, "needs_pending_explanation": False, "outcome_reason": result.summary}
    if result.kind != "node_fit":
        return Command(goto="monitor", update=update)
    if deps.halt_reason():  # canceled from elsewhere: its workflow was canceled too; the monitor sees it end
        return Command(goto="monitor", update=update)
    text = f"{result.summary} Cancel {wid}, or keep it waiting?"
    if ask(deps, "pending", text, default="cancel", choices=["cancel", "wait"]) == "cancel":
        return Command(goto="cancel_workflow", update=update)
    return Command(goto="monitor", update=update)


def cancel_workflow(state: SessionState, runtime: Runtime[Deps]) -> dict[str, object]:
    """A side effect in its own node: cancel after the person (or --yes) agreed."""
    deps = deps_of(runtime)
    wid = submitted_id(state)
    deps.backend.cancel(wid)
    deps.audit("cancel", approved_by=deps.approved_by("pending"), workflow=wid, reason="could not be scheduled")
    say("info", f"canceled {wid}")
    return {
        "outcome": "NEEDS_INPUT",
        "outcome_reason": f"{state.get('outcome_reason') or 'it could not be scheduled'} (canceled {wid})",
    }
