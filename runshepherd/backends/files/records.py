"""The on-disk layout every file-backed backend shares, and the small helpers for writing it safely.

``<root>/workflows/<id>/`` holds one workflow: ``spec.yaml``/``template.yaml``, ``events.jsonl``, staged
``localfiles/`` and ``tasks/<task>/{work,output,log}``; ``<root>/objects/<id>/<task>/`` is the object store where
outputs land. Each backend adds its own records beside these (the local backend's ``state.json``, the Slurm
backend's ``slurm.json``) by subclassing `WorkflowFiles`.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock
from pydantic import BaseModel

from runshepherd.backends.base import Event
from runshepherd.jsonlines import append_line, complete_lines


def utcnow() -> datetime:
    return datetime.now(UTC)


def span_seconds(start: datetime | None, end: datetime | None) -> float | None:
    """Seconds from ``start`` to ``end``; None when either is unknown (never a guessed number)."""
    return (end - start).total_seconds() if start and end else None


def write_text_atomic(path: Path, text: str) -> None:
    """Temp file + fsync + rename + fsync of the folder: readers never see a half-written file, and after a crash
    the file is the old or the new one, whole."""
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


def write_json_atomic(path: Path, data: BaseModel | dict[str, Any] | list[Any]) -> None:
    text = data.model_dump_json(indent=1) if isinstance(data, BaseModel) else json.dumps(data, indent=1)
    write_text_atomic(path, text)


class WorkflowFiles:
    """Paths of one workflow's folder; pure path arithmetic plus the event log, shared by the file backends."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def workflow_id(self) -> str:
        return self.root.name

    @property
    def state_dir(self) -> Path:
        return self.root.parent.parent

    @property
    def events_path(self) -> Path:
        return self.root / "events.jsonl"

    @property
    def spec_path(self) -> Path:
        return self.root / "spec.yaml"

    @property
    def template_path(self) -> Path:
        return self.root / "template.yaml"

    @property
    def localfiles(self) -> Path:
        return self.root / "localfiles"

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

    def read_events(self) -> list[Event]:
        return [Event.model_validate_json(line) for line in complete_lines(self.events_path)]

    def append_event(self, event: Event) -> None:
        append_line(self.events_path, event.model_dump_json())


def workflows_root(state_dir: Path) -> Path:
    return state_dir / "workflows"


def object_dir(state_dir: Path, workflow_id: str, task: str) -> Path:
    return state_dir / "objects" / workflow_id / task


_ID_RE = re.compile(r"^(?P<name>.+)-(?P<n>\d+)$")


def allocate_workflow_dir(state_dir: Path, name: str) -> Path:
    """``<name>-<N>`` with N one more than any id ever given to this name (OSMO's numbering), under a lock."""
    root = workflows_root(state_dir)
    root.mkdir(parents=True, exist_ok=True)
    counters_path = state_dir / "counters.json"
    with FileLock(str(state_dir / "ids.lock"), timeout=30):
        counters: dict[str, int] = {}
        if counters_path.exists():
            try:
                counters = dict(json.loads(counters_path.read_bytes()))
            except (ValueError, TypeError):
                from runshepherd.environment import damaged_file

                raise damaged_file(counters_path, "a workflow-id counter file") from None
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
    return path
