"""The approval gates: submit, resubmit-with-changes, continue-after-cap / no-safe-fix. Interrupts only."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime
from langgraph.types import Command

from runshepherd import wording
from runshepherd.graph.context import Deps, deps_of
from runshepherd.graph.state import SessionState, cap, new_attempt
from runshepherd.nodes.common import ask, fix_budget, say

NOT_SUBMITTED = "not submitted, as you said"


def _attempts(n: int) -> str:
    return f"{n} fix attempt{'' if n == 1 else 's'}"


def _canceled(deps: Deps) -> Command[Any] | None:
    """The person canceled this session (or its sweep) from elsewhere: the question is not asked (or, resumed
    after the cancel withdrew it, not answered) and nothing is submitted. Checked first, so it holds on a resume."""
    if why := deps.halt_reason():
        say("info", f"not submitted: {why}")
        return Command(goto="finish", update={"outcome": "CANCELED", "outcome_reason": why})
    return None


def approve_submit(state: SessionState, runtime: Runtime[Deps]) -> Command[Literal["submit", "finish"]]:
    deps = deps_of(runtime)
    if (halt := _canceled(deps)) is not None:
        return halt
    missing = state.get("plan_missing") or []
    if missing:  # never a default, not even under --yes: the person accepts the substitution in so many words
        instead = state.get("plan_substitute") or "the drafted spec"
        text = (
            f"Your request names what this plan cannot honour: {'; '.join(missing)}. "
            f"Run {instead} instead (submit {state.get('spec_name')} to pool {state.get('pool')}), or stop?"
        )
        go = "demo" if "demo" in instead else "run"
        if ask(deps, "missing_input", text, default="stop", choices=[go, "stop"], always_ask=True) == go:
            return Command(goto="submit")
        # the person's "stop" is their word, like a "no" to the submit question: nothing was submitted, exit 0
        return Command(goto="finish", update={"outcome": "CANCELED", "outcome_reason": NOT_SUBMITTED, "declined": True})
    text = f"Submit {state.get('spec_name')} to pool {state.get('pool')}?"
    if deps.preauthorised("submit") is None and state.get("plan_warnings"):
        text += " (see the warnings above)"
    if ask(deps, "submit", text, default="yes") == "yes":
        return Command(goto="submit")
    return Command(goto="finish", update={"outcome": "CANCELED", "outcome_reason": NOT_SUBMITTED, "declined": True})


def approve_resubmit(state: SessionState, runtime: Runtime[Deps]) -> Command[Literal["submit", "finish"]]:
    deps = deps_of(runtime)
    if (halt := _canceled(deps)) is not None:  # the fix is never applied, its attempt never counted
        return halt
    fix = state.get("proposed_fix")
    if fix is None:  # only diagnose_fix routes here, always with a proposal
        raise RuntimeError("approve_resubmit without a proposed fix")
    n = state.get("fix_attempts", 0) + 1
    # The diff itself was just shown (the `fix` event); the question stays one readable line.
    text = (
        f"Resubmit with this fix (fix attempt {n} of {fix_budget(state, deps)})? {wording.proposed(fix['explanation'])}"
    )
    if ask(deps, "resubmit", text, default="yes") != "yes":
        return Command(goto="finish", update={"outcome": "FAILED", "outcome_reason": "you declined the fix"})
    prev = state.get("attempt") or {"n": 0}
    history = cap(
        [
            *(state.get("fix_history") or []),
            {
                "attempt": prev["n"] + 1,
                "label": fix["label"],
                "kind": fix["kind"],
                "reason": wording.applied(fix["explanation"]),  # told as done: it runs from now on
                "diff": fix["diff"],
            },
        ],
        10,
    )
    nxt = prev["n"] + 1
    return Command(
        goto="submit",
        update={
            "spec": fix["new_spec"],
            "fix_attempts": n,
            "fix_history": history,
            "proposed_fix": None,
            "attempt": new_attempt(deps.session_id, state.get("session_nonce"), nxt, "fix"),
        },
    )


def ask_person(state: SessionState, runtime: Runtime[Deps]) -> Command[Literal["submit", "finish", "diagnose_fix"]]:
    """After the fix cap, or when no safe fix exists: the person decides."""
    deps = deps_of(runtime)
    if (halt := _canceled(deps)) is not None:
        return halt
    diag = state.get("diagnosis")
    fixes = state.get("fix_attempts", 0)
    at_cap = fixes >= fix_budget(state, deps)
    reason = (diag["explanation"] if diag else "") or "the failure could not be explained"
    if at_cap:
        text = (
            f"Stopped after {_attempts(fixes)}; the last failure: {reason.rstrip(' .')}. Allow one more automatic fix, "
            "or stop here?"
        )
        choice = ask(deps, "continue_after_cap", text, default="stop", choices=["retry", "stop"])
        if choice == "retry":  # one more attempt allowed; the count of attempts made stays what it is
            return Command(goto="diagnose_fix", update={"extra_fixes": state.get("extra_fixes", 0) + 1})
    else:
        fix = (diag["fix"]["description"] if diag else "") or "no automatic change is safe"
        text = (
            f"No safe automatic fix: {reason.rstrip(' .')}. {wording.proposed(fix)} Resubmit unchanged, or stop here?"
        )
        choice = ask(deps, "no_fix", text, default="stop", choices=["resubmit", "stop"])
        if choice == "resubmit":
            prev = state.get("attempt") or {"n": 0}
            nxt = prev["n"] + 1
            return Command(
                goto="submit",
                update={
                    "unchanged_retries": state.get("unchanged_retries", 0) + 1,  # not a fix: nothing changed
                    "attempt": new_attempt(deps.session_id, state.get("session_nonce"), nxt, "resubmit"),
                },
            )
    why = f"gave up after {_attempts(fixes)}" if at_cap else "no safe automatic fix"
    return Command(goto="finish", update={"outcome": "NEEDS_INPUT", "outcome_reason": f"{why}: {reason}"})
