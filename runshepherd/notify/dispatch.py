"""Deliver notifications without ever blocking the caller: a queue and one worker thread, retries with
exponential back-off per channel, and deduplication on the fingerprint (kept in a file when given, so a
restarted monitor does not announce the same failure twice)."""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from pathlib import Path

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
        self._sent = self._load_sent()
        self._queue: queue.Queue[object] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._lock = threading.Lock()

    def _load_sent(self) -> set[str]:
        if self.sent_path is None:
            return set()
        try:
            return {line.strip() for line in self.sent_path.read_text().splitlines() if line.strip()}
        except FileNotFoundError:
            return set()

    def _remember(self, fingerprint: str) -> None:
        self._sent.add(fingerprint)
        if self.sent_path is not None:
            self.sent_path.parent.mkdir(parents=True, exist_ok=True)
            with self.sent_path.open("a", encoding="utf-8") as fh:
                fh.write(fingerprint + "\n")

    def notify(self, note: Notification) -> bool:
        """Queue ``note`` unless its fingerprint was already announced; returns at once (True if queued)."""
        if not self.channels:
            return False
        with self._lock:
            if note.fingerprint in self._sent:
                return False
            self._remember(note.fingerprint)
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, name="notifier", daemon=True)
                self._worker.start()
        self._queue.put(note)
        return True

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
            assert isinstance(item, Notification)
            for ch in self.channels:
                self._deliver(ch, item)

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
            return
        self.failed.append((shown_target(ch.target), note.fingerprint, last))
        log.error("notify %s gave up after %d attempts: %s", shown_target(ch.target), self.attempts, last)


def describe(notifier: Notifier) -> str:
    return json.dumps({"delivered": notifier.delivered, "failed": notifier.failed})
