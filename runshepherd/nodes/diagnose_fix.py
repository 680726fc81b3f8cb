"""diagnose_fix: classify the outcome from status, exit codes, events and the readers' digests, then choose:
report (healthy), resubmit unchanged (infra, own budget), a whole-spec fix (user/config), or ask the person.

Reads only; the resubmission itself happens in `submit` after approval.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command, Overwrite

from runshepherd.backends.base import Status, jsonable, runs_on_host
from runshepherd.events import DiagnosisEvent, FixProposed, FixSuggestion
from runshepherd.experts.base import second_look
from runshepherd.graph.context import Deps, deps_of
from runshepherd.graph.state import SessionState, clip, new_attempt, submitted_id
from runshepherd.nodes.cadence import infra_backoff
from runshepherd.nodes.common import emit, fix_budget, flush_llm, infra_retry_allowed, pause, say, seed_llm
from runshepherd.subagents.workflow_expert.graph import ExpertContext, workflow_expert

INFRA_STATUSES = {
    Status.FAILED_BACKEND_ERROR,
    Status.FAILED_SERVER_ERROR,
    Status.FAILED_START_TIMEOUT,
    Status.FAILED_PREEMPTED,
    Status.FAILED_EVICTED,
}

Route = Literal["report", "submit", "approve_resubmit", "ask_person"]


def _inputs(state: SessionState, deps: Deps) -> tuple[Any, str, dict[str, dict[str, Any]]]:
    from runshepherd.diagnosis.models import DiagnosisInput, MetricsHints

    wid = submitted_id(state)  # a refused submission is diagnosed from the refusal, not from here
    ws = deps.backend.query(wid)
    events = deps.backend.events(wid)
    results = sorted(
        (r for r in state.get("reader_results") or [] if r["attempt"] == state["attempt"]["n"]),
        key=lambda r: r["reader"],
    )
    log_lines: dict[str, list[str]] = {}
    nan = False
    for r in results:
        for task, f in r["facts"].items():
            lines = list(f.get("error_lines") or [])
            if f.get("root_error") and f["root_error"] not in lines:
                lines.append(f["root_error"])
            log_lines[task] = lines
            nan = nan or any("nan" in str(flag).lower() for flag in f.get("flags") or [])
    digest = clip("\n\n".join(r["markdown"] for r in results))
    inp = DiagnosisInput.from_workflow(
        ws, events=events, log_lines=log_lines, spec_text=deps.backend.spec(wid), metrics=MetricsHints(nan_seen=nan)
    )
    return inp, digest, _digest_facts(results)


def _digest_facts(results: list[Any]) -> dict[str, dict[str, Any]]:
    """What the final report needs from the last digests (one source of truth): stage, progress, metrics, time."""
    keep = ("stage", "progress", "metrics", "last_update")
    facts = {task: {k: f.get(k) for k in keep} for r in results for task, f in r["facts"].items()}
    return dict(list(facts.items())[:50])


def diagnose_fix(state: SessionState, runtime: Runtime[Deps]) -> Command[Route]:
    """The decision below, plus the model path's notices and token usage (when a model is configured)."""
    deps = deps_of(runtime)
    if why := deps.halt_reason():  # the person canceled the sweep or session: no fix, no resubmission, no question
        say("info", f"no fix applied: {why}")
        return Command(goto="report", update={"outcome": "CANCELED", "outcome_reason": why})
    seed_llm(deps, state)
    cmd = _decide(state, deps, lambda: runtime.drain_requested)
    return Command(goto=cmd.goto, update={**(cmd.update or {}), **flush_llm(deps)})


