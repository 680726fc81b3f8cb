"""Log readers shared by every point of a sweep (issue 16): one reader per five tasks across ALL points, not one
per point. A reader reads up to five tasks at once; a task joins a reader that still has a free slot, and a new
reader starts only when every running one is full — so when several points fail in the same tick, the sweep runs
at most ceil(failed tasks / 5) readers at once, with no task waiting for another's read to end. Each point still
gets back the digests of its own tasks and writes its own summary (the reader subagent's `summarise`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")
TASKS_PER_READER = 5


@dataclass
class _Reader:
    pool: ThreadPoolExecutor
    busy: int = 0


@dataclass
class SharedReaders:
    per_reader: int = TASKS_PER_READER
    started: int = 0  # readers started so far
    peak: int = 0  # the most readers running at once
    tasks: int = 0  # task logs read so far
    _readers: list[_Reader] = field(default_factory=list, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def read(self, jobs: Sequence[Callable[[], T]]) -> list[T]:
        """Run one point's task reads on the shared readers; their results in order (a read's error is raised)."""
        futures = [self._submit(job) for job in jobs]
        return [f.result() for f in futures]

    def _submit(self, job: Callable[[], T]) -> Future[T]:
        with self._lock:
            reader = next((r for r in self._readers if r.busy < self.per_reader), None)
            if reader is None:
                self.started += 1
                name = f"logs-reader-{self.started}"
                reader = _Reader(ThreadPoolExecutor(max_workers=self.per_reader, thread_name_prefix=name))
                self._readers.append(reader)
                self.peak = max(self.peak, len(self._readers))
            reader.busy += 1
            self.tasks += 1
            future = reader.pool.submit(job)
        future.add_done_callback(lambda _f: self._finished(reader))  # outside the lock: it may run right here
        return future

    def _finished(self, reader: _Reader) -> None:
        with self._lock:
            reader.busy -= 1
            if reader.busy == 0 and reader in self._readers:
                self._readers.remove(reader)  # idle: the next task starts a fresh reader
                reader.pool.shutdown(wait=False)
