"""Task log files in OSMO's line format, and reading them back: whole, tail-from-the-end, or followed."""

from __future__ import annotations

import heapq
import itertools
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from runshepherd.backends.linecap import RAW_LINE_BYTES, capped_lines, cut_line

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
        """Each line of `text` gets the task's tag: an echoed multi-line `python -c` script or error, written bare
        after its first line, read as the job's own output (its `raise RuntimeError(...)` line became the
        diagnosis's evidence, and `logs --task` could not place it)."""
        lines = "".join(format_line(self.task, part, control=control) + "\n" for part in text.split("\n"))
        with self._lock:
            self._fh.write(lines)
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


_READ_BUDGET = 1024 * 1024  # bytes read at a time, shared by the files being merged


def _start_of_last(path: Path, n: int, end: int) -> int | None:
    """Offset where the last ``n`` newline-ended lines before ``end`` begin (0 when there are fewer; None when
    the file is gone). Newlines are counted backwards block by block; nothing read is kept."""
    try:
        fh = path.open("rb")
    except FileNotFoundError:
        return None
    with fh:
        pos, newlines = end, 0
        while pos > 0:
            step = min(_BLOCK, pos)
            pos -= step
            fh.seek(pos)
            block = fh.read(step)
            found = block.count(b"\n")
            if newlines + found > n:  # the newline just before the first wanted line is in this block
                cut = len(block)
                for _ in range(n + 1 - newlines):
                    cut = block.rfind(b"\n", 0, cut)
                return pos + cut + 1
            newlines += found
    return 0


def _pieces(path: Path, start: int, end: int, size: int) -> Iterator[bytes]:
    """The bytes ``[start, end)`` in pieces of whole lines of about ``size`` bytes (a longer line is one piece, its
    bytes beyond ``cap`` counted, not kept: `cut_line` says so at the line's end).

    The file is opened for each read, so merging a thousand task logs holds no file open between reads."""
    cap = RAW_LINE_BYTES
    pos, parts, held, over = start, [], 0, 0  # the start of an unfinished line: bytes kept, bytes dropped
    while pos < end:
        try:
            with path.open("rb") as fh:
                fh.seek(pos)
                data = fh.read(min(size, end - pos))
        except FileNotFoundError:
            break
        if not data:  # the file shrank under us
            break
        pos += len(data)
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            room = max(0, cap - held)
            parts.append(data[:room])
            held, over = held + min(room, len(data)), over + max(0, len(data) - room)
            continue
        first = data.find(b"\n")
        if parts or first > cap:  # the first line of this read is long: cap it before the rest
            room = max(0, cap - held)
            line = b"".join([*parts, data[: min(first, room)]])
            over += max(0, first - room)
            yield (cut_line(line, len(line) + over) if over else line) + b"\n"
            data, cut = data[first + 1 :], cut - first - 1
        if cut:
            yield _capped(data[:cut], cap)
        rest = data[cut:]
        parts, held, over = [rest[:cap]], min(len(rest), cap), max(0, len(rest) - cap)
        if not rest:
            parts = []
    if parts:
        line = b"".join(parts)
        yield cut_line(line, len(line) + over) if over else line


def _capped(lines: bytes, cap: int) -> bytes:
    """Whole lines, each cut to ``cap`` bytes (`cut_line` on a cut one); unchanged when none is longer."""
    if len(lines) <= cap or max(map(len, lines.split(b"\n"))) <= cap:
        return lines
    return b"\n".join(cut_line(ln[:cap], len(ln)) if len(ln) > cap else ln for ln in lines.split(b"\n"))


def _decoded(piece: bytes) -> list[str]:
    """The lines of a piece, cut at "\n" only: the writer ends each line with one, and whatever else a job printed
    inside its line (\r, \v, U+2028 …) stays in that line, behind its prefix (`logs.decode.shown_line` shows it)."""
    lines = piece.decode("utf-8", errors="replace").split("\n")
    return lines[:-1] if piece.endswith(b"\n") else lines


def _count_lines(path: Path, start: int, end: int, size: int) -> int:
    """How many lines ``_lines`` yields for ``[start, end)``, without keeping or decoding them."""
    total = 0
    for piece in _pieces(path, start, end, size):
        total += piece.count(b"\n") + (not piece.endswith(b"\n"))
    return total


def _lines(path: Path, start: int, end: int, size: int, skip: int = 0) -> Iterator[str]:
    """The lines of ``[start, end)``, decoded a piece at a time, the first ``skip`` left out."""
    for piece in _pieces(path, start, end, size):
        lines = _decoded(piece)
        if skip >= len(lines):
            skip -= len(lines)
            continue
        yield from lines[skip:] if skip else lines
        skip = 0


def merge_by_time(per_task: Iterable[Iterable[str]]) -> Iterator[str]:
    """Interleave task logs by their timestamp prefix; lines of one task keep their order."""
    return heapq.merge(*per_task, key=lambda line: line[:STAMP_LEN])


class Follower:
    """Reads lines appended to a set of files since the last call (complete lines only)."""

    def __init__(self, paths: list[Path], offsets: dict[Path, int]) -> None:
        self.paths = paths
        self.offsets = dict(offsets)

    def poll(self) -> list[str]:
        """Complete lines appended since the last poll, each capped like every raw line (`linecap`)."""
        batches = []
        for path in self.paths:
            start = self.offsets.get(path, 0)
            lines: list[bytes] = []
            try:
                with path.open("rb") as fh:
                    fh.seek(start)
                    for line, ended in capped_lines(fh, RAW_LINE_BYTES):
                        if not ended:  # still being written: read it whole at a later poll
                            break
                        lines.append(line)
                        self.offsets[path] = fh.tell()
            except FileNotFoundError:
                continue
            if lines:
                batches.append([line.decode("utf-8", errors="replace") for line in lines])
        return list(merge_by_time(batches))


def iter_existing(paths: list[Path], ends: dict[Path, int], tail: int | None) -> Iterator[str]:
    """What the logs hold now (up to ``ends``), merged by time, optionally only the last ``tail`` lines.

    Streamed in bounded memory whatever the tail: each file is read from where its last ``tail`` lines begin
    (found by counting newlines backwards), its lines counted once, then read again a piece at a time, and the
    merge is cut to its last ``tail`` lines by skipping the surplus at the front (holding a 1,000,000-line tail of
    a 100 MB log took 525 MB)."""
    if tail is not None and tail <= 0:
        return iter(())
    size = max(16 * 1024, _READ_BUDGET // max(1, len(paths)))
    streams, total = [], 0
    for path in paths:
        start = 0 if tail is None else _start_of_last(path, tail, ends[path])
        if start is None:
            continue
        if tail is None:
            streams.append(_lines(path, start, ends[path], size))
            continue
        count = _count_lines(path, start, ends[path], size)
        keep = min(count, tail)
        streams.append(_lines(path, start, ends[path], size, skip=count - keep))
        total += keep
    merged = merge_by_time(streams)
    return merged if tail is None else itertools.islice(merged, max(0, total - tail), None)


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
