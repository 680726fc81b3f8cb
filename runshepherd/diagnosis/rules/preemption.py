"""The platform took the machine away: preemption, node failure, drain, spot reclaim, SIGTERM from outside."""

from __future__ import annotations

from runshepherd.diagnosis.rules.base import (
    ORDER_STATUS,
    Context,
    PatternRule,
    Signal,
    codes_of,
    exit_evidence,
    pat,
    register,
    rule,
)

_EXPL = (
    "The job was stopped by the platform, not by its own code: it was preempted by higher-priority work, or "
    "the machine it ran on failed or was taken away."
)
_FIX = (
    "Resubmit (at NORMAL priority if it ran as LOW, which can be preempted), and save checkpoints regularly so "
    "a restart resumes instead of starting over."
)

PREEMPTED = register(
    PatternRule(
        name="preempted",
        label="preempted",
        origin="infra",
        fix_kind="resubmit",
        explanation=_EXPL,
        fix_description=_FIX,
        patterns=(
            pat(r"FAILED_PREEMPTED|DUE TO PREEMPTION|JobState=PREEMPTED|\|PREEMPTED\|", 0.97, flags=0),
            pat(r"DUE TO NODE FAILURE|\bNODE_FAIL\b|FAILED_BACKEND_ERROR", 0.94, flags=0),
            pat(r"\b(?:was|been|got|is being) preempted\b|\bPreempted\b(?! by)|preempted by", 0.9),
            pat(
                r"spot (?:instance )?(?:interruption|reclaim)|instance (?:was )?(?:reclaimed|terminated by the provider)",
                0.9,
            ),
            pat(
                r"NodeNotReady|NodeShutdown|node (?:is )?(?:shutting down|was drained|being drained|not ready)|Node is not ready",
                0.86,
            ),
            pat(r"CANCELLED AT \S+(?! DUE)", 0.7, flags=0),
            pat(r"\bEvicted\b|pod (?:was )?evicted", 0.72),
            pat(
                r"(?:Received|received|got|caught) (?:signal )?SIGTERM|SIGTERM received|Signal 15 \(SIGTERM\)|received signal 15",
                0.6,
            ),
        ),
    )
)


@rule
def preempted_status(ctx: Context) -> list[Signal]:
    out: list[Signal] = []
    # FAILED_CANCELED is a person's cancel (CLI, chat, the scheduler's own cancel), never evidence of preemption.
    if ctx.status in {"FAILED_PREEMPTED", "FAILED_BACKEND_ERROR"}:
        strength = {"FAILED_PREEMPTED": 0.97, "FAILED_BACKEND_ERROR": 0.8}[ctx.status]
        out.append(
            Signal("preempted", "infra", strength, ORDER_STATUS, [f"status: {ctx.status}"], _EXPL, "resubmit", _FIX)
        )
    hit = set(codes_of(ctx)) & {143, -15, 3001, 3006}
    if hit:
        ev, order = exit_evidence(ctx, hit)
        out.append(
            Signal("preempted", "infra", 0.85 if hit & {3001, 3006} else 0.45, order, ev, _EXPL, "resubmit", _FIX)
        )
    return out
