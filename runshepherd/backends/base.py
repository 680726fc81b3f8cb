"""The backend contract (docs/architecture.md §6): one Protocol, plain pydantic models, OSMO's status vocabulary.

Every backend (local, slurm, osmo) implements :class:`Backend` and passes the same conformance suite in
``tests/backends/conformance.py``. Backends never import the graph; the graph only sees these types.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from runshepherd.errors import RunShepherdError

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.spec.document import SpecDocument


# --------------------------------------------------------------------------------------------------- statuses
class Status(str, Enum):
    """Workflow status, normalised to OSMO's vocabulary (the richest of our schedulers)."""

    PENDING = "PENDING"
    RUNNING = "RUNNING"
    WAITING = "WAITING"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    FAILED_SUBMISSION = "FAILED_SUBMISSION"
    FAILED_SERVER_ERROR = "FAILED_SERVER_ERROR"
    FAILED_EXEC_TIMEOUT = "FAILED_EXEC_TIMEOUT"
    FAILED_QUEUE_TIMEOUT = "FAILED_QUEUE_TIMEOUT"
    FAILED_CANCELED = "FAILED_CANCELED"
    FAILED_BACKEND_ERROR = "FAILED_BACKEND_ERROR"
    FAILED_IMAGE_PULL = "FAILED_IMAGE_PULL"
    FAILED_EVICTED = "FAILED_EVICTED"
    FAILED_START_ERROR = "FAILED_START_ERROR"
    FAILED_START_TIMEOUT = "FAILED_START_TIMEOUT"
    FAILED_PREEMPTED = "FAILED_PREEMPTED"

    def alive(self) -> bool:
        return self in _ALIVE

    def terminal(self) -> bool:
        return not self.alive()

    def failed(self) -> bool:
        return self.terminal() and self is not Status.COMPLETED


_ALIVE = frozenset({Status.PENDING, Status.RUNNING, Status.WAITING})


class TaskStatus(str, Enum):
    """Task (and group) status, OSMO's ``TaskGroupStatus``."""

    SUBMITTING = "SUBMITTING"
    WAITING = "WAITING"
    PROCESSING = "PROCESSING"
    SCHEDULING = "SCHEDULING"
    INITIALIZING = "INITIALIZING"
    RUNNING = "RUNNING"
    COMPLETED = "COMPLETED"
    RESCHEDULED = "RESCHEDULED"
    FAILED = "FAILED"
    FAILED_CANCELED = "FAILED_CANCELED"
    FAILED_SERVER_ERROR = "FAILED_SERVER_ERROR"
    FAILED_BACKEND_ERROR = "FAILED_BACKEND_ERROR"
    FAILED_EXEC_TIMEOUT = "FAILED_EXEC_TIMEOUT"
    FAILED_QUEUE_TIMEOUT = "FAILED_QUEUE_TIMEOUT"
    FAILED_IMAGE_PULL = "FAILED_IMAGE_PULL"
    FAILED_UPSTREAM = "FAILED_UPSTREAM"
    FAILED_EVICTED = "FAILED_EVICTED"
    FAILED_START_ERROR = "FAILED_START_ERROR"
    FAILED_START_TIMEOUT = "FAILED_START_TIMEOUT"
    FAILED_PREEMPTED = "FAILED_PREEMPTED"

    def alive(self) -> bool:
        return self in _TASK_ALIVE

    def terminal(self) -> bool:
        return not self.alive()

    def failed(self) -> bool:
        return self.value.startswith("FAILED")

    def in_queue(self) -> bool:
        return self in {TaskStatus.SUBMITTING, TaskStatus.WAITING, TaskStatus.PROCESSING, TaskStatus.SCHEDULING}


_TASK_ALIVE = frozenset(
    {
        TaskStatus.SUBMITTING,
        TaskStatus.WAITING,
        TaskStatus.PROCESSING,
        TaskStatus.SCHEDULING,
        TaskStatus.INITIALIZING,
        TaskStatus.RUNNING,
        TaskStatus.RESCHEDULED,
    }
)


