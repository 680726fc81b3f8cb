"""The run hit its time limit (OSMO exec_timeout, Slurm TimeLimit, a Job deadline)."""

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

_EXPL = "The run was stopped because it reached its time limit before finishing."
_FIX = (
    "Raise the time limit (`timeout.exec_timeout`, or the scheduler's wall time) and save checkpoints "
    "regularly so a stopped run can resume instead of starting over."
)

TIMEOUT = register(
    PatternRule(
        name="timeout",
        label="timeout",
        origin="config",
        fix_kind="increase_timeout_or_checkpoint",
        explanation=_EXPL,
        fix_description=_FIX,
        patterns=(
            pat(r"DUE TO TIME LIMIT", 0.97),
            pat(r"FAILED_EXEC_TIMEOUT", 0.97, flags=0),
            pat(r"JobState=TIMEOUT|Reason=TimeLimit", 0.96, flags=0),
            # sacct rows (parsable or columns: JobName Partition Account AllocCPUS before State) and seff's State
            pat(
                r"\|TIMEOUT\||^\s*\d+(?:_\d+)?(?:\.\w+)?\s+(?:\S+\s+){1,5}TIMEOUT\s+-?\d+:\d+|^State: TIMEOUT\b",
                0.95,
                flags=0,
            ),
            pat(r"exceeded (?:its |the )?exec_timeout|exec[_ ]timeout (?:exceeded|reached)", 0.95),
            pat(r"Job was active longer than specified deadline|DeadlineExceeded", 0.95),
            pat(r"walltime exceeded|job killed: walltime|wall[- ]?clock (?:time )?limit (?:exceeded|reached)", 0.95),
            pat(r"exceeded (?:the )?maximum (?:execution|run) ?time|time limit (?:exceeded|reached)", 0.9),
            pat(r"^timeout: sending signal \w+ to command", 0.9),
        ),
    )
)


@rule
def timeout_status(ctx: Context) -> list[Signal]:
    if ctx.status != "FAILED_EXEC_TIMEOUT":
        return []
    return [
        Signal(
            "timeout",
            "config",
            0.97,
            ORDER_STATUS,
            [f"status: {ctx.status}"],
            _EXPL,
            "increase_timeout_or_checkpoint",
            _FIX,
        )
    ]


@rule
def timeout_exit(ctx: Context) -> list[Signal]:
    """Exit 124 is what coreutils `timeout` returns when it had to stop the command."""
    if 124 not in codes_of(ctx):
        return []
    ev, order = exit_evidence(ctx, {124})
    return [
        Signal(
            "timeout",
            "config",
            0.6,
            order,
            ev,
            _EXPL + " (exit code 124 is the `timeout` command's.)",
            "increase_timeout_or_checkpoint",
            _FIX,
        )
    ]
