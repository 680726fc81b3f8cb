"""OSMO's JSON shapes as the CLI prints them with ``--format-type json`` (docs/architecture.md §6.4).

Extra fields are ignored (servers add fields between versions); statuses stay plain strings here because hand
written fixtures and newer servers use values our enums do not know — ``parse.py`` maps them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator


class _Shape(BaseModel):
    model_config = ConfigDict(extra="ignore")


def _utc(v: Any) -> Any:
    """OSMO prints UTC without a suffix; make it explicit so comparisons with aware times work."""
    if isinstance(v, str) and v:
        v = datetime.fromisoformat(v.replace("Z", "+00:00"))
    if isinstance(v, datetime) and v.tzinfo is None:
        return v.replace(tzinfo=UTC)
    return v


_TIME_FIELDS = (
    "submit_time",
    "start_time",
    "end_time",
    "processing_start_time",
    "scheduling_start_time",
    "initializing_start_time",
    "input_download_start_time",
    "input_download_end_time",
    "output_upload_start_time",
)


class TaskQuery(_Shape):
    name: str
    retry_id: int = 0
    status: str
    failure_message: str | None = None
    exit_code: int | None = None
    processing_start_time: datetime | None = None
    scheduling_start_time: datetime | None = None
    initializing_start_time: datetime | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    input_download_start_time: datetime | None = None
    input_download_end_time: datetime | None = None
    output_upload_start_time: datetime | None = None
    dashboard_url: str | None = None
    node_name: str | None = None
    lead: bool = False

    _times = field_validator(*[f for f in _TIME_FIELDS if f != "submit_time"], mode="before")(_utc)


class GroupQuery(_Shape):
    name: str
    status: str
    start_time: datetime | None = None
    end_time: datetime | None = None
    processing_start_time: datetime | None = None
    scheduling_start_time: datetime | None = None
    initializing_start_time: datetime | None = None
    failure_message: str | None = None
    tasks: list[TaskQuery] = Field(default_factory=list)

    _times = field_validator(
        "start_time",
        "end_time",
        "processing_start_time",
        "scheduling_start_time",
        "initializing_start_time",
        mode="before",
    )(_utc)


class WorkflowQuery(_Shape):
    """``osmo workflow query <id> -t json`` (``WorkflowQueryResponse``)."""

    name: str
    uuid: str | None = None
    submitted_by: str | None = None
    status: str
    overview: str | None = None
    dashboard_url: str | None = None
    grafana_url: str | None = None
    submit_time: datetime | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    exec_timeout: float | None = None
    queue_timeout: float | None = None
    duration: float | None = None
    queued_time: float | None = None
    outputs: str | None = None
    groups: list[GroupQuery] = Field(default_factory=list)
    pool: str | None = None
    backend: str | None = None
    priority: str = "NORMAL"
    labels: dict[str, str] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)
    app_name: str | None = None
    app_version: int | None = None

    _times = field_validator("submit_time", "start_time", "end_time", mode="before")(_utc)


class ListEntry(_Shape):
    name: str
    status: str
    user: str | None = None
    submit_time: datetime | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    queued_time: float | None = None
    duration: float | None = None
    overview: str | None = None
    pool: str | None = None
    priority: str = "NORMAL"
    grafana_url: str | None = None
    dashboard_url: str | None = None

    _times = field_validator("submit_time", "start_time", "end_time", mode="before")(_utc)


class WorkflowList(_Shape):
    workflows: list[ListEntry] = Field(default_factory=list)


class ResourceUsage(_Shape):
    """All strings on the wire ("numbers coerced"); kept raw and converted by ``parse.gpu_count``."""

    quota_used: str | int | float | None = None
    quota_free: str | int | float | None = None
    quota_limit: str | int | float | None = None
    total_usage: str | int | float | None = None
    total_capacity: str | int | float | None = None
    total_free: str | int | float | None = None


class PoolEntry(_Shape):
    name: str
    description: str | None = ""
    status: str = "ONLINE"
    backend: str | None = None
    default_platform: str | None = None
    resource_usage: ResourceUsage = Field(default_factory=ResourceUsage)


class NodeSet(_Shape):
    pools: list[PoolEntry] = Field(default_factory=list)


class PoolResponse(_Shape):
    node_sets: list[NodeSet] = Field(default_factory=list)


class ResourcesEntry(_Shape):
    hostname: str
    exposed_fields: dict[str, Any] = Field(default_factory=dict)
    taints: list[Any] = Field(default_factory=list)
    usage_fields: dict[str, Any] = Field(default_factory=dict)
    conditions: list[Any] | None = None
    allocatable_fields: dict[str, Any] = Field(default_factory=dict)
    platform_allocatable_fields: dict[str, dict[str, dict[str, Any]]] = Field(default_factory=dict)
    platform_available_fields: dict[str, dict[str, dict[str, Any]]] = Field(default_factory=dict)
    pool_platform_labels: dict[str, list[str]] = Field(default_factory=dict)
    backend: str | None = None


class ResourceList(_Shape):
    resources: list[ResourcesEntry] = Field(default_factory=list)


class SubmitResponse(_Shape):
    name: str
    overview: str | None = None
    dashboard_url: str | None = None
    warnings: list[str] = Field(default_factory=list)


class VersionPart(_Shape):
    major: str
    minor: str
    revision: str = "0"
    hash: str = ""

    def tuple(self) -> tuple[int, int, int]:
        def num(s: str) -> int:
            digits = "".join(ch for ch in s if ch.isdigit())
            return int(digits) if digits else 0

        return num(self.major), num(self.minor), num(self.revision)

    def text(self) -> str:
        return f"{self.major}.{self.minor}.{self.revision}"


class VersionResponse(_Shape):
    """``osmo version -t json``: ``service`` only when the server answered."""

    client: VersionPart
    service: VersionPart | None = None


class ErrorEnvelope(_Shape):
    """What the CLI prints on stdout on failure in json mode."""

    message: str
    code: int | str | None = None
