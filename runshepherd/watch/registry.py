"""Background monitors on this machine: one JSON record per watched run under ``<state>/watch/``, kept by
the monitor process itself (pid, status, artifact), so `watch --list` and `watch --stop` need no daemon."""

from __future__ import annotations

import json
import os
import re
import signal
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field


class WatchRecord(BaseModel):
    workflow_id: str
    backend: str
    pid: int
    started_at: datetime
    artifact: str | None = None
    notify: list[str] = Field(default_factory=list)
    status: str | None = None
    label: str | None = None
    ended: str | None = Field(None, description="why the monitor stopped: terminal, auth_blocked, stopped, error")
    updated_at: datetime | None = None
    log: str | None = None
    create_time: float | None = Field(None, description="the monitor process's start time (pid reuse guard)")


def watch_dir(state_dir: Path) -> Path:
    return Path(state_dir) / "watch"


def _safe(workflow_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", workflow_id)


def record_path(state_dir: Path, workflow_id: str) -> Path:
    return watch_dir(state_dir) / f"{_safe(workflow_id)}.json"


def write(state_dir: Path, rec: WatchRecord) -> None:
    path = record_path(state_dir, rec.workflow_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    # owner-only, like audit.jsonl: a webhook's URL carries its token (`?token=…`, Slack's path), and a state dir
    # on a shared login node is often readable by others (was 0644 with the URL in it)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(rec.model_dump_json(indent=2))
    tmp.replace(path)


def read(state_dir: Path, workflow_id: str) -> WatchRecord | None:
    try:
        return WatchRecord.model_validate_json(record_path(state_dir, workflow_id).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def update(state_dir: Path, workflow_id: str, **fields: Any) -> None:
    rec = read(state_dir, workflow_id)
    if rec is None:
        return
    write(state_dir, rec.model_copy(update={**fields, "updated_at": datetime.now(UTC)}))


def alive(rec: WatchRecord) -> bool:
    """The recorded monitor process still runs (and is the same process, not a reused pid)."""
    from runshepherd.backends.local.store import process_alive

    return rec.ended is None and process_alive(rec.pid, rec.create_time)


def all_records(state_dir: Path) -> list[WatchRecord]:
    out = []
    base = watch_dir(state_dir)
    if not base.is_dir():
        return []
    for p in sorted(base.glob("*.json")):
        try:
            out.append(WatchRecord.model_validate_json(p.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    return out


def stop(state_dir: Path, workflow_id: str) -> WatchRecord | None:
    """SIGTERM the monitor of ``workflow_id``; returns its record (None if there is none)."""
    rec = read(state_dir, workflow_id)
    if rec is None:
        return None
    if alive(rec):
        try:
            os.kill(rec.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    return rec


def as_row(rec: WatchRecord) -> dict[str, Any]:
    row = json.loads(rec.model_dump_json())
    row["running"] = alive(rec)
    return row
