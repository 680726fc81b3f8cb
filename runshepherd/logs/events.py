"""Key events (checkpoint saved, resumed, data download, OOM kill, NCCL init, training start/end) and the
stage label. Events are bounded by construction: per kind only the first and the latest occurrence are
kept, with a count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from runshepherd.logs.models import KeyEvent, Stage
from runshepherd.logs.prefix import parse_timestamp

# (kind, lowercase substrings — any one is enough). Order matters: the first matching kind wins.
_EVENT_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("oom_kill", ("oomkilled", "oom-kill", "out of memory: killed process", "killed process")),
    (
        "resumed",
        (
            "resuming from checkpoint",
            "resumed from",
            "resuming training from",
            "restoring states from",
            "restored from checkpoint",
            "continuing training from checkpoint",
            "loading checkpoint from",
            "loaded checkpoint",
            "resume from checkpoint",
        ),
    ),
    (
        "checkpoint_saved",
        (
            "saving model checkpoint",
            "saved checkpoint",
            "checkpoint saved",
            "saving checkpoint",
            "checkpointing data",
            "model saved",
            "saved model",
            "saving model to",
            "save checkpoint",
        ),
    ),
    (
        "data_download_end",
        ("download complete", "downloaded ", "download finished", "finished download", "data loaded"),
    ),
    (
        "data_download_start",
        ("downloading", "download start", "starting download", "loading input data", "fetching data"),
    ),
    ("upload", ("uploading", "upload complete", "uploaded ")),
    ("nccl_init", ("nccl version", "ncclcomminitrank", "init complete", "nccl info bootstrap")),
    (
        "training_start",
        ("***** running training", "beginning training", "start training", "starting training", "training started"),
    ),
    (
        "training_done",
        (
            "training completed",
            "training finished",
            "finished training",
            "training complete",
            "'train_runtime'",
            "`trainer.fit` stopped",
            "training done",
        ),
    ),
)
_KILLED_LINE = re.compile(r"^\s*Killed\s*$|\d\s+Killed\s")
_CUES = (
    "load",
    "save",
    "sav",
    "check",
    "resum",
    "restor",
    "download",
    "fetch",
    "upload",
    "kill",
    "oom",
    "nccl",
    "train",
    "eval",
    "valid",
    "install",
    "initializ",
    "done",
    "finish",
    "complet",
    "start",
    "not started",
    "no application",
)

_STAGE_RULES: tuple[tuple[Stage, tuple[str, ...]], ...] = (
    ("not started", ("container has not started", "no application logs")),
    ("evaluation", ("***** running evaluation", "running evaluation", "evaluating", "validation:", "validating")),
    (
        "done",
        (
            "completed successfully",
            "training completed",
            "training finished",
            "finished training",
            "all done",
            "'train_runtime'",
            "training complete",
        ),
    ),
    ("setup", ("pip install", "installing ", "initializing", "loading model", "building model", "setting up")),
    ("data download", ("loading dataset", "preparing data", "preparing dataset", "loading input data")),
)
_EVENT_STAGE: dict[str, Stage] = {
    "checkpoint_saved": "saving",
    "data_download_start": "data download",
    "upload": "uploading",
    "training_start": "training",
    "training_done": "done",
    "resumed": "training",
}


@dataclass
class _Seen:
    first: tuple[int, str | None, str]
    last: tuple[int, str | None, str]
    count: int = 1


class EventTracker:
    """Key events plus the latest stage cue."""

    def __init__(self) -> None:
        self._events: dict[str, _Seen] = {}
        self.stage: Stage = "no output"

    def saw_output(self) -> None:
        """The first non-empty line moves the stage from "no output" to "setup"."""
        if self.stage == "no output":
            self.stage = "setup"

    def observe(self, lineno: int, text: str, ts: str | None, low: str | None = None) -> None:
        low = text.lower() if low is None else low
        if not any(map(low.__contains__, _CUES)):
            return
        kind = _event_kind(text, low)
        if kind is not None:
            self._record(kind, lineno, ts, text)
            stage = _EVENT_STAGE.get(kind)
            if stage is not None:
                self.stage = stage
            return
        for stage, needles in _STAGE_RULES:
            if any(n in low for n in needles):
                self.stage = stage
                return
        stripped = low.strip().rstrip(".!")
        if stripped in ("done", "finished", "complete", "completed"):
            self.stage = "done"

    def set_stage(self, stage: Stage) -> None:
        """Extractors (progress, metrics) report training or evaluation activity here."""
        if self.stage != "not started" or stage in ("training", "evaluation"):
            self.stage = stage

    def _record(self, kind: str, lineno: int, ts: str | None, text: str) -> None:
        entry = (lineno, ts, text[:200].strip())
        seen = self._events.get(kind)
        if seen is None:
            self._events[kind] = _Seen(entry, entry)
        else:
            seen.last = entry
            seen.count += 1

    def events(self, limit: int) -> list[KeyEvent]:
        """First occurrence of each kind and, when repeated, the latest one (carrying the count)."""
        rows: list[tuple[int, KeyEvent]] = []
        for kind, seen in self._events.items():
            rows.append((seen.first[0], _event(kind, seen.first, 1)))
            if seen.count > 1:
                rows.append((seen.last[0], _event(kind, seen.last, seen.count)))
        rows.sort(key=lambda r: r[0])
        if len(rows) > limit:  # keep the earliest few (how it started) and the most recent ones
            head = limit // 3
            rows = rows[:head] + rows[len(rows) - (limit - head) :]
        return [event for _, event in rows]


def _event_kind(text: str, low: str) -> str | None:
    if _KILLED_LINE.search(text):
        return "oom_kill"
    for kind, needles in _EVENT_RULES:
        if any(n in low for n in needles):
            if kind == "nccl_init" and "nccl" not in low:
                continue
            return kind
    return None


def _event(kind: str, entry: tuple[int, str | None, str], count: int) -> KeyEvent:
    _, ts, line = entry
    return KeyEvent(kind=kind, timestamp=parse_timestamp(ts) if ts else None, line=line, count=count)
