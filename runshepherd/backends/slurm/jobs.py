"""Pure Slurm facts: what one squeue row says, how it maps to OSMO's vocabulary, and what sbatch is asked.

Nothing here runs a command; the backend feeds it text and gets models back, so every mapping is unit-tested.
"""

from __future__ import annotations

import math
from datetime import datetime
from urllib.parse import quote, unquote

from pydantic import BaseModel, ConfigDict

from runshepherd.backends.base import TaskStatus
from runshepherd.spec.model import ResourceSpec

COMMENT_TAG = "runshepherd"

# One squeue call reads every job of a workflow; these are its columns, in order (`-O name:|`).
SQUEUE_FIELDS = (
    "JobID",
    "State",
    "Reason",
    "exit_code",
    "Comment",
    "SubmitTime",
    "StartTime",
    "EndTime",
    "NodeList",
    "Partition",
)

# Pending reasons that never clear by waiting: the monitor is told at once ("Unschedulable").
NEVER_FITS = frozenset(
    {"PartitionConfig", "PartitionNodeLimit", "PartitionTimeLimit", "BadConstraints", "DependencyNeverSatisfied"}
)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JobTag(_Model):
    """What the job comment records, so a fresh process (or another machine) can tell whose job it is."""

    workflow_id: str
    task: str
    key: str | None = None

    def comment(self) -> str:
        parts = [COMMENT_TAG, f"wf={quote(self.workflow_id, safe='')}", f"task={quote(self.task, safe='')}"]
        if self.key is not None:
            parts.append(f"key={quote(self.key, safe='')}")
        return ";".join(parts)

    @classmethod
    def parse(cls, comment: str) -> JobTag | None:
        parts = comment.strip().split(";")
        if not parts or parts[0] != COMMENT_TAG:
            return None
        fields = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
        if "wf" not in fields or "task" not in fields:
            return None
        key = unquote(fields["key"]) if "key" in fields else None
        return cls(workflow_id=unquote(fields["wf"]), task=unquote(fields["task"]), key=key)


class JobRow(_Model):
    """One job as squeue shows it (finished jobs stay listed for MinJobAge)."""

    job_id: str
    state: str
    reason: str
    wait_status: int | None
    tag: JobTag | None
    submit_time: datetime | None
    start_time: datetime | None
    end_time: datetime | None
    nodes: str | None
    partition: str | None


def _time(text: str) -> datetime | None:
    """squeue prints local wall time without a zone; 'N/A'/'Unknown'/'None' are unknown."""
    try:
        return datetime.fromisoformat(text.strip()).astimezone()
    except ValueError:
        return None


def parse_squeue(text: str) -> list[JobRow]:
    rows = []
    for line in text.splitlines():
        cols = line.split("|")
        if len(cols) < len(SQUEUE_FIELDS):
            continue
        job_id, state, reason, wait, comment, submit, start, end, nodes, partition = (c.strip() for c in cols[:10])
        state = state.split()[0] if state else ""  # "CANCELLED by 0" in some versions
        pending = state in ("PENDING", "CONFIGURING")
        rows.append(
            JobRow(
                job_id=job_id,
                state=state,
                reason=reason,
                wait_status=int(wait) if wait.lstrip("-").isdigit() else None,
                tag=JobTag.parse(comment),
                submit_time=_time(submit),
                start_time=None if pending else _time(start),  # a pending job's StartTime is only a forecast
                end_time=_time(end) if state not in ("PENDING", "CONFIGURING", "RUNNING", "COMPLETING") else None,
                nodes=nodes if nodes and nodes not in ("(null)", "N/A") else None,
                partition=partition or None,
            )
        )
    return rows


def exit_code_of(wait_status: int | None) -> int | None:
    """squeue's exit_code is a raw wait status: 768 = exit 3; 9 = killed by SIGKILL → 137 like a shell says."""
    if wait_status is None:
        return None
    signal = wait_status & 0x7F
    return 128 + signal if signal else (wait_status >> 8) & 0xFF


class Verdict(_Model):
    status: TaskStatus
    message: str | None = None
    oom: bool = False


