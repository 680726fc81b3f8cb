"""The streaming driver: one pass over a log, constant memory, bounded in lines, bytes and seconds.

Per line: split the prefix → clean (\\r rewrites, ANSI) → redact → cut over-long lines → extractors.
Nothing keeps raw lines; each extractor holds fixed-size state, so a 1 GB log costs what a 1 MB one does.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from runshepherd.backends.base import Status, TaskStatus
from runshepherd.logs.config import LogConfig
from runshepherd.logs.cues import may_be_error, may_be_event, may_hold_secret, words_of
from runshepherd.logs.decode import RawLine, clean_text, cut_line, iter_file_lines
from runshepherd.logs.echo import CommandEcho
from runshepherd.logs.errors import ErrorCollector
from runshepherd.logs.events import EventTracker
from runshepherd.logs.filescan import scan_file, wants_fast_scan
from runshepherd.logs.metrics import MetricTracker
from runshepherd.logs.models import TaskDigest
from runshepherd.logs.prefix import as_utc, parse_timestamp, split_prefix
from runshepherd.logs.progress import ProgressTracker
from runshepherd.logs.redact import LineRedactor, compile_extra

_TIME_CHECK_EVERY = 4096
_HEADER_PREFIX = "Workflow "  # "Workflow <id> has logs:" printed by `osmo workflow logs`
_RUNNING = frozenset({"RUNNING"})
# a workflow pending, or a task queued, waiting on another task or being scheduled (`TaskStatus.in_queue`, the one
# definition): no container yet (INITIALIZING has one)
_NOT_STARTED = frozenset({Status.PENDING.value, *(t.value for t in TaskStatus if t.in_queue())})
_SAMPLE_EVERY = 16
# Lines always fully extracted: losses (spikes must not be missed), non-finite values, evaluation.
_ALWAYS = ("loss", "nan", "inf", "eval", "epoch", "acc", "total optimization")


class LogDigester:
    """Feed lines, then ``finish()``; usable directly when lines arrive from somewhere unusual."""

    def __init__(self, task: str | None = None, config: LogConfig | None = None) -> None:
        self.config = config or LogConfig()
        self.task = task
        self._redact = LineRedactor(extra=compile_extra(self.config.redaction_patterns))
        self._progress = ProgressTracker()
        self._metrics = MetricTracker(self.config.metric_window, self.config.spike_factor)
        self._errors = ErrorCollector()
        self._echo = CommandEcho()
        self._events = EventTracker()
        self.lines = 0
        self.lines_skimmed = 0
        self.bytes = 0
        self.bytes_skipped = 0
        self.long_lines_cut = 0
        self.first_ts: str | None = None
        self.last_ts: str | None = None
        self.truncation_reason: str | None = None
        self._started = time.monotonic()
        self._soft_cap = self.config.max_line_chars * 2
        self._sampled = 0
        self._pending: tuple[str, str, str | None] | None = None

    # ------------------------------------------------------------------ feeding
    def feed(self, raw: str, nbytes: int | None = None, cut: bool = False) -> bool:
        """Digest one line. Returns False once a bound (lines, bytes, seconds) is reached."""
        if self.truncation_reason is not None:
            return False
        self.lines += 1
        self.bytes += nbytes if nbytes is not None else (len(raw) if raw.isascii() else len(raw.encode()))
        if raw.find("\n", 0, len(raw) - 1) != -1:  # a producer yielded several lines at once
            self.lines -= 1
            for part in raw.rstrip("\n").split("\n"):
                self.lines += 1
                self._line(part, cut)
        else:
            self._line(raw, cut)
        return self._within_bounds()

    def skip(self, lines: int, nbytes: int) -> None:
        """Account for lines a cue scan passed over without parsing (they held no cue)."""
        self.lines += lines
        self.lines_skimmed += lines
        self.bytes += nbytes

    @property
    def following(self) -> bool:
        """True while the next lines must be parsed too: an open traceback or private key block."""
        return self._errors.in_traceback or self._redact.in_key_block

    def _within_bounds(self) -> bool:
        cfg = self.config
        if cfg.max_lines is not None and self.lines >= cfg.max_lines:
            self.truncation_reason = "max_lines"
        elif cfg.max_bytes is not None and self.bytes >= cfg.max_bytes:
            self.truncation_reason = "max_bytes"
        elif cfg.max_seconds is not None and self.lines % _TIME_CHECK_EVERY == 0:
            if time.monotonic() - self._started > cfg.max_seconds:
                self.truncation_reason = "max_seconds"
        return self.truncation_reason is None

    def _line(self, raw: str, cut: bool) -> None:
        ts, task, _retry, _platform, text = split_prefix(raw.rstrip("\r\n"))
        text = clean_text(text)
        if len(text) > self._soft_cap:
            text = text[: self._soft_cap]
            cut = True
        low = text.lower()
        hits = words_of(low)
        if self._redact.in_key_block or self._redact.extra or may_hold_secret(text, hits):
            redacted = self._redact(text)
            if redacted != text:
                text, low = redacted, redacted.lower()
                hits = words_of(low)
        text, was_cut = cut_line(text, self.config.max_line_chars)
        if cut and not was_cut:
            text += " …[cut]"
        if cut or was_cut:
            self.long_lines_cut += 1
        if ts is not None:
            if self.first_ts is None:
                self.first_ts = ts
            self.last_ts = ts
        if self.task is None and task:
            self.task = task
        if not text or text.isspace():
            return
        if self.lines == 1 and text.startswith(_HEADER_PREFIX) and text.endswith("has logs:"):
            return
        self._events.saw_output()
        if self._echo.observe(_platform, text):  # the command as the scheduler echoed it: not the job's output
            return
        lineno = self.lines
        in_error = self._errors.observe(lineno, text, may_be_error(low, hits))
        if not hits and not in_error and not any(map(low.__contains__, _ALWAYS)):
            # A plain progress bar or throughput print: only the latest one matters (ETA uses the first
            # marker, kept because sampling starts with it), so most are skipped and the last is kept aside.
            self._sampled += 1
            if self._sampled % _SAMPLE_EVERY != 1:
                self._pending = (text, low, ts)
                return
        if self._pending is not None:  # keep the order: the skipped line came first
            self._extract(*self._pending, in_error=False)
            self._pending = None
        self._extract(text, low, ts, in_error)
        if may_be_event(hits):  # after: an explicit cue ("Saving model…", "train_runtime") is the stronger one
            self._events.observe(lineno, text, ts, low)

    def _extract(self, text: str, low: str, ts: str | None, in_error: bool) -> None:
        metric = self._metrics.observe(low)
        progress = self._progress.observe(text, low, ts, metric.any)
        if not in_error:
            if progress.evaluation or (metric.evaluation and not progress.training):
                self._events.set_stage("evaluation")
            elif progress.training or metric.any:
                self._events.set_stage("training")

    # ------------------------------------------------------------------ result
    def finish(self, *, now: datetime | None = None, status: str | None = None) -> TaskDigest:
        """Build the digest. ``status`` is the task's scheduler status; RUNNING + silence → stale."""
        cfg = self.config
        if self._pending is not None:  # the latest skipped progress line is the most current one
            self._extract(*self._pending, in_error=False)
            self._pending = None
        first = parse_timestamp(self.first_ts) if self.first_ts else None
        last = parse_timestamp(self.last_ts) if self.last_ts else None
        eta = self._progress.eta()
        flags = self._metrics.flags()
        if sum(self._errors.exception_counts.values()) >= 3:
            flags.append("repeated_exceptions")
        digest = TaskDigest(
            task=self.task,
            lines_read=self.lines,
            lines_skimmed=self.lines_skimmed,
            bytes_read=self.bytes,
            bytes_skipped=self.bytes_skipped,
            truncated=self.truncation_reason is not None or self.bytes_skipped > 0,
            truncation_reason=self.truncation_reason or ("max_bytes" if self.bytes_skipped else None),
            long_lines_cut=self.long_lines_cut,
            redactions=dict(sorted(self._redact.counts.items())),
            stage=self._events.stage,
            progress=self._progress.progress(),
            metrics=self._metrics.series(),
            flags=flags,
            error_lines=self._errors.error_lines(cfg.max_error_lines),
            root_error=self._errors.root_error(),
            exception_counts=dict(self._errors.exception_counts.most_common(10)),
            key_events=self._events.events(cfg.max_key_events),
            first_timestamp=first,
            last_timestamp=last,
            last_update=last,
            last_update_source="log" if last else None,
            eta_seconds=eta[0] if eta else None,
            eta_at=eta[1] if eta else None,
        )
        return mark_stale(digest, now=now, status=status, stale_after_seconds=cfg.stale_after_seconds)


