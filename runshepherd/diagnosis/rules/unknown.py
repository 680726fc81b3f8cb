"""The floor: evidence that *something* failed without saying what (launcher noise, a bare non-zero exit)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.errorblock import Line
from runshepherd.diagnosis.prefilter import Gated
from runshepherd.diagnosis.rules.base import Context, FunctionRule, Signal
from runshepherd.diagnosis.rules.family import ANY_NONZERO, ExitCodes, family

_GENERIC = re.compile(
    r"ChildFailedError|srun: error: .*(?:Exited with exit code|task \d+: Exited)|returned non-zero exit status|"
    r"Process \d+ exited with code|exited with (?:exit )?code [1-9]|\bFAILED\b.*\b[1-9]\d*:\d+\b|"
    r"JobState=FAILED|Workflow terminated abnormally|Error: Process completed with exit code|BackoffLimitExceeded|"
    r"Back-off restarting failed container|CrashLoopBackOff"
)
_GENERIC_G = Gated.of(_GENERIC)


def _floor(order: int, ln: Line, explanation: str, fix: str) -> Signal:
    """An "unknown" signal quoting one line: evidence of how the run ended that names no failure family."""
    return Signal(
        "unknown",
        "user",
        0.3,
        order if order < 0 else ln.index,
        [ln.raw.rstrip()],
        explanation,
        "none",
        fix,
        secondary=True,
    )


def _generic_failure(ctx: Context) -> list[Signal]:
    """Evidence that *something* failed, without saying what: the floor for ``unknown``."""
    out: list[Signal] = []
    for order, ln in ctx.texts_for(_GENERIC_G):
        if _GENERIC_G.search(ln.text, ln.folded):
            out.append(
                _floor(
                    order,
                    ln,
                    "The run failed, but the logs do not show why (no recognisable error).",
                    "Read the last lines of the task's log with the error block; rerun with more "
                    "logging (e.g. `python -u`, NCCL_DEBUG=INFO) if the log is empty.",
                )
            )
            if len(out) >= 2:
                break
    return out


# LSF's termination reasons for a job its owner killed (TERM_OWNER "Job killed by owner", TERM_FORCE_OWNER "Job killed
# by owner without time for cleanup", TERM_REQUEUE_OWNER "Job killed and requeued by owner", TERM_BUCKET_KILL "Job
# killed with bkill -b", https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_admin/termination_reasons_lsf.html):
# a person's own cancel (``bkill``), not a failure; there is no failure family for it, so the verdict stays "unknown"
# and says who ended the job
_OWNER_KILL = re.compile(
    r"\bTERM_(?:FORCE_|REQUEUE_)?OWNER\b|\bTERM_BUCKET_KILL\b|\bjob killed (?:and requeued )?by (?:its |the )?owner\b",
    re.IGNORECASE,
)
_OWNER_KILL_G = Gated.of(_OWNER_KILL)


def _killed_by_owner(ctx: Context) -> list[Signal]:
    """The job's owner killed it (a cancel): "unknown" as a failure, with the line that says so."""
    for order, ln in ctx.texts_for(_OWNER_KILL_G):
        if _OWNER_KILL_G.search(ln.text, ln.folded):
            return [
                _floor(
                    order,
                    ln,
                    "The job was killed by its owner (a cancel such as `bkill`), not stopped by an error the log "
                    f"shows: “{ln.raw.strip()[:200]}”.",
                    "If nobody meant to cancel it, check who can act as the job's owner; otherwise resubmit it when "
                    "ready. Nothing in the log points to a fix.",
                )
            ]
    return []


def _failed_status(ctx: Context) -> list[Signal]:
    """A FAILED status with nothing else recorded (an ERROR status is the platform's)."""
    out: list[Signal] = []
    if ctx.status and ctx.status.startswith("FAILED") and ctx.status != "FAILED_UPSTREAM":
        out.append(
            Signal(
                "unknown",
                "infra" if "ERROR" in ctx.status else "user",
                0.3,
                -3,
                [f"status: {ctx.status}"],
                "The task failed, but nothing recorded says why.",
                "none",
                "Read the task's full log and events.",
                secondary=True,
            )
        )
    return out


FAMILY = family(
    "unknown",
    origin="user",
    fix_kind="none",
    explanation="The run failed, but the logs do not show why (no recognisable error).",
    fix_description="Read the task's full log; rerun with unbuffered output (`python -u`).",
    rules=(FunctionRule("killed_by_owner", _killed_by_owner), FunctionRule("generic_failure", _generic_failure)),
    exit_codes=(
        ExitCodes(
            ANY_NONZERO,
            0.3,
            explanation=lambda code: f"The task exited with code {code} and the logs do not show why.",
            secondary=True,
        ),
    ),
    late_rules=(FunctionRule("failed_status", _failed_status),),
)