def aggregate_status(group_statuses: list[TaskStatus]) -> Status:
    """OSMO's ``_aggregate_status``: how group statuses roll up into one workflow status.

    Any unfinished group → RUNNING if one runs else PENDING. All finished: cancel > server error > exec timeout >
    queue timeout > a shared failure status (ignoring FAILED_UPSTREAM) > FAILED; all COMPLETED → COMPLETED.
    """
    if not group_statuses:
        return Status.PENDING
    if any(s.alive() for s in group_statuses):
        return Status.RUNNING if TaskStatus.RUNNING in group_statuses else Status.PENDING
    if all(s is TaskStatus.COMPLETED for s in group_statuses):
        return Status.COMPLETED
    for special in (
        TaskStatus.FAILED_CANCELED,
        TaskStatus.FAILED_SERVER_ERROR,
        TaskStatus.FAILED_EXEC_TIMEOUT,
        TaskStatus.FAILED_QUEUE_TIMEOUT,
    ):
        if special in group_statuses:
            return Status(special.value)
    failures = {s for s in group_statuses if s.failed() and s is not TaskStatus.FAILED_UPSTREAM}
    if len(failures) == 1:
        only = failures.pop()
        try:
            return Status(only.value)
        except ValueError:
            return Status.FAILED
    return Status.FAILED


Priority = Literal["HIGH", "NORMAL", "LOW"]


# --------------------------------------------------------------------------------------------------- models
class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_enum_values=False)


class Submission(_Model):
    workflow_id: str
    pool: str
    overview_url: str | None = None
    outputs: list[str] = Field(default_factory=list, description="declared output URLs (from the spec)")
    warnings: list[str] = Field(default_factory=list)


class TaskState(_Model):
    name: str
    group: str
    status: TaskStatus
    exit_code: int | None = None
    failure_message: str | None = None
    retry_id: int = 0
    lead: bool = False
    node: str | None = None
    scheduling_start_time: datetime | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    outputs: list[str] = Field(default_factory=list, description="URLs of what this task wrote to {{output}}")


class Links(_Model):
    overview: str | None = None
    grafana: str | None = None
    dashboard: str | None = None


class WorkflowStatus(_Model):
    """One query of a workflow. Unknown values are None, never guessed."""

    workflow_id: str
    name: str
    status: Status
    pool: str | None = None
    backend: str
    priority: str = "NORMAL"
    submit_time: datetime | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    queued_time: float | None = Field(None, description="seconds spent before the first task ran")
    duration: float | None = Field(None, description="seconds from first start to end (or now)")
    exec_timeout: float | None = None
    queue_timeout: float | None = None
    tasks: list[TaskState] = Field(default_factory=list)
    links: Links = Field(default_factory=Links)
    outputs: list[str] = Field(default_factory=list, description="URLs of the outputs written so far")
    failure_message: str | None = None

    def task(self, name: str) -> TaskState:
        for t in self.tasks:
            if t.name == name:
                return t
        raise KeyError(name)


class WorkflowSummary(_Model):
    workflow_id: str
    name: str
    status: Status
    pool: str | None = None
    priority: str = "NORMAL"
    submit_time: datetime | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    duration: float | None = None
    overview_url: str | None = None


class Event(_Model):
    """A scheduler event in OSMO's two line kinds: pod conditions and pod events."""

    time: datetime
    task: str
    retry_id: int = 0
    kind: Literal["condition", "event"] = "event"
    reason: str
    message: str
    condition: str | None = Field(None, description="for kind=condition: e.g. PodScheduled")
    condition_status: bool | None = None

    def line(self) -> str:
        stamp = self.time.strftime("%Y-%m-%d %H:%M:%S")
        who = self.task if not self.retry_id else f"{self.task} retry-{self.retry_id}"
        if self.kind == "condition":
            return (
                f"{stamp} [{who}] {self.condition}: {self.condition_status}, "
                f"Reason: {self.reason}, Message: {self.message}"
            )
        return f"{stamp} [{who}] {self.reason}: {self.message}"


class Pool(_Model):
    name: str
    description: str = ""
    status: Literal["ONLINE", "OFFLINE", "MAINTENANCE"] = "ONLINE"
    backend: str
    default_platform: str | None = None
    # GPU accounting as OSMO reports it; None = this backend cannot know (never guessed).
    quota_limit: int | None = None
    quota_used: int | None = None
    quota_free: int | None = None
    total_capacity: int | None = None
    total_usage: int | None = None
    total_free: int | None = None
    notes: list[str] = Field(default_factory=list, description="caveats a person must know, e.g. images ignored")

    def effective_gpu_free(self) -> int | None:
        """The skill's rule: what a NORMAL job can use now = min(quota free, total free)."""
        vals = [v for v in (self.quota_free, self.total_free) if v is not None]
        return min(vals) if vals else None


