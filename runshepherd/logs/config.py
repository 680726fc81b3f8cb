"""Limits of the log pipeline: every bound that keeps a digest small whatever the log size."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ScannerKind = Literal["auto", "numpy", "hyperscan"]


class LogConfig(BaseModel):
    """Bounds and knobs of one log read.

    Extra keys are ignored so ``LogConfig(**settings.logs.model_dump())`` works with the app settings section.
    ``None`` for a limit means "no limit" (the memory bound holds regardless: nothing grows with the log).
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    max_line_chars: int = Field(4000, ge=80, description="longer lines are cut and marked")
    max_error_lines: int = Field(50, ge=5, le=500)
    max_key_events: int = Field(20, ge=2, le=200)
    stale_after_seconds: float = Field(900.0, gt=0)
    redaction_patterns: list[str] = Field(default_factory=list, description="extra regexes, replaced whole")
    max_bytes: int | None = Field(4 * 1024**3, ge=1, description="files larger than this are read from the tail")
    max_lines: int | None = Field(None, ge=1)
    max_seconds: float | None = Field(300.0, gt=0, description="wall-time bound of one read")
    spike_factor: float = Field(3.0, gt=1.0, description="a loss above factor x running median is a spike")
    metric_window: int = Field(64, ge=8, le=4096, description="values kept per metric for median and trend")
    digest_words: int = Field(300, ge=50, description="word budget of the markdown per reader")
    # Big files: parse the head and tail windows line by line, and only the cue lines in between (scan.py).
    fast_scan: bool = Field(True, description="scan the middle of big files for cue lines instead of parsing it")
    head_window_bytes: int = Field(8 * 1024, ge=0, description="start of a file parsed line by line (first markers)")
    tail_window_bytes: int = Field(32 * 1024, ge=1024, description="end of a file parsed line by line (latest state)")
    scan_chunk_bytes: int = Field(4 * 1024**2, ge=4096, description="read size of the cue scan; bounds its memory")
    sample_every_bytes: int = Field(1024**2, ge=4096, description="one line per this many bytes is parsed anyway")
    cue_scanner: ScannerKind | None = Field(
        None, description="engine of the cue scan; None: $RUNSHEPHERD_LOG_SCANNER, else auto (hyperscan if installed)"
    )
    follow_lines: int = Field(400, ge=10, description="lines followed after a cue while a traceback is open")