def mark_stale(
    digest: TaskDigest, *, now: datetime | None, status: str | None, stale_after_seconds: float
) -> TaskDigest:
    """A RUNNING task whose last output is older than the threshold is stale; unknown times never are.
    A task that ended has no ETA and no live stage: the digest records how it ended."""
    said = str(getattr(status, "value", status)).upper() if status is not None else ""
    if said == "COMPLETED" or said.startswith("FAILED"):
        return digest.model_copy(update={"ended": said, "eta_seconds": None, "eta_at": None})
    if said in _NOT_STARTED and digest.stage == "no output":  # was shown as "Container starting" while unscheduled
        digest = digest.model_copy(update={"stage": "not started"})
    running = status is not None and said in _RUNNING
    if not running or now is None or digest.last_update is None:
        return digest
    silent = (as_utc(now) - as_utc(digest.last_update)).total_seconds()
    if silent <= stale_after_seconds:
        return digest
    flags = digest.flags if "stale" in digest.flags else [*digest.flags, "stale"]
    return digest.model_copy(update={"stale": True, "flags": flags})


def read_log(
    lines: Iterable[str],
    *,
    task: str | None = None,
    now: datetime | None = None,
    status: str | None = None,
    config: LogConfig | None = None,
) -> TaskDigest:
    """Digest an iterator of log lines (e.g. a backend's ``logs()``), stopping at the configured bounds."""
    digester = LogDigester(task, config)
    for line in lines:
        if not digester.feed(line):
            break
    return digester.finish(now=now, status=status)