_ALIVE_STATES = {
    "PENDING": TaskStatus.SCHEDULING,
    "CONFIGURING": TaskStatus.INITIALIZING,
    "RUNNING": TaskStatus.RUNNING,
    "COMPLETING": TaskStatus.RUNNING,
    "SUSPENDED": TaskStatus.RUNNING,
    "STOPPED": TaskStatus.RUNNING,
    "RESIZING": TaskStatus.RUNNING,
    "SIGNALING": TaskStatus.RUNNING,
    "STAGE_OUT": TaskStatus.RUNNING,
    # preempted-and-requeued work comes back: alive, never "done"
    "PREEMPTED": TaskStatus.RESCHEDULED,
    "REQUEUED": TaskStatus.RESCHEDULED,
    "REQUEUE_HOLD": TaskStatus.RESCHEDULED,
    "REQUEUE_FED": TaskStatus.RESCHEDULED,
}


def verdict(state: str, reason: str, exit_code: int | None) -> Verdict:
    """Slurm job state → OSMO task status (issue #7's table); unknown states stay alive rather than be guessed."""
    if state in _ALIVE_STATES:
        if state == "PENDING" and reason in ("Dependency",):
            return Verdict(status=TaskStatus.WAITING)
        return Verdict(status=_ALIVE_STATES[state])
    said = f"Slurm JobState={state} Reason={reason}"
    if state == "COMPLETED":
        return Verdict(status=TaskStatus.COMPLETED)
    if state == "FAILED":
        code = "unknown" if exit_code is None else str(exit_code)
        return Verdict(status=TaskStatus.FAILED, message=f"the command exited with code {code} ({said})")
    if state == "OUT_OF_MEMORY":
        return Verdict(
            status=TaskStatus.FAILED,
            oom=True,
            message=f"OOMKilled: the job used more memory than its --mem limit ({said})",
        )
    if state in ("TIMEOUT", "DEADLINE"):
        return Verdict(
            status=TaskStatus.FAILED_EXEC_TIMEOUT, message=f"the job reached its time limit and was stopped ({said})"
        )
    if state == "CANCELLED":
        if reason.startswith("Dependency"):
            return Verdict(
                status=TaskStatus.FAILED_UPSTREAM,
                message=f"an upstream task failed, so this one never started ({said})",
            )
        return Verdict(status=TaskStatus.FAILED_CANCELED, message=f"canceled ({said})")
    if state == "NODE_FAIL":
        return Verdict(status=TaskStatus.FAILED_BACKEND_ERROR, message=f"the node running the job failed ({said})")
    if state == "BOOT_FAIL":
        return Verdict(status=TaskStatus.FAILED_START_ERROR, message=f"the node could not boot for the job ({said})")
    if state in ("REVOKED", "SPECIAL_EXIT"):
        return Verdict(status=TaskStatus.FAILED, message=said)
    return Verdict(status=TaskStatus.PROCESSING, message=f"unrecognised Slurm state {state!r}")


# ------------------------------------------------------------------------------------------- sbatch
def time_limit_minutes(seconds: int) -> int:
    """Slurm's --time is whole minutes: round up, never below one."""
    return max(1, math.ceil(seconds / 60))


def resource_args(res: ResourceSpec) -> list[str]:
    """`resources` → --cpus-per-task / --mem (MiB, rounded up) / --gres=gpu:N. Storage has no portable flag."""
    args = []
    if res.cpu:
        args.append(f"--cpus-per-task={max(1, math.ceil(res.cpu))}")
    if res.memory_bytes:
        args.append(f"--mem={max(1, math.ceil(res.memory_bytes / 1024**2))}M")
    if res.gpu:
        args.append(f"--gres=gpu:{res.gpu}")
    return args


def dependency_arg(after_ok: list[str]) -> list[str]:
    """Inputs wait for success (`afterok`); a job whose upstream failed is canceled by Slurm, not left pending."""
    if not after_ok:
        return []
    return ["--dependency=afterok:" + ":".join(after_ok), "--kill-on-invalid-dep=yes"]
