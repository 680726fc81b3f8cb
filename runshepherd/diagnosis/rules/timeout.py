"""The run hit its time limit (OSMO exec_timeout, Slurm TimeLimit, a Job deadline)."""

from __future__ import annotations

from runshepherd.diagnosis.fixes import fix_timeout
from runshepherd.diagnosis.rules.base import pat
from runshepherd.diagnosis.rules.family import exits, family

_EXPL = "The run was stopped because it reached its time limit before finishing."
_FIX = (
    "Raise the time limit (`timeout.exec_timeout`, or the scheduler's wall time) and save checkpoints "
    "regularly so a stopped run can resume instead of starting over."
)

FAMILY = family(
    "timeout",
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
            r"\|TIMEOUT\||^\s*\d+(?:_\d+)?(?:\.\w+)?\s+(?:\S+\s+){0,6}TIMEOUT\s+-?\d+:\d+|^State: TIMEOUT\b",
            0.95,
            flags=0,
        ),
        pat(r"exceeded (?:its |the )?exec_timeout|exec[_ ]timeout (?:exceeded|reached)", 0.95),
        pat(r"was active (?:on the node )?longer than (?:the )?specified deadline|DeadlineExceeded", 0.95),
        # PBS/Torque/MOAB, SGE, grid middleware: the wall-clock limit in any word order
        pat(
            r"walltime exceeded|job killed: walltime|wall[- ]?clock (?:time )?limit (?:exceeded|reached)"
            r"|(?:exceed\w*|due to|reach\w*|over) (?:its |the |his |their |hard |maximum |max )*"
            r"(?:wall[- ]?clock|run[- ]?time|time) (?:time )?limit",
            0.95,
        ),
        pat(r"exceeded (?:the )?maximum (?:execution|run) ?time|time limit (?:exceeded|reached)", 0.9),
        # a time limit the program put on a step of its own (Python's subprocess, a harness)
        pat(r"\bTimeoutExpired\b|\bCommand .{0,300} timed out after \d+(?:\.\d+)? ?s|\bTimeout expired\s*$", 0.78),
        pat(r"^timeout: sending signal \w+ to command", 0.9),
        pat(r"TERM_RUNLIMIT|job killed after reaching .{0,30}(?:run|wall) ?time limit", 0.95),
    ),
    statuses={"FAILED_EXEC_TIMEOUT": 0.97},
    # 124 is what coreutils `timeout` returns when it had to stop the command
    exit_codes=(exits(124, strength=0.6, explanation=_EXPL + " (exit code 124 is the `timeout` command's.)"),),
    fixer=fix_timeout,
)