def read_log_file(
    path: str | os.PathLike[str],
    *,
    task: str | None = None,
    now: datetime | None = None,
    status: str | None = None,
    config: LogConfig | None = None,
) -> TaskDigest:
    """Digest a log file read in binary (robust to invalid UTF-8 and endless lines).

    A file larger than ``max_bytes`` is read from its tail: the end of a log is where failures are.
    A file larger than the head and tail windows is not parsed line by line: its middle is scanned for cue
    lines (errors, key events) at C speed and only those are parsed (see :mod:`runshepherd.logs.filescan`).
    Without timestamps in the log, the file's modification time is the last update.
    """
    cfg = config or LogConfig()
    file = Path(path)
    size = file.stat().st_size
    start = size - cfg.max_bytes if cfg.max_bytes is not None and size > cfg.max_bytes else 0
    digester = LogDigester(task, cfg)
    digester.bytes_skipped = start
    max_line_bytes = cfg.max_line_chars * 4
    if wants_fast_scan(cfg, size - start):
        scan_file(file, digester, cfg, start=start, size=size, max_line_bytes=max_line_bytes)
    else:
        line: RawLine
        for line in iter_file_lines(file, max_line_bytes=max_line_bytes, start=start):
            if not digester.feed(line.text, line.nbytes, line.cut):
                break
    digest = digester.finish(now=now, status=status)
    if digest.last_update is None and digest.lines_read:
        mtime = datetime.fromtimestamp(file.stat().st_mtime, tz=UTC)
        digest = digest.model_copy(update={"last_update": mtime, "last_update_source": "file_mtime"})
        digest = mark_stale(digest, now=now, status=status, stale_after_seconds=cfg.stale_after_seconds)
    return digest
