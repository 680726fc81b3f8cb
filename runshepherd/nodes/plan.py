"""plan: the workflow-expert writes (or takes) the spec, checks resources and picks the pool. No side effects."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from runshepherd.backends.base import jsonable, refuses_unfit
from runshepherd.events import Planned
from runshepherd.graph.context import Deps, deps_of
from runshepherd.graph.state import SessionState, new_attempt, new_session_nonce
from runshepherd.nodes.common import emit, flush_llm, say
from runshepherd.subagents.workflow_expert.graph import ExpertContext, workflow_expert


def _entered(state: SessionState) -> dict[str, Any]:
    """The session's request as it came through the door. `run`, the chat and MCP's `start_run` pass it
    (`request_text.enter`, with ``request_not_used``); a LangGraph server client writes the state itself, so for
    it the plan step is the door."""
    from runshepherd.request_text import enter

    if "request_not_used" in state:
        return {}
    entered = enter(state.get("request", ""), left_out_of="the session, the plan and the job")
    if entered.secret_warning:
        say("warning", entered.secret_warning)
    return {"request": entered.text, "request_not_used": entered.not_used}


def plan(state: SessionState, runtime: Runtime[Deps]) -> dict[str, Any]:
    deps = deps_of(runtime)
    entered = _entered(state)  # written back to the state with whatever this step returns
    pools = [jsonable(p) for p in deps.backend.pools()]
    nodes = [jsonable(n) for n in deps.backend.resources(None)]
    out = workflow_expert.invoke(
        {
            "mode": "plan",
            "request": entered.get("request", state.get("request", "")),
            "not_used": entered.get("request_not_used", state.get("request_not_used")) or [],
            "spec_path": state.get("spec_path"),
            "set_values": state.get("set_values") or {},
            "cwd": str(deps.cwd),
            "pools": pools,
            "nodes": nodes,
            "pool": state.get("pool"),
            "refuses_unfit": refuses_unfit(deps.backend),
        },
        context=ExpertContext(expert=deps.get_expert()),
    )
    llm = flush_llm(deps)
    if out.get("error"):
        say("error", out["error"])
        return {"outcome": "FAILED", "outcome_reason": f"the spec is not valid: {out['error']}", **entered, **llm}
    emit(
        Planned(
            spec_name=out["spec_name"],
            pool=out["pool"],
            message=out["message"],
            warnings=out.get("warnings") or [],
            missing=out.get("missing") or [],
        )
    )
    if why := out.get("cannot_start"):  # before any question: a "yes" or "demo" could not make it start
        say("error", why)
        failed = {"outcome": "FAILED", "outcome_reason": why, "spec": out["spec"], "spec_name": out["spec_name"]}
        return {**failed, **entered, **llm}
    nonce = state.get("session_nonce") or new_session_nonce()
    return {
        "spec": out["spec"],
        "spec_base_dir": out.get("base_dir"),
        "spec_name": out["spec_name"],
        "pool": out["pool"],
        "backend": deps.backend.name,
        "plan_message": out["message"],
        "plan_warnings": out.get("warnings") or [],
        "plan_missing": out.get("missing") or [],
        "plan_substitute": out.get("substitute"),
        "session_nonce": nonce,
        "attempt": new_attempt(deps.session_id, nonce, 1, "initial"),
        "fix_attempts": 0,
        "extra_fixes": 0,
        "unchanged_retries": 0,
        "infra_retries": 0,
        "fix_history": [],
        "workflow_ids": [],
        "transitions": [],
        **entered,
        **llm,
    }
