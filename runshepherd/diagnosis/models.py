"""Boundary models of the diagnosis layer: what goes in, what comes out (docs/architecture.md §10, §13.4).

The input is deliberately independent of the logs package: it takes already-bounded lines, so a digest from
``runshepherd.logs`` or a bare log file can both feed it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from runshepherd.backends.base import Event, Status, TaskState, TaskStatus

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.backends.base import WorkflowStatus

Label = Literal[
    "gpu_oom",
    "host_oom",
    "nccl_or_distributed",
    "missing_dependency",
    "file_not_found",
    "nan_loss",
    "image_pull",
    "unschedulable",
    "timeout",
    "disk_full",
    "cuda_driver",
    "device_assert",
    "permission_or_auth",
    "network_download",
    "preempted",
    "segfault",
    "output_missing",
    "validation_error",
    "user_code_error",
    "healthy",
    "unknown",
]
LABELS: tuple[str, ...] = get_args(Label)

Origin = Literal["user", "infra", "config", "quota", "capacity"]

FixKind = Literal[
    "reduce_memory",
    "increase_memory",
    "add_dependency",
    "fix_path",
    "lower_lr_or_fix_data",
    "fix_image",
    "change_resources_or_wait",
    "increase_timeout_or_checkpoint",
    "free_disk",
    "fix_driver_or_image",
    "fix_code",
    "fix_credentials",
    "retry",
    "resubmit",
    "none",
]
FIX_KINDS: tuple[str, ...] = get_args(FixKind)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Fix(_Model):
    """What to change: a kind from docs/architecture.md §13.4, words for the person, and a unified diff of the spec or None."""

    kind: FixKind = "none"
    description: str = ""
    patch: str | None = None


class Diagnosis(_Model):
    """One verdict for one failed task group (or for a whole log file)."""

    label: Label
    origin: Origin
    confidence: float = Field(ge=0.0, le=1.0)
    evidence: list[str] = Field(default_factory=list, description="verbatim input lines that decided it")
    explanation: str
    fix: Fix = Field(default_factory=Fix)
    task: str | None = None
    what_would_confirm: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _drop_reading(cls, data: Any) -> Any:
        """A verdict checkpointed before stop 64 says who named its label ("rules" or the removed learned fallback's
        "learned"); it resumes as it is, without that key."""
        if isinstance(data, dict) and "reading" in data:
            return {k: v for k, v in data.items() if k != "reading"}
        return data

    def failed(self) -> bool:
        return self.label != "healthy"

    def to_json(self, source: str) -> dict[str, Any]:
        """The object ``orchestrate diagnose --json`` prints for one input (docs/architecture.md §13.4)."""
        return {
            "source": source,
            "label": self.label,
            "origin": self.origin,
            "confidence": round(self.confidence, 3),
            "evidence": list(self.evidence),
            "explanation": self.explanation,
            # diagnose only proposes: the description is the bare action and `status` says it was not applied
            "fix": {
                "kind": self.fix.kind,
                "description": self.fix.description,
                "patch": self.fix.patch,
                "status": "proposed",
            },
        }


class TaskRecord(_Model):
    """A light per-task record; statuses are free strings because fixtures use values OSMO never prints."""

    name: str
    group: str | None = None
    status: str | None = None
    exit_code: int | None = None
    failure_message: str | None = None
    lead: bool = False
    outputs: list[str] = Field(default_factory=list)

    @classmethod
    def from_state(cls, t: TaskState) -> TaskRecord:
        return cls(
            name=t.name,
            group=t.group,
            status=t.status.value,
            exit_code=t.exit_code,
            failure_message=t.failure_message,
            lead=t.lead,
            outputs=list(t.outputs),
        )

    def is_failed(self) -> bool:
        return bool(self.status and self.status.upper().startswith("FAILED")) or (self.exit_code not in (None, 0))

    def is_waiting(self) -> bool:
        return (self.status or "").upper() in {
            TaskStatus.SUBMITTING.value,
            TaskStatus.WAITING.value,
            TaskStatus.PROCESSING.value,
            TaskStatus.SCHEDULING.value,
            TaskStatus.INITIALIZING.value,
            "PENDING",
        }


class MetricsHints(_Model):
    nan_seen: bool = False
    last_loss: float | None = None


class DiagnosisInput(_Model):
    """Everything the deterministic diagnosis looks at. All parts are optional; missing ones are just absent."""

    workflow_id: str | None = None
    status: Status | None = None
    tasks: list[TaskRecord] = Field(default_factory=list)
    events: list[str] = Field(default_factory=list, description="event lines: OSMO, Kubernetes or Slurm text")
    log_lines: dict[str, list[str]] = Field(
        default_factory=dict, description="task name → bounded log lines (error block + tail, or a whole file)"
    )
    metrics: MetricsHints | None = None
    spec_text: str | None = None
    declared_outputs: list[str] = Field(default_factory=list, description="output URLs declared in the spec")
    workflow_outputs: list[str] | None = Field(None, description="outputs actually written (None = unknown)")
    failure_message: str | None = None

    @field_validator("tasks", mode="before")
    @classmethod
    def _accept_task_states(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [TaskRecord.from_state(t) if isinstance(t, TaskState) else t for t in v]
        return v

    @classmethod
    def from_workflow(
        cls,
        wf: WorkflowStatus,
        *,
        events: list[Event] | list[str] | None = None,
        log_lines: dict[str, list[str]] | None = None,
        spec_text: str | None = None,
        metrics: MetricsHints | None = None,
    ) -> DiagnosisInput:
        """Build the input from a backend query (what ``orchestrate diagnose WF`` has in hand)."""
        lines = [e.line() if isinstance(e, Event) else str(e) for e in _settled(events or [])]
        return cls(
            workflow_id=wf.workflow_id,
            status=wf.status,
            tasks=[TaskRecord.from_state(t) for t in wf.tasks],
            events=lines,
            log_lines=dict(log_lines or {}),
            metrics=metrics,
            spec_text=spec_text,
            workflow_outputs=list(wf.outputs),
            failure_message=wf.failure_message,
        )


_NOT_PLACED = {"Unschedulable", "FailedScheduling"}
_PLACED = {"Scheduled", "Started"}


def _settled(events: list[Event] | list[str]) -> list[Event] | list[str]:
    """A task that waited in the queue and then started did not fail for lack of room: its earlier scheduling
    refusals are history (a sweep's point queued behind the others and then diverged is nan_loss, not
    unschedulable). Only typed events can tell; text lines pass unchanged."""
    typed = [e for e in events if isinstance(e, Event)]
    if len(typed) != len(events):
        return events
    last_placed: dict[tuple[str, int], int] = {}
    for i, e in enumerate(typed):
        if e.reason in _PLACED:
            last_placed[(e.task, e.retry_id)] = i
    return [
        e
        for i, e in enumerate(typed)
        if not (e.reason in _NOT_PLACED and last_placed.get((e.task, e.retry_id), -1) > i)
    ]
