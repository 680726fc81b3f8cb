"""Deliver notifications without ever blocking the caller: a queue and one worker thread, retries with
exponential back-off per channel, and deduplication on the fingerprint per target (kept in a file when given, so a
restarted monitor does not announce the same failure twice to a target, while a target that never got it — a
`watch --notify` added later — still does)."""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import threading
import time
from pathlib import Path

from runshepherd.jsonlines import append_line, complete_lines
from runshepherd.logs import redact
from runshepherd.notify.channels import Channel, shown_target
from runshepherd.notify.payload import Notification

log = logging.getLogger(__name__)

_STOP = object()


class Notifier:
    def __init__(
        self,
        channels: list[Channel],
        *,
        sent_path: Path | None = None,
        attempts: int = 5,
        backoff: float = 0.5,
        backoff_max: float = 30.0,
    ) -> None:
        self.channels = channels
        self.sent_path = sent_path
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.backoff_max = backoff_max
        self.delivered: list[tuple[str, str]] = []  # (target, fingerprint)
        self.failed: list[tuple[str, str, str]] = []  # (target, fingerprint, last error)
        self.sent: list[tuple[str, Notification]] = []  # (shown target, note) delivered by this notifier
        self.skipped: list[tuple[str, Notification]] = []  # (shown target, note) already sent to it earlier
        self._sent = self._load_sent()
        self._queue: queue.Queue[object] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()

    def _load_sent(self) -> set[str]:
        if self.sent_path is None:
            return set()
        lines = [line.strip() for line in complete_lines(self.sent_path)]
        sent: set[str] = set()
        for line in lines:  # in order: a key, then `-key` when its delivery failed in the end
            if line.startswith("-"):
                sent.discard(line[1:])
            else:
                sent.add(line)
        return sent

    def _was_sent(self, fingerprint: str, target: str) -> bool:
        # a bare fingerprint is a line written before dedup was per target: it counted for every target
        return fingerprint in self._sent or _sent_key(fingerprint, target) in self._sent

    def _remember(self, fingerprint: str, target: str) -> None:
        """Claimed when queued (so a second monitor does not send it too), taken back if delivery fails."""
        key = _sent_key(fingerprint, target)
        self._sent.add(key)
        self._append(key)

    def _forget(self, fingerprint: str, target: str) -> None:
        """Every attempt failed: the target was never told, so a later monitor (or this one) tells it. Appended as
        `-key` (appends from several monitors do not clobber each other, a rewrite could)."""
        key = _sent_key(fingerprint, target)
        with self._lock:
            self._sent.discard(key)
            self._append("-" + key)

    def _append(self, line: str) -> None:
        if self.sent_path is not None:
            self.sent_path.parent.mkdir(parents=True, exist_ok=True)
            append_line(self.sent_path, line)

    def notify(self, note: Notification) -> bool:
        """Queue ``note`` for each target that was not told this fingerprint yet; returns at once (True if queued
        for any). A target already told is listed in ``skipped``."""
        queued: list[Channel] = []
        with self._lock:
            for ch in self.channels:
                if self._was_sent(note.fingerprint, ch.target):
                    self.skipped.append((shown_target(ch.target), note))
                    continue
                self._remember(note.fingerprint, ch.target)
                queued.append(ch)
            if queued and self._worker is None:
                self._worker = threading.Thread(target=self._run, name="notifier", daemon=True)
                self._worker.start()
        for ch in queued:
            self._queue.put((ch, note))
        return bool(queued)

    def close(self, timeout: float = 30.0) -> None:
        """Wait (bounded) for queued deliveries, e.g. before a monitor process exits."""
        if self._worker is None:
            return
        self._queue.put(_STOP)
        self._worker.join(timeout)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            assert isinstance(item, tuple)
            self._deliver(*item)

    def _deliver(self, ch: Channel, note: Notification) -> None:
        delay = self.backoff
        last = ""
        for attempt in range(1, self.attempts + 1):
            try:
                ch.send(note)
            except Exception as exc:  # any failure of a channel is retried, then recorded — never raised
                last = redact(f"{type(exc).__name__}: {exc}")[0]
                log.debug("notify %s attempt %d failed: %s", shown_target(ch.target), attempt, last)
                if attempt < self.attempts:
                    time.sleep(delay)
                    delay = min(self.backoff_max, delay * 2)
                continue
            self.delivered.append((ch.target, note.fingerprint))
            self.sent.append((shown_target(ch.target), note))
            return
        self.failed.append((shown_target(ch.target), note.fingerprint, last))
        self._forget(note.fingerprint, ch.target)
        # said once per target by the command when it is done (`undelivered_lines`), not once per notification here
        log.debug("notify %s gave up after %d attempts: %s", shown_target(ch.target), self.attempts, last)

    def undelivered_lines(self) -> list[str]:
        """One warning per target that could not be told, however many notifications failed for it: a run's four
        undelivered notes to one dead webhook were four identical error lines, and `watch` printed each twice."""
        by_target: dict[str, list[str]] = {}
        for target, _, error in self.failed:
            by_target.setdefault(target, []).append(error)
        lines = []
        for target, errors in by_target.items():
            n = len(errors)
            what = "1 notification was" if n == 1 else f"{n} notifications were"
            each = "" if n == 1 else " each"
            lines.append(
                f"could not notify {target}: {what} not delivered after {self.attempts} attempts{each} "
                f"(last error: {errors[-1]})"
            )
        return lines


def _sent_key(fingerprint: str, target: str) -> str:
    """The sent file's line: the fingerprint and a digest of the target (a webhook URL can carry a token)."""
    return f"{fingerprint} {hashlib.sha256(target.encode()).hexdigest()[:16]}"


def describe(notifier: Notifier) -> str:
    return json.dumps({"delivered": notifier.delivered, "failed": notifier.failed})