def _decide(state: SessionState, deps: Deps, stopping: Callable[[], bool] = lambda: False) -> Command[Route]:
    from runshepherd.diagnosis import diagnose, diagnose_log_text

    wid = state["attempt"]["workflow_id"]  # None when the backend refused the submission
    if state.get("rejection"):
        text = state["rejection"] or ""
        rejected = diagnose_log_text(text, "submission")
        # a refusal is never healthy, even in words no rule knows (with no error line quoted, "unknown" says only
        # that the text shows no sign of a failure or of health, and a refusal is the failure)
        if rejected.label == "healthy" or (rejected.label == "unknown" and not rejected.evidence):
            from runshepherd.diagnosis import Diagnosis

            lines = [ln for ln in text.splitlines() if ln.strip()][:10]
            rejected = Diagnosis(
                label="validation_error",
                origin="config",
                confidence=0.6,
                evidence=lines,
                explanation=f"The scheduler refused the spec: {lines[0] if lines else text}",
            )
        inp, digest, diags = None, text, [rejected]
        facts: dict[str, dict[str, Any]] = {}
    else:
        inp, digest, facts = _inputs(state, deps)
        diags = diagnose(inp)
    primary = next((d for d in diags if d.label != "healthy"), diags[0] if diags else None)
    primary = second_look(deps.get_expert(), inp, primary, digest)  # the model's, when the rules are unsure
    on_host = runs_on_host(deps.backend)
    if on_host and primary is not None and primary.failed() and inp is not None and inp.spec_text:
        from runshepherd.diagnosis.fixes import propose_fix  # the rules' fix, told where the tasks run

        primary = primary.model_copy(update={"fix": propose_fix(primary, inp.spec_text, on_host=True)})
    base = {
        "digest": clip(digest or ""),
        "digest_facts": facts,
        "reader_results": Overwrite([]),
        "read_tasks": [],
        "rejection": None,
    }
    if primary is None or primary.label == "healthy":
        if inp is not None and inp.status is Status.COMPLETED:
            return Command(goto="report", update={**base, "diagnosis": None})
    assert primary is not None
    d = primary.model_dump(mode="json")
    emit(
        DiagnosisEvent(
            workflow_id=wid,
            label=primary.label,
            origin=primary.origin,
            fix=FixSuggestion(kind=primary.fix.kind, description=primary.fix.description),
            explanation=primary.explanation,
            evidence=primary.evidence[:5],
            confidence=primary.confidence,
        )
    )
    base["diagnosis"] = d
    # A cancel is the person's word (or the scheduler's own): never an infrastructure failure to retry.
    infra = (
        inp is not None
        and inp.status is not Status.FAILED_CANCELED
        and (inp.status in INFRA_STATUSES or primary.origin == "infra" or primary.label in _infra_labels())
    )
    if infra and infra_retry_allowed(state, deps):
        n = state.get("infra_retries", 0) + 1
        # Backoff before the unchanged resubmission; a Ctrl-C cuts it short and the graph stops right after this
        # node, so `resume` goes straight to the (idempotent) submit.
        pause(infra_backoff(deps.settings.fixes.infra_backoff_seconds, n), stopping)
        prev = state["attempt"]["n"] + 1
        say(
            "info",
            f"infrastructure failure ({primary.label}); resubmitting unchanged "
            f"(infra retry {n} of {deps.settings.fixes.max_infra_retries}, does not count as a fix attempt)",
        )
        return Command(
            goto="submit",
            update={
                **base,
                "infra_retries": n,
                "attempt": new_attempt(deps.session_id, state.get("session_nonce"), prev, "infra-retry"),
            },
        )
    if state.get("fix_attempts", 0) >= fix_budget(state, deps):
        return Command(goto="ask_person", update=base)
    out = workflow_expert.invoke(
        {
            "mode": "fix",
            "spec": state["spec"],
            "diagnosis": d,
            "base_dir": state.get("spec_base_dir"),
            "nodes": [jsonable(n) for n in deps.backend.resources(state.get("pool"))],
            "on_host": on_host,
        },
        context=ExpertContext(expert=deps.get_expert()),
    )
    if not out.get("new_spec"):  # no safe change: the expert's words are what the person is asked to do
        if out.get("explanation"):
            d["fix"] = {**d["fix"], "description": out["explanation"], "patch": None}
        return Command(goto="ask_person", update=base)
    from runshepherd.logs import redact

    diff = redact(out["diff"])[0]  # a spec line holding a literal secret is shown (and checkpointed) redacted
    fix = {
        "new_spec": out["new_spec"],
        "diff": diff,
        "kind": out["fix_kind"],
        "explanation": out["explanation"],
        "label": primary.label,
    }
    emit(
        FixProposed(attempt=state["attempt"]["n"] + 1, diff=diff, kind=out["fix_kind"], explanation=out["explanation"])
    )
    return Command(goto="approve_resubmit", update={**base, "proposed_fix": fix})


def _infra_labels() -> set[str]:
    from runshepherd.diagnosis.rules import infra_labels  # the rules load when something is diagnosed

    return infra_labels()
