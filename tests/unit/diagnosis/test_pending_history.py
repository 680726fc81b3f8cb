"""A job that waited in the queue, then ran and failed, failed for what its log says, not for having waited.

On a busy one-node Slurm a plain `sbatch` job first pends with Reason=Resources, then starts; the watch
recorded that as a Pending event, and the rules called the finished job "unschedulable" (the e2e watch test
failed so under load).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from runshepherd.backends.base import Event, Status, TaskState, TaskStatus, WorkflowStatus
from runshepherd.diagnosis import DiagnosisInput, diagnose

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "train.py", line 3, in <module>',
    "ModuleNotFoundError: No module named 'flash_attn'",
]


def _workflow(status: TaskStatus, exit_code: int | None, message: str) -> WorkflowStatus:
    task = TaskState(name="plainjob", group="plainjob", status=status, exit_code=exit_code, failure_message=message)
    wf_status = Status.FAILED_CANCELED if status is TaskStatus.FAILED_CANCELED else Status.FAILED
    return WorkflowStatus(workflow_id="sbatch-7", name="plainjob", backend="slurm", status=wf_status, tasks=[task])


def _pending(reason: str) -> Event:
    return Event(time=NOW, task="plainjob", reason="Pending", message=f"JobState=PENDING Reason={reason} (job 7)")


@pytest.mark.parametrize("reason", ["Resources", "Priority", "ReqNodeNotAvail"])
def test_a_job_that_waited_then_ran_is_diagnosed_from_its_log(reason: str) -> None:
    ws = _workflow(
        TaskStatus.FAILED, 1, "the command exited with code 1 (Slurm JobState=FAILED Reason=NonZeroExitCode)"
    )
    events = [_pending(reason), Event(time=NOW, task="plainjob", reason="Scheduled", message="started on localnode")]
    [d] = diagnose(DiagnosisInput.from_workflow(ws, events=events, log_lines={"plainjob": TRACEBACK}))
    assert d.label == "missing_dependency"


def test_a_job_that_never_ran_is_still_unschedulable() -> None:
    ws = _workflow(TaskStatus.FAILED_QUEUE_TIMEOUT, None, "the job waited longer than its queue timeout")
    events = [_pending("PartitionConfig")]
    [d] = diagnose(DiagnosisInput.from_workflow(ws, events=events, log_lines={}))
    assert d.label == "unschedulable"


def test_a_task_refused_room_then_placed_is_diagnosed_from_its_log() -> None:
    """Local/Kubernetes words: a sweep point queued behind the others (Unschedulable, FailedScheduling), then
    Scheduled and Started, then diverged: nan_loss, not unschedulable (was: unschedulable, capacity, 0.9)."""
    ws = _workflow(TaskStatus.FAILED, 1, "exit code 1")
    full = "0/1 nodes are available: 1 Insufficient cpu (requested 1, node has 0 free of 2)."
    events = [
        Event(
            time=NOW, task="plainjob", kind="condition", reason="Unschedulable", message=full, condition="PodScheduled"
        ),
        Event(time=NOW, task="plainjob", reason="FailedScheduling", message=full),
        Event(time=NOW, task="plainjob", reason="Scheduled", message="Successfully assigned sweep-lr-4/train to vm"),
        Event(time=NOW, task="plainjob", reason="Started", message="Started container train"),
    ]
    nan = ["FloatingPointError: Loss is nan at epoch 1 step 80; try a lower learning rate"]
    [d] = diagnose(DiagnosisInput.from_workflow(ws, events=events, log_lines={"plainjob": nan}))
    assert d.label == "nan_loss"
    never = _workflow(TaskStatus.FAILED_QUEUE_TIMEOUT, None, "the job waited longer than its queue timeout")
    [d] = diagnose(DiagnosisInput.from_workflow(never, events=events[:2], log_lines={}))
    assert d.label == "unschedulable"  # never placed: the refusals are still why
