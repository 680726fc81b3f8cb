"""Streaming log pipeline: bounded reading, redaction, progress/metrics/errors/events, digest, tokens.

Public entry points: :func:`read_log`, :func:`read_log_file`, :func:`redact`, :func:`redacted_lines`,
:func:`digest_to_markdown`, :func:`count_tokens`, and the models :class:`LogConfig`, :class:`TaskDigest`.
"""

from runshepherd.logs.config import LogConfig
from runshepherd.logs.markdown import digest_to_markdown, stage_line, task_markdown
from runshepherd.logs.models import KeyEvent, MetricSeries, Progress, TaskDigest
from runshepherd.logs.reader import LogDigester, mark_stale, read_log, read_log_file
from runshepherd.logs.redact import LineRedactor, redact, redacted_lines
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
