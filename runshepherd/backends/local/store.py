"""The local backend's records, beside the shared layout (`runshepherd.backends.files.records`).

``state_dir/workflows/<id>/`` adds ``record.json`` (written once, last, at submit: the commit point — a folder
without it is an abandoned submission), ``state.json`` (rewritten atomically by the supervisor on every change),
``workflow.json`` and ``supervisor.json`` (pid + create time).
"""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import psutil
from pydantic import BaseModel, ConfigDict, Field

from runshepherd.backends.base import Status, TaskStatus
from runshepherd.backends.files.records import WorkflowFiles, utcnow, workflows_root, write_json_atomic
from runshepherd.backends.local.machine import MachineInfo


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WorkflowRecord(_Model):
    """What submit knew; never rewritten."""

    workflow_id: str
    name: str
    pool: str = "local"
    priority: str = "NORMAL"
    idempotency_key: str | None = None
    submit_time: datetime
    declared_outputs: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    machine: MachineInfo | None = Field(None, description="set when the caller injected a machine (tests)")
    exec_timeout: float | None = None
    queue_timeout: float | None = None


class TaskRecord(_Model):
    name: str
    group: str
    lead: bool = False
    status: TaskStatus = TaskStatus.WAITING
    exit_code: int | None = None
    failure_message: str | None = None
    pid: int | None = None
    pid_create_time: float | None = None
    scheduling_start_time: datetime | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    outputs: list[str] = Field(default_factory=list)


class GroupRecord(_Model):
    name: str
    status: TaskStatus = TaskStatus.WAITING
    scheduling_start_time: datetime | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    failure_message: str | None = None


class WorkflowState(_Model):
    """The supervisor's view, rewritten atomically; readers never see a half-written file."""

    workflow_id: str
    status: Status = Status.PENDING
    groups: list[GroupRecord] = Field(default_factory=list)
    tasks: list[TaskRecord] = Field(default_factory=list)
    start_time: datetime | None = None
    end_time: datetime | None = None
    failure_message: str | None = None
    seq: int = 0

    def task(self, name: str) -> TaskRecord:
        for t in self.tasks:
            if t.name == name:
                return t
        raise KeyError(name)

    def group(self, name: str) -> GroupRecord:
        for g in self.groups:
            if g.name == name:
                return g
        raise KeyError(name)


class ProcessRef(_Model):
    """A pid plus its start time: a pid alone may be reused by an unrelated process."""

    pid: int
    create_time: float

    @classmethod
    def of(cls, pid: int) -> ProcessRef:
        return cls(pid=pid, create_time=psutil.Process(pid).create_time())

    def alive(self) -> bool:
        return process_alive(self.pid, self.create_time)


def process_alive(pid: int, create_time: float | None) -> bool:
    try:
        proc = psutil.Process(pid)
        if create_time is not None and abs(proc.create_time() - create_time) > 0.01:
            return False
        return proc.status() != psutil.STATUS_ZOMBIE
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False


# ------------------------------------------------------------------------------------------- layout
class WorkflowDir(WorkflowFiles):
    """The shared layout plus the local backend's own records (submit record, supervisor state and pid)."""

    @property
    def record_path(self) -> Path:
        return self.root / "record.json"

    @property
    def state_path(self) -> Path:
        return self.root / "state.json"

    @property
    def model_path(self) -> Path:
        return self.root / "workflow.json"

    @property
    def supervisor_path(self) -> Path:
        return self.root / "supervisor.json"

    @property
    def supervisor_log(self) -> Path:
        return self.root / "supervisor.log"

    @property
    def cancel_path(self) -> Path:
        return self.root / "cancel-requested"

    def read_record(self) -> WorkflowRecord:
        return WorkflowRecord.model_validate_json(self.record_path.read_text(encoding="utf-8"))

    def read_state(self) -> WorkflowState:
        """The state; for a recorded workflow whose state is missing or unreadable (a submission killed by an
        older version between its two writes, a damaged file), a terminal state saying so, written once."""
        try:
            return WorkflowState.model_validate_json(self.state_path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            if not self.record_path.is_file():
                raise
        state = WorkflowState(
            workflow_id=self.workflow_id,
            status=Status.FAILED_BACKEND_ERROR,
            end_time=utcnow(),
            failure_message=f"the submission was interrupted before the workflow started "
            f"({self.state_path} was missing or unreadable); it never ran — resubmit it",
        )
        write_json_atomic(self.state_path, state)
        return state

    def read_supervisor(self) -> ProcessRef | None:
        try:
            return ProcessRef.model_validate_json(self.supervisor_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None


def remove_abandoned(state_dir: Path) -> list[str]:
    """Delete workflow folders a killed submit left without a record (its commit point); call under the
    submit lock, when no submission can be half-way. Returns the removed ids."""
    root = workflows_root(state_dir)
    if not root.is_dir():
        return []
    gone = [p for p in root.iterdir() if p.is_dir() and not (p / "record.json").exists()]
    for p in gone:
        shutil.rmtree(p, ignore_errors=True)
    return [p.name for p in gone]


def all_workflow_dirs(state_dir: Path) -> list[WorkflowDir]:
    root = workflows_root(state_dir)
    if not root.is_dir():
        return []
    return [WorkflowDir(p) for p in root.iterdir() if p.is_dir() and (p / "record.json").exists()]
