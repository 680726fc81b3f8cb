"""On-disk layout of the local backend and the records in it.

``state_dir/workflows/<id>/`` holds one workflow: ``record.json`` (written once, last, at submit: the commit point
— a folder without it is an abandoned submission), ``state.json``
(rewritten atomically by the supervisor on every change), ``events.jsonl``, ``spec.yaml``/``template.yaml``,
``supervisor.json`` (pid + create time) and ``tasks/<task>/{work,output,log}``. ``state_dir/objects/<id>/<task>/``
is the local object store where outputs land.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import psutil
from filelock import FileLock
from pydantic import BaseModel, ConfigDict, Field

from runshepherd.backends.base import Event, Status, TaskStatus
from runshepherd.backends.local.machine import MachineInfo


def utcnow() -> datetime:
    return datetime.now(UTC)


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


# ------------------------------------------------------------------------------------------- json files
def write_text_atomic(path: Path, text: str) -> None:
    """Temp file + fsync + rename + fsync of the folder: after a crash the file is the old or the new one, whole."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # a platform without directory handles: the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on a directory; the data itself was synced above
    finally:
        os.close(fd)


def write_json_atomic(path: Path, data: BaseModel | dict | list) -> None:
    text = data.model_dump_json(indent=1) if isinstance(data, BaseModel) else json.dumps(data, indent=1)
    write_text_atomic(path, text)


# ------------------------------------------------------------------------------------------- layout
class WorkflowDir:
    """Paths of one workflow's record; pure path arithmetic plus small readers."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def workflow_id(self) -> str:
        return self.root.name

    @property
    def state_dir(self) -> Path:
        return self.root.parent.parent

    record_path = property(lambda self: self.root / "record.json")
    state_path = property(lambda self: self.root / "state.json")
    events_path = property(lambda self: self.root / "events.jsonl")
    spec_path = property(lambda self: self.root / "spec.yaml")
    template_path = property(lambda self: self.root / "template.yaml")
    model_path = property(lambda self: self.root / "workflow.json")
    supervisor_path = property(lambda self: self.root / "supervisor.json")
    supervisor_log = property(lambda self: self.root / "supervisor.log")
    cancel_path = property(lambda self: self.root / "cancel-requested")
    localfiles = property(lambda self: self.root / "localfiles")

    def task_dir(self, task: str) -> Path:
        return self.root / "tasks" / task

    def work_dir(self, task: str) -> Path:
        return self.task_dir(task) / "work"

    def output_dir(self, task: str) -> Path:
        return self.task_dir(task) / "output"

    def log_path(self, task: str) -> Path:
        return self.task_dir(task) / "log"

    def object_dir(self, task: str) -> Path:
        return object_dir(self.state_dir, self.workflow_id, task)

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

    def read_events(self) -> list[Event]:
        try:
            lines = self.events_path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            return []
        return [Event.model_validate_json(line) for line in lines if line.strip()]

    def append_event(self, event: Event) -> None:
        with self.events_path.open("a", encoding="utf-8") as fh:
            fh.write(event.model_dump_json() + "\n")


def workflows_root(state_dir: Path) -> Path:
    return state_dir / "workflows"


def object_dir(state_dir: Path, workflow_id: str, task: str) -> Path:
    return state_dir / "objects" / workflow_id / task


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


_ID_RE = re.compile(r"^(?P<name>.+)-(?P<n>\d+)$")


def allocate_workflow_dir(state_dir: Path, name: str) -> WorkflowDir:
    """``<name>-<N>`` with N one more than any id ever given to this name (OSMO's numbering), under a lock."""
    root = workflows_root(state_dir)
    root.mkdir(parents=True, exist_ok=True)
    counters_path = state_dir / "counters.json"
    with FileLock(str(state_dir / "ids.lock"), timeout=30):
        counters: dict[str, int] = {}
        if counters_path.exists():
            counters = json.loads(counters_path.read_text(encoding="utf-8"))
        last = counters.get(name, 0)
        for p in root.iterdir():
            m = _ID_RE.match(p.name)
            if m and m.group("name") == name:
                last = max(last, int(m.group("n")))
        n = last + 1
        path = root / f"{name}-{n}"
        path.mkdir()
        counters[name] = n
        write_json_atomic(counters_path, counters)
    return WorkflowDir(path)
