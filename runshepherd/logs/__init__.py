"""Streaming log pipeline: bounded reading, redaction, progress/metrics/errors/events, digest, tokens.

Public entry points: :func:`read_log`, :func:`read_log_file`, :func:`redact`, :func:`redacted_lines`,
:func:`digest_to_markdown`, :func:`count_tokens`, and the models :class:`LogConfig`, :class:`TaskDigest`.
They load on first use: `orchestrate diagnose --log` needs only redaction, not the reader (numpy, the cue
scanner built at import), which cost ~0.1 s per CLI start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from runshepherd.lazy_exports import lazy_getattr

# Eager, and cheap: the function ``redact`` shares its name with its module, and a lazy name would lose to the
# submodule attribute the import system sets once anything imports ``runshepherd.logs.redact``.
from runshepherd.logs.redact import LineRedactor, redact, redacted_lines

if TYPE_CHECKING:
    from runshepherd.logs.config import LogConfig
    from runshepherd.logs.markdown import digest_to_markdown, stage_line, task_markdown
    from runshepherd.logs.models import KeyEvent, MetricSeries, Progress, TaskDigest
    from runshepherd.logs.reader import LogDigester, mark_stale, read_log, read_log_file
    from runshepherd.logs.tokens import count_tokens

__all__ = [
    "KeyEvent",
    "LineRedactor",
    "LogConfig",
    "LogDigester",
    "MetricSeries",
    "Progress",
    "TaskDigest",
    "count_tokens",
    "digest_to_markdown",
    "mark_stale",
    "read_log",
    "read_log_file",
    "redact",
    "redacted_lines",
    "stage_line",
    "task_markdown",
]

__getattr__ = lazy_getattr(
    __name__,
    {
        "KeyEvent": "models",
        "LogConfig": "config",
        "LogDigester": "reader",
        "MetricSeries": "models",
        "Progress": "models",
        "TaskDigest": "models",
        "count_tokens": "tokens",
        "digest_to_markdown": "markdown",
        "mark_stale": "reader",
        "read_log": "reader",
        "read_log_file": "reader",
        "stage_line": "markdown",
        "task_markdown": "markdown",
    },
)
