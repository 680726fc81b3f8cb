"""submit: the one side effect of an attempt, guarded by an idempotency key (session:nonce:attempt).

After a crash anywhere, re-running this node finds the earlier submission with `find_by_key` instead of
submitting the same attempt twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from langgraph.runtime import Runtime
from langgraph.types import Command, Overwrite

from runshepherd.backends.base import SubmissionRejected
from runshepherd.events import Submitted
from runshepherd.graph.context import Deps, deps_of
from runshepherd.graph.state import MAX_ATTEMPTS_KEPT, Attempt, SessionState, cap
from runshepherd.nodes.common import emit, now_iso, say
from runshepherd.spec import load_spec_text


def submit(state: SessionState, runtime: Runtime[Deps]) -> Command[Literal["monitor", "diagnose_fix", "finish"]]:
    deps = deps_of(runtime)
    attempt: Attempt = {**state["attempt"]}
    key = attempt["idempotency_key"]
    wid = attempt.get("workflow_id") or deps.backend.find_by_key(key)
    reused = wid is not None
    if wid is None and (why := deps.halt_reason()):  # the person canceled the sweep or session: final
        say("info", f"not submitted: {why}")
        return Command(goto="finish", update={"outcome": "CANCELED", "outcome_reason": why})
    if wid is None:
        base = state.get("spec_base_dir")
        doc = load_spec_text(
            state["spec"],
            source=f"{state.get('spec_name', 'spec')}.yaml",
            set_values=state.get("set_values") or {},
            base_dir=Path(base) if base else None,
        )
        try:
            sub = deps.backend.submit(doc, state.get("pool"), idempotency_key=key)
        except SubmissionRejected as exc:
            # A refusal (too big for any node, a field this backend cannot honour) is diagnosed like a failure.
            say("error", f"the {deps.backend.name} backend refused the spec: {exc}")
            return Command(goto="diagnose_fix", update={"rejection": str(exc)[:4000]})
        wid = sub.workflow_id
        reason = attempt["reason"]
        if reason == "infra-retry":
            who = "policy: automatic infrastructure retry"
        else:  # the question that approved this attempt
            who = deps.approved_by({"initial": "submit", "resubmit": "no_fix"}.get(reason, "resubmit"))
        deps.audit(
            "submit" if reason == "initial" else "resubmit",
            approved_by=who,
            workflow=wid,
            attempt=attempt["n"],
            reason=reason,
            pool=sub.pool,
        )
        for w in sub.warnings:
            say("warning", w)
    attempt["workflow_id"] = wid
    attempt["submitted_at"] = attempt["submitted_at"] or now_iso()
    emit(Submitted(attempt=attempt["n"], workflow_id=wid, reused=reused, reason=attempt["reason"]))
    ids = list(state.get("workflow_ids") or [])
    if wid not in ids:
        ids.append(wid)
    return Command(
        goto="monitor",
        update={
            "attempt": attempt,
            "workflow_ids": cap(ids, MAX_ATTEMPTS_KEPT),
            "last_status": None,
            "polls": 0,
            "unchanged_polls": 0,
            "pending_since": None,
            "pending_explained": False,
            "reader_results": Overwrite([]),
            "diagnosis": None,
        },
    )
