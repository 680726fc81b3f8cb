"""Copy sessions between checkpointers (SQLite → PostgreSQL) through LangGraph's saver API, not raw tables.

Every checkpoint of a session (all namespaces, oldest first, parents kept) and its pending writes — including an
open question (`__interrupt__`) and an answer not yet applied — are written to the target unchanged, so a
session waiting for an answer or stopped mid-run resumes on the target where it stood. A session the target
already has is skipped, never overwritten.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pydantic import BaseModel, Field


class MigrationReport(BaseModel):
    copied: list[str] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list, description="already in the target: left as they were")
    checkpoints: int = 0
    writes: int = 0


def copy_session(src: Any, dst: Any, thread_id: str) -> tuple[int, int]:
    """Copy one session; returns (checkpoints, writes) copied."""
    tuples = list(src.list({"configurable": {"thread_id": thread_id}}))
    checkpoints = writes = 0
    for t in reversed(tuples):  # oldest first, so every parent exists before its child
        conf = t.config["configurable"]
        target = {"configurable": {"thread_id": thread_id, "checkpoint_ns": conf.get("checkpoint_ns", "")}}
        if t.parent_config is not None:
            target["configurable"]["checkpoint_id"] = t.parent_config["configurable"]["checkpoint_id"]
        saved = dst.put(target, t.checkpoint, t.metadata, dict(t.checkpoint.get("channel_versions") or {}))
        checkpoints += 1
        by_task: dict[str, list[tuple[str, Any]]] = defaultdict(list)
        for task_id, channel, value in t.pending_writes or []:
            by_task[task_id].append((channel, value))
        for task_id, items in by_task.items():
            dst.put_writes(saved, items, task_id)
            writes += len(items)
    return checkpoints, writes


def copy_sessions(src: Any, dst: Any, thread_ids: list[str]) -> MigrationReport:
    report = MigrationReport()
    for tid in thread_ids:
        if dst.get_tuple({"configurable": {"thread_id": tid}}) is not None:
            report.skipped.append(tid)
            continue
        n, w = copy_session(src, dst, tid)
        report.copied.append(tid)
        report.checkpoints += n
        report.writes += w
    return report