class TaskUsage(_Model):
    """What a running task uses now, where the backend can measure it (None = cannot know)."""

    task: str
    cpu_percent: float | None = None
    cpu_interval_seconds: float | None = Field(None, description="the interval cpu_percent was measured over")
    rss_bytes: int | None = None
    gpus_allocated: int | None = None
    gpu_util_percent: float | None = None


class Node(_Model):
    hostname: str
    pool: str
    platform: str | None = None
    conditions: list[str] = Field(default_factory=list)
    taints: list[str] = Field(default_factory=list)
    cpu_total: float
    cpu_free: float
    memory_total_gi: float
    memory_free_gi: float
    storage_total_gi: float | None = None
    storage_free_gi: float | None = None
    gpu_total: int = 0
    gpu_free: int = 0


# --------------------------------------------------------------------------------------------------- errors
class BackendError(RunShepherdError):
    """A backend operation failed in a way the person should see."""

    exit_code = 1


class OutOfScope(BackendError):
    """A URL or path outside what the backend may read or write (another scheme, another folder, `..`)."""

    exit_code = 2


# What an unknown workflow's error ends with when its backend gives no hint of its own: the chat says it in its own
# terms (`ChatSession._in_chat_terms`), MCP in its tools' (`mcpserver/wording`).
KNOWN_ONES = "run `orchestrate list` to see the known ones"


class WorkflowNotFound(BackendError):
    exit_code = 2

    def __init__(self, workflow_id: str, backend: str, hint: str = "") -> None:
        self.workflow_id = workflow_id
        msg = f"no workflow {workflow_id!r} on the {backend} backend"
        super().__init__(msg + f" — {hint or KNOWN_ONES}")


class SubmissionRejected(BackendError):
    """The backend refused the spec (validation, resources it can never satisfy, unsupported field)."""

    exit_code = 2


class BackendUnavailable(BackendError):
    """Server unreachable or not logged in; the session pauses (exit 4) and can resume later."""

    exit_code = 4


class AuthRequired(BackendUnavailable):
    pass


class RetryLater(BackendError):
    """Transient refusal (HTTP 429 / osmo exit 75): retry with backoff; not a failure of the workflow."""

    exit_code = 4


# --------------------------------------------------------------------------------------------------- protocol
@runtime_checkable
class Backend(Protocol):
    """What every scheduler adapter provides. Methods are synchronous and bounded in time."""

    name: str

    def submit(
        self,
        spec: SpecDocument,
        pool: str | None = None,
        *,
        priority: Priority = "NORMAL",
        idempotency_key: str | None = None,
    ) -> Submission: ...

    def query(self, workflow_id: str) -> WorkflowStatus: ...

    def list_workflows(
        self, *, statuses: list[Status] | None = None, pool: str | None = None, limit: int = 50
    ) -> list[WorkflowSummary]: ...

    def logs(
        self,
        workflow_id: str,
        task: str | None = None,
        *,
        tail: int | None = None,
        timeout: float | None = None,
    ) -> Iterator[str]:
        """Lines in OSMO's format, oldest first; bounded by ``tail`` lines and ``timeout`` seconds."""
        ...

    def events(self, workflow_id: str, task: str | None = None) -> list[Event]: ...

    def spec(self, workflow_id: str, *, template: bool = False) -> str: ...

    def cancel(self, workflow_id: str) -> None: ...

    def pools(self) -> list[Pool]: ...

    def resources(self, pool: str | None = None) -> list[Node]: ...

    def download(self, url: str, dest: Path) -> list[Path]: ...

    def find_by_key(self, idempotency_key: str) -> str | None: ...

    def wait_for_change(self, workflow_id: str, timeout: float) -> bool:
        """Block until the workflow may have changed or ``timeout`` passes; True if woken by a change.

        Backends that cannot signal changes just sleep (see :func:`sleep_wait`), so the monitor's cadence holds.
        """
        ...


@dataclass(frozen=True)
class WholeLog:
    """Where a task's whole log can be read from, for the streaming file scanner (constant memory).

    ``cap_reason`` says why the log may be incomplete (a capture timeout or byte cap hit while streaming it),
    so readers report it instead of presenting part of a log as the whole. ``temporary``: a spooled copy the
    reader deletes when done.
    """

    path: Path
    cap_reason: str | None = None
    temporary: bool = False
    stderr: Path | None = None  # a separate error stream (e.g. `sbatch --error=`), digested with the log


