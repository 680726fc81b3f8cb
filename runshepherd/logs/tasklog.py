"""One task's digest from a backend: the whole log through the streaming file scanner where the backend offers
it (:class:`~runshepherd.backends.base.WholeLogSource`), else a bounded tail of its lines.

Every reader (logs-reader subagent, `logs`, `status`, `diagnose`, chat, the watch monitor) goes through here, so
they all see what the benchmark sees: a root error followed by 200,000 warning lines is still found.
"""

from __future__ import annotations

import itertools
import os
from datetime import UTC, datetime
from typing import Any

from runshepherd.backends.base import WholeLogSource
from runshepherd.logs.config import LogConfig
from runshepherd.logs.models import TaskDigest
from runshepherd.logs.reader import read_log, read_log_file


def digest_task(
    backend: Any,
    workflow_id: str,
    task: str,
    *,
    status: str | None,
    config: LogConfig,
    tail_lines: int,
    capture_timeout: float | None = None,
    now: datetime | None = None,
) -> TaskDigest:
    """The digest of ``task``'s log. ``tail_lines``/``capture_timeout`` bound the fallback for backends that
    can only give a tail (a live stream is followed for at most ``capture_timeout`` seconds)."""
    now = now or datetime.now(UTC)
    if isinstance(backend, WholeLogSource):
        whole = backend.whole_log(workflow_id, task)
        try:
            if not whole.path.is_file():
                return read_log([], task=task, now=now, status=status, config=config)
            digest = read_log_file(whole.path, task=task, now=now, status=status, config=config)
            if whole.stderr is not None and whole.stderr.is_file():
                err = read_log_file(whole.stderr, task=task, now=now, status=status, config=config)
                digest = with_stderr(digest, err, config)
        finally:
            if whole.temporary:
                try:
                    os.unlink(whole.path)
                except FileNotFoundError:
                    pass
        if whole.cap_reason:
            digest = digest.model_copy(update={"truncated": True, "truncation_reason": whole.cap_reason})
        return digest
    lines = backend.logs(workflow_id, task, tail=tail_lines, timeout=capture_timeout)
    return read_log(itertools.islice(lines, tail_lines), task=task, now=now, status=status, config=config)


def with_stderr(out: TaskDigest, err: TaskDigest, config: LogConfig) -> TaskDigest:
    """Fold a separate error stream's digest into the output's: its errors come first (a job's traceback goes to
    stderr), counts and flags add up; progress, metrics and stage stay the output's."""
    if not err.lines_read:
        return out
    errors = [*err.error_lines, *(x for x in out.error_lines if x not in err.error_lines)][: config.max_error_lines]
    counts = dict(out.exception_counts)
    for k, v in err.exception_counts.items():
        counts[k] = counts.get(k, 0) + v
    flags = [*out.flags, *(f for f in err.flags if f not in out.flags)]
    last = max((d for d in (out.last_update, err.last_update) if d is not None), default=None)
    return out.model_copy(
        update={
            "error_lines": errors,
            "root_error": err.root_error or out.root_error,
            "exception_counts": counts,
            "flags": flags,
            "lines_read": out.lines_read + err.lines_read,
            "bytes_read": out.bytes_read + err.bytes_read,
            "last_update": last,
            "redactions": {
                k: out.redactions.get(k, 0) + err.redactions.get(k, 0) for k in {*out.redactions, *err.redactions}
            },
        }
    )
