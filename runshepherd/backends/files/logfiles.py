"""Task log files in OSMO's line format, and reading them back: whole, tail-from-the-end, or followed."""

from __future__ import annotations

import heapq
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

_BLOCK = 64 * 1024
STAMP_LEN = len("2025/01/01 00:00:00")


def stamp(when: datetime | None = None) -> str:
    return (when or datetime.now(UTC)).strftime("%Y/%m/%d %H:%M:%S")


def format_line(task: str, text: str, *, control: bool = False, when: datetime | None = None) -> str:
    """`YYYY/MM/DD HH:MM:SS [task] text`, or `[task][osmo] text` for the backend's own lines."""
    tag = f"[{task}][osmo]" if control else f"[{task}]"
    return f"{stamp(when)} {tag} {text}"


class TaskLog:
    """Append-only writer shared by the output reader thread and the supervisor; one write per line."""

    def __init__(self, path: Path, task: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.task = task
        self._fh: IO[str] = path.open("a", encoding="utf-8", errors="replace")
        self._lock = threading.Lock()

    def write(self, text: str, *, control: bool = False) -> None:
        line = format_line(self.task, text, control=control) + "\n"
        with self._lock:
            self._fh.write(line)
            self._fh.flush()

    def pump(self, stream: IO[bytes]) -> None:
        """Copy a process's output to the log until EOF; a last line without newline is kept too."""
        for raw in iter(stream.readline, b""):
            text = raw.decode("utf-8", errors="replace").rstrip("\n").rstrip("\r")
            self.write(text)
        stream.close()

    def close(self) -> None:
        with self._lock:
            self._fh.close()


# ------------------------------------------------------------------------------------------- reading
def complete_end(path: Path) -> int:
    """Offset just past the last newline: lines beyond it may still be being written."""
    try:
        fh = path.open("rb")
    except FileNotFoundError:
        return 0
    with fh:
        pos = fh.seek(0, os.SEEK_END)
        while pos > 0:
            step = min(_BLOCK, pos)
            fh.seek(pos - step)
            block = fh.read(step)
            cut = block.rfind(b"\n")
            if cut >= 0:
                return pos - step + cut + 1
            pos -= step
    return 0


def read_lines(path: Path, end: int) -> list[str]:
    """Lines of the first ``end`` bytes."""
    try:
        with path.open("rb") as fh:
            data = fh.read(end)
    except FileNotFoundError:
        return []
    return data.decode("utf-8", errors="replace").splitlines()


def tail_lines(path: Path, n: int, end: int) -> list[str]:
    """The last ``n`` lines before ``end``, reading blocks backwards (a log may be gigabytes)."""
    if n <= 0:
        return []
    try:
        fh = path.open("rb")
    except FileNotFoundError:
        return []
    with fh:
        # Blocks are gathered, newlines counted once each: re-joining and re-counting everything read so far at
        # every block made a large tail quadratic (a 1,000,000-line tail of a 100 MB log took minutes).
        pos, blocks, newlines = end, [], 0
        while pos > 0 and newlines <= n:
            step = min(_BLOCK, pos)
            pos -= step
            fh.seek(pos)
            block = fh.read(step)
            blocks.append(block)
            newlines += block.count(b"\n")
    lines = b"".join(reversed(blocks)).decode("utf-8", errors="replace").splitlines()
    return lines[-n:]


def merge_by_time(per_task: Iterable[list[str]]) -> list[str]:
    """Interleave task logs by their timestamp prefix; lines of one task keep their order."""
    return list(heapq.merge(*per_task, key=lambda line: line[:STAMP_LEN]))


class Follower:
    """Reads lines appended to a set of files since the last call (complete lines only)."""

    def __init__(self, paths: list[Path], offsets: dict[Path, int]) -> None:
        self.paths = paths
        self.offsets = dict(offsets)

    def poll(self) -> list[str]:
        batches = []
        for path in self.paths:
            start = self.offsets.get(path, 0)
            try:
                with path.open("rb") as fh:
                    fh.seek(start)
                    data = fh.read()
            except FileNotFoundError:
                continue
            cut = data.rfind(b"\n")
            if cut < 0:
                continue
            self.offsets[path] = start + cut + 1
            batches.append(data[: cut + 1].decode("utf-8", errors="replace").splitlines())
        return merge_by_time(batches)


def iter_existing(paths: list[Path], ends: dict[Path, int], tail: int | None) -> list[str]:
    """What the logs hold now (up to ``ends``), merged by time, optionally only the last ``tail`` lines."""
    if tail is None:
        return merge_by_time(read_lines(p, ends[p]) for p in paths)
    if tail <= 0:
        return []
    return merge_by_time(tail_lines(p, tail, ends[p]) for p in paths)[-tail:]


def follow(
    paths: list[Path],
    ends: dict[Path, int],
    tail: int | None,
    timeout: float | None,
    finished: Callable[[], bool],
    *,
    recheck: float = 0.0,
) -> Iterator[str]:
    """Existing lines, then — for up to ``timeout`` s — lines as they are appended, until ``finished()``.

    ``finished`` asks the backend whether the workflow ended; it is called every ``recheck`` seconds (a scheduler
    query may cost more than reading a file), the first time ``recheck`` s after the caller looked. Lines written
    before the end are always delivered: the files are read once more after ``finished()`` says so.
    """
    yield from iter_existing(paths, ends, tail)
    if not timeout or timeout <= 0:
        return
    follower = Follower(paths, ends)
    deadline = time.monotonic() + timeout
    next_check = time.monotonic() + recheck  # the caller has just looked
    done = False
    while True:
        if time.monotonic() >= next_check:
            next_check = time.monotonic() + recheck
            done = finished()
        yield from follower.poll()
        remaining = deadline - time.monotonic()
        if done or remaining <= 0:
            return
        time.sleep(min(0.1, remaining))