@runtime_checkable
class WholeLogSource(Protocol):
    """Optional capability: a task's whole log (a tail hides a root error followed by thousands of warnings)."""

    def whole_log(self, workflow_id: str, task: str) -> WholeLog: ...


@runtime_checkable
class BatchQuery(Protocol):
    """Optional capability: the status of several workflows in one scheduler read (Slurm: one `squeue` for all
    their unfinished jobs; local: one pass opening only the state files rewritten since the last pass; OSMO: one
    `workflow list`, a `workflow query` only for a workflow whose status changed). A sweep
    polls all its workflows through it once per tick (`sweep/poll.py`)."""

    def query_many(self, workflow_ids: list[str]) -> dict[str, WorkflowStatus]: ...


@runtime_checkable
class UsageMeter(Protocol):
    """Optional capability: live CPU/memory/GPU use of a workflow's tasks (local measures its process trees)."""

    def usage(self, workflow_id: str) -> list[TaskUsage]: ...


@runtime_checkable
class CheapLogs(Protocol):
    """Optional capability: reading a log tail is cheap (local files), so the monitor may refresh progress
    between status polls. On OSMO a log read is a streaming HTTP call: such backends do not declare it."""

    cheap_logs: bool


@runtime_checkable
class CheapStatus(Protocol):
    """Optional capability: ``wait_for_change`` wakes only when a workflow's status changed, and reading a status is
    no scheduler call (local state files). A sweep's point then re-reads its status when it wakes instead of waiting
    out the shared tick (a one-point sweep of a 6-second job took 32 s at the 30 s training tick). Slurm (its wake
    also watches logs; a read is an `squeue`) and OSMO (a read is an HTTP call) do not declare it."""

    cheap_status: bool


@runtime_checkable
class ForeignJobs(Protocol):
    """Optional capability: a job submitted outside RunShepherd (plain sbatch) is followed with no workflow spec;
    what the scheduler says it runs and where its output goes stands in for one (`explain`)."""

    def description(self, workflow_id: str) -> str | None: ...


@runtime_checkable
class TaskPlacement(Protocol):
    """Optional capability: whether tasks run straight on a machine (the person's own, a cluster node) rather than
    each in its own container image. A fix that installs system packages would change that machine, so there the
    fixer only proposes it. OSMO declares False; a backend that does not declare it counts as on the host."""

    runs_on_host: bool


@runtime_checkable
class UnfitRefusal(Protocol):
    """Optional capability: whether the scheduler itself refuses, at submit, a task no node can hold (OSMO's
    capacity validation, which the fix loop answers with a smaller request) rather than queueing it for ever. Where
    it does not (local; Slurm, where such a job can pend; a backend that does not say), the plan never submits such
    a task (`workflow_expert.check`)."""

    refuses_unfit: bool


@runtime_checkable
class SpecValidator(Protocol):
    """Optional capability: check a spec against the scheduler without submitting (`osmo workflow validate`,
    local admission); returns the problems found, [] when it would be accepted."""

    def validate(self, spec: SpecDocument, pool: str | None = None) -> list[str]: ...


def usage_of(backend: object, workflow_id: str) -> list[TaskUsage] | None:
    """Live usage when the backend is a `UsageMeter`, else None (unknown, never zero)."""
    return backend.usage(workflow_id) if isinstance(backend, UsageMeter) else None


def has_cheap_logs(backend: object) -> bool:
    return isinstance(backend, CheapLogs) and backend.cheap_logs


def has_cheap_status(backend: object) -> bool:
    return isinstance(backend, CheapStatus) and backend.cheap_status


def refuses_unfit(backend: object) -> bool:
    """False unless the backend declares that its scheduler refuses a task no node can hold (the safe side)."""
    return isinstance(backend, UnfitRefusal) and backend.refuses_unfit


def runs_on_host(backend: object) -> bool:
    """True unless the backend declares its tasks run in container images (the safe side when it does not say)."""
    return not isinstance(backend, TaskPlacement) or backend.runs_on_host


def sleep_wait(timeout: float) -> bool:
    """Default ``wait_for_change`` for backends that cannot signal: sleep, report no signal."""
    time.sleep(max(0.0, timeout))
    return False


def jsonable(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json")
