"""Read the next chunk of a file while the current one is being scanned.

Copying a chunk out of the page cache costs about as much as scanning it with Hyperscan. File reads release the
GIL, so one worker thread reading chunk k+1 while the caller scans chunk k hides most of that cost (~0.15 s per
GB). Two buffers alternate; each chunk lands at offset ``chunk`` of its buffer so the caller can put the partial
line carried from the previous chunk just before it, contiguous, without moving the chunk.
"""

from __future__ import annotations

from collections.abc import Generator
from concurrent.futures import ThreadPoolExecutor
from io import BufferedReader


def read_ahead(stream: BufferedReader, nbytes: int, chunk: int) -> Generator[tuple[bytearray, int], None, None]:
    """Yield ``(buf, got)`` for up to ``nbytes`` of ``stream`` from its position; the data is ``buf[chunk:chunk+got]``.

    ``buf[:chunk]`` is free for the caller. A yielded buffer is refilled after the next one is yielded, so the
    caller must be done with it (or have copied what it keeps) before asking for the next. Close the generator
    (``contextlib.closing``) when leaving early: that waits for the read in flight.
    """
    size = chunk + min(chunk, nbytes)  # a short range needs no full-size buffers (they are zero-filled)
    buffers = (bytearray(size), bytearray(size))
    left = nbytes

    def fill(buf: bytearray) -> int:
        nonlocal left  # only the worker touches ``left`` and the stream, one read at a time
        if left <= 0:
            return 0
        with memoryview(buf) as view:
            got = stream.readinto(view[chunk : chunk + min(chunk, left)]) or 0
        left -= got
        return got

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="log-read-ahead") as worker:
        current = 0
        pending = worker.submit(fill, buffers[current])
        while True:
            got = pending.result()
            if not got:
                return
            pending = worker.submit(fill, buffers[1 - current])
            yield buffers[current], got
            current = 1 - current
