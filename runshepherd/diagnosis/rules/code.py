"""Errors in the user's own code: the root Python exception when no more specific family claims it.

Also the weakest signals: a launcher saying a child failed, or a non-zero exit with nothing else (→ unknown).
"""

from __future__ import annotations

import re

from runshepherd.diagnosis.errorblock import chained_after, exception_type
from runshepherd.diagnosis.prefilter import Gated
from runshepherd.diagnosis.rules.base import Context, PatternRule, Signal, codes_of, exit_evidence, pat, register, rule

_FIX = (
    "Fix the code at the line the traceback points to (the last frame in your own files), test it on a small "
    "input locally, and resubmit. Resources and the task structure stay as they are."
)

SHAPES = register(
    PatternRule(
        name="user_code_shapes",
        label="user_code_error",
        origin="user",
        fix_kind="fix_code",
        explanation="The code failed with a shape or device mismatch between tensors (a bug in the model or data "
        "code, not in the infrastructure).",
        fix_description=_FIX,
        patterns=(
            pat(r"size mismatch for|shapes cannot be multiplied|Expected all tensors to be on the same device", 0.8),
            pat(r"Error executing job with overrides|Traceback \(most recent call last\)", 0.4, secondary=True),
        ),
    )
)


@rule
def root_exception(ctx: Context) -> list[Signal]:
    """The first exception that closes a traceback; later chained ones are consequences."""
    out: list[Signal] = []
    block = ctx.log
    for _rank, idx in enumerate(block.exceptions[:6]):
        ln = block.lines[idx]
        et = exception_type(ln.text)
        if et is None:
            continue
        etype, msg = et
        short = etype.rsplit(".", 1)[-1]
        if short in {"ChildFailedError", "SystemExit", "KeyboardInterrupt", "CalledProcessError"}:
            continue
        is_root = idx == block.root
        strength = 0.66 if is_root else 0.58
        if chained_after(block.lines, idx):
            strength -= 0.05
        detail = f": {msg[:160]}" if msg else ""
        out.append(
            Signal(
                "user_code_error",
                "user",
                strength,
                idx,
                [ln.raw.rstrip()],
                f"The program stopped with an error in its own code ({short}{detail}).",
                "fix_code",
                _FIX,
            )
        )
    return out


_GENERIC = re.compile(
    r"ChildFailedError|srun: error: .*(?:Exited with exit code|task \d+: Exited)|returned non-zero exit status|"
    r"Process \d+ exited with code|exited with (?:exit )?code [1-9]|\bFAILED\b.*\b[1-9]\d*:\d+\b|"
    r"JobState=FAILED|Workflow terminated abnormally|Error: Process completed with exit code|BackoffLimitExceeded|"
    r"Back-off restarting failed container|CrashLoopBackOff"
)
_GENERIC_G = Gated.of(_GENERIC)


@rule
def generic_failure(ctx: Context) -> list[Signal]:
    """Evidence that *something* failed, without saying what: the floor for ``unknown``."""
    out: list[Signal] = []
    for order, ln in ctx.texts():
        if _GENERIC_G.search(ln.text, ln.folded):
            out.append(
                Signal(
                    "unknown",
                    "user",
                    0.3,
                    order if order < 0 else ln.index,
                    [ln.raw.rstrip()],
                    "The run failed, but the logs do not show why (no recognisable error).",
                    "none",
                    "Read the last lines of the task's log with the error block; rerun with more "
                    "logging (e.g. `python -u`, NCCL_DEBUG=INFO) if the log is empty.",
                    secondary=True,
                )
            )
            if len(out) >= 2:
                break
    codes = [c for c in codes_of(ctx) if c not in (0,)]
    if codes:
        ev, order = exit_evidence(ctx, set(codes))
        out.append(
            Signal(
                "unknown",
                "user",
                0.3,
                order,
                ev or [f"exit_code: {codes[0]}"],
                f"The task exited with code {codes[0]} and the logs do not show why.",
                "none",
                "Read the task's full log; rerun with unbuffered output (`python -u`).",
                secondary=True,
            )
        )
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
