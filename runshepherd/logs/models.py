"""The digest of one task's log: small, bounded, JSON-able and already redacted — never raw logs."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

Trend = Literal["decreasing", "increasing", "flat", "unknown"]
ProgressUnit = Literal["step", "iteration", "epoch", "batch", "percent"]
Stage = Literal[
    "no output",
    "not started",
    "setup",
    "data download",
    "training",
    "evaluation",
    "saving",
    "uploading",
    "done",
]


class Progress(BaseModel):
    """The most advanced progress marker seen; ``percent`` is None when no total is known."""

    current: float
    total: float | None = None
    unit: ProgressUnit
    percent: float | None = None
    detail: str | None = Field(None, description="inner progress, e.g. 'batch 120/500'")
    line: str = Field("", description="the (redacted) line the marker came from, cut to 200 chars")


class MetricSeries(BaseModel):
    """Latest value and shape of one metric; NaN/inf never appear as numbers (JSON has none)."""

    latest: float | None = Field(None, description="None when the latest value was NaN or inf")
    latest_text: str = Field(..., description="as printed, e.g. '0.4123' or 'nan'")
    samples: int = 0
    nonfinite: int = Field(0, description="how many NaN/inf values were seen")
    spikes: int = Field(0, description="values above spike_factor x the running median (loss-like only)")
    trend: Trend = Field("unknown", description="older vs newer half of the window (medians): the run's shape")
    direction: Trend = Field(
        "unknown", description="the last two points of the smoothed series: where the metric is heading now (arrows)"
    )


class KeyEvent(BaseModel):
    """A notable line (checkpoint saved, resumed, download, OOM kill, NCCL init…); repeats are counted."""

    kind: str
    timestamp: datetime | None = None
    line: str
    count: int = 1


class TaskDigest(BaseModel):
    """Everything the rest of the system may know about one task's log."""

    task: str | None = None
    lines_read: int = 0
    lines_skimmed: int = Field(0, description="lines only scanned for cues (none found), not parsed: big files")
    bytes_read: int = 0
    bytes_skipped: int = Field(0, description="head of a file larger than max_bytes that was not read")
    truncated: bool = False
    truncation_reason: str | None = None
    long_lines_cut: int = 0
    redactions: dict[str, int] = Field(
        default_factory=dict, description="secrets removed, by kind; for big files, counted on the parsed lines"
    )
    stage: Stage = "no output"
    ended: str | None = Field(None, description="the task's final status when it had ended at digest time")
    progress: Progress | None = None
    metrics: dict[str, MetricSeries] = Field(default_factory=dict)
    flags: list[str] = Field(default_factory=list)
    error_lines: list[str] = Field(default_factory=list)
    root_error: str | None = None
    exception_counts: dict[str, int] = Field(default_factory=dict)
    key_events: list[KeyEvent] = Field(default_factory=list)
    first_timestamp: datetime | None = None
    last_timestamp: datetime | None = None
    last_update: datetime | None = None
    last_update_source: Literal["log", "file_mtime"] | None = None
    stale: bool = False
    eta_seconds: float | None = None
    eta_at: datetime | None = None

    def latest_metrics(self) -> dict[str, float]:
        """Finite latest values only, for compact status lines."""
        return {k: v.latest for k, v in self.metrics.items() if v.latest is not None}
