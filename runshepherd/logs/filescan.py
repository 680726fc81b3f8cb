"""Digest a big log file fast: parse its head and tail, and in between only the lines that carry a cue.

What a digest needs sits in three places. The head holds the banner and the first progress markers (ETA
measures from them); the tail holds the latest progress, metrics, timestamp and what happened last; the
middle matters only where something happened — errors, tracebacks, key events. So the head and tail windows
go through the full per-line pipeline, and the middle is read in large binary chunks where the
:class:`~runshepherd.logs.scan.CueScanner` finds cue lines at C speed (Hyperscan, else numpy); only those
are decoded and parsed, plus the lines after a cue while a traceback (or a private key block) is open, and one
sample line per ``sample_every_bytes`` so metric trends keep some history. The other lines are counted, never decoded.

Consequences, by design: redaction runs on every line that is parsed, so nothing unparsed can reach a digest,
and the redaction counts cover the parsed lines only; loss spikes between samples in the middle are not seen
(the tail's window still carries the trend, NaN and recent spikes). Memory is bounded by the chunk size.
"""

from __future__ import annotations

import time
from contextlib import closing
from io import BufferedReader
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from runshepherd.logs.config import LogConfig
from runshepherd.logs.decode import iter_binary_lines, last_segment
from runshepherd.logs.readahead import read_ahead
from runshepherd.logs.scan import CueScanner
from runshepherd.logs.scanners import scanner_for

if TYPE_CHECKING:  # the reader imports this module; the digester is only a parameter here
    from runshepherd.logs.reader import LogDigester

_PROBE = 64 * 1024
_NUMPY_COUNT_FROM = 64 * 1024  # below this, bytes.count beats numpy's per-call overhead
_COUNT_BLOCK = 1 << 20


def count_newlines(buf: bytes | bytearray, lo: int, hi: int) -> int:
    """Newlines in ``buf[lo:hi]``; numpy compares and counts ~2x faster than ``bytes.count`` on big ranges."""
    if hi - lo < _NUMPY_COUNT_FROM:
        return buf.count(b"\n", lo, hi)
    import numpy as np  # here, not at import: most processes that read a log never count a range this big

    data = np.frombuffer(buf, dtype=np.uint8, count=hi - lo, offset=lo)
    is_newline = np.empty(min(_COUNT_BLOCK, hi - lo), dtype=np.bool_)
    total = 0
    for start in range(0, hi - lo, _COUNT_BLOCK):
        part = data[start : start + _COUNT_BLOCK]
        out = is_newline[: len(part)]
        np.equal(part, 10, out=out)
        total += int(np.count_nonzero(out))
    return total


def wants_fast_scan(config: LogConfig, nbytes: int) -> bool:
    """Scan only when there is a middle to skip; a line cap asks for the plain line-by-line read."""
    return (
        config.fast_scan and config.max_lines is None and nbytes > config.head_window_bytes + config.tail_window_bytes
    )


def next_line_start(stream: BinaryIO, offset: int, end: int) -> int:
    """The first line start at or after ``offset`` (``end`` when no newline follows), reading in small probes."""
    if offset <= 0:
        return 0
    stream.seek(offset - 1)
    pos = offset - 1
    while pos < end:
        probe = stream.read(min(_PROBE, end - pos))
        if not probe:
            break
        nl = probe.find(b"\n")
        if nl != -1:
            return pos + nl + 1
        pos += len(probe)
    return end


class _MiddleScan:
    """The chunk loop over the middle of a file; holds the state that crosses chunk boundaries."""

    def __init__(self, digester: LogDigester, config: LogConfig, scanner: CueScanner, max_line_bytes: int) -> None:
        self.digester = digester
        self.config = config
        self.scanner = scanner
        self.max_line_bytes = max_line_bytes
        self.follow_left = 0
        self.next_sample = 0  # absolute offset of the next sampled line

    # ------------------------------------------------------------------ lines
    def feed(self, raw: bytes | bytearray) -> None:
        """Decode and parse one line (bytes with its newline), cutting over-long lines like the plain reader."""
        nbytes = len(raw)
        if nbytes <= self.max_line_bytes:
            self.digester.feed(raw.decode("utf-8", "replace"), nbytes)
            return
        tail = raw[-self.max_line_bytes :]
        if b"\r" in tail:  # a progress bar rewritten in place: the last segment is what was shown
            text = last_segment(tail.decode("utf-8", "replace").rstrip("\n"))
        else:
            text = raw[: self.max_line_bytes].decode("utf-8", "replace")
        self.digester.feed(text, nbytes, cut=True)

    def skip_to(self, buf: bytes | bytearray, cursor: int, stop: int) -> None:
        """Count the unparsed lines in ``buf[cursor:stop]`` (``stop`` is a line start or the end of data)."""
        if stop > cursor:
            lines = count_newlines(buf, cursor, stop)
            if buf[stop - 1 : stop] != b"\n":
                lines += 1  # the file's last line has no newline
            self.digester.skip(lines, stop - cursor)

    def follow(self, buf: bytes | bytearray, cursor: int, hi: int) -> int:
        """Parse the lines after a cue while a traceback is open, up to ``follow_lines``."""
        while self.follow_left > 0 and cursor < hi and self.digester.following:
            nl = buf.find(b"\n", cursor, hi)
            end = hi if nl == -1 else nl + 1
            self.feed(buf[cursor:end])
            self.follow_left -= 1
            cursor = end
        return cursor

    # ------------------------------------------------------------------ chunks
    def scan(self, buf: bytes | bytearray, lo: int, hi: int, base: int) -> None:
        """Handle ``buf[lo:hi]`` (whole lines); ``buf[0]`` is at file offset ``base``."""
        cursor = self.follow(buf, lo, hi)
        picks = list(self.scanner.cue_lines(buf, cursor, hi))
        picks.extend(self._samples(buf, cursor, hi, base))
        picks.sort()
        for start, end in picks:
            if start < cursor:
                continue
            self.skip_to(buf, cursor, start)
            self.feed(buf[start:end])
            cursor = end
            self.follow_left = self.config.follow_lines
            cursor = self.follow(buf, cursor, hi)
        self.skip_to(buf, cursor, hi)

    def _samples(self, buf: bytes | bytearray, lo: int, hi: int, base: int) -> list[tuple[int, int]]:
        every = self.config.sample_every_bytes
        out: list[tuple[int, int]] = []
        if self.next_sample < base + lo:
            self.next_sample = base + lo
        while self.next_sample < base + hi:
            at = self.next_sample - base
            if at == lo or buf[at - 1 : at] == b"\n":  # ``lo`` is a line start
                start = at
            else:
                nl = buf.find(b"\n", at, hi)
                if nl == -1:
                    break
                start = nl + 1
            if start >= hi:
                break
            nl = buf.find(b"\n", start, hi)
            out.append((start, hi if nl == -1 else nl + 1))
            self.next_sample += every
        return out

    def run(self, stream: BufferedReader, lo: int, hi: int, deadline: float | None) -> bool:
        """Scan file bytes ``[lo, hi)`` (``lo`` a line start). Returns False when the deadline cut it short.

        Chunks come from :func:`~runshepherd.logs.readahead.read_ahead` (the next one is read while this one is
        scanned); the partial line at the end of a chunk is carried, as a short copy, in front of the next.
        """
        chunk = self.config.scan_chunk_bytes
        stream.seek(lo)
        carry, at = b"", lo  # a partial line not handled yet, and its file offset
        long: _LongLine | None = None
        remaining = hi - lo
        with closing(read_ahead(stream, remaining, chunk)) as reads:
            for buf, got in reads:
                if deadline is not None and time.monotonic() > deadline:
                    return False
                remaining -= got
                begin, size = chunk - len(carry), chunk + got
                buf[begin:chunk] = carry
                base = at - begin  # file offset of buf[0]
                if long is not None:  # inside a line longer than a chunk (nothing is carried then)
                    nl = buf.find(b"\n", begin, size)
                    end = size if nl == -1 else nl + 1
                    long.extend(buf[begin:end], self.max_line_bytes)
                    if nl == -1 and remaining > 0:
                        carry, at = b"", base + size
                        continue
                    self._long_line(long)
                    long, begin = None, end
                end = buf.rfind(b"\n", begin, size) + 1 if remaining > 0 else size
                if end <= begin:  # no line ends in what was read
                    if size - begin >= chunk:
                        long = _LongLine()
                        long.extend(buf[begin:size], self.max_line_bytes)
                        carry, at = b"", base + size
                    else:
                        carry, at = bytes(buf[begin:size]), base + begin
                    continue
                self.scan(buf, begin, end, base)
                # What is left has no newline and came from this read, so it is shorter than a chunk: it fits
                # in front of the next chunk.
                carry, at = bytes(buf[end:size]), base + end
        if long is not None:
            self._long_line(long)
        elif carry:
            self.scan(carry, 0, len(carry), at)
        return True

    def _long_line(self, line: _LongLine) -> None:
        """A line longer than a chunk is one line: parsed (cut) only if its kept part carries a cue."""
        shown = line.head
        if b"\r" in line.tail:
            shown = last_segment(line.tail.decode("utf-8", "replace").rstrip("\n")).encode()
        if self.scanner.matches(shown) or self.digester.following:
            self.digester.feed(shown.decode("utf-8", "replace"), line.nbytes, cut=True)
        else:
            self.digester.skip(1, line.nbytes)


class _LongLine:
    """First and latest bytes of a line too long to hold, and its size."""

    def __init__(self) -> None:
        self.head = b""
        self.tail = b""
        self.nbytes = 0

    def extend(self, data: bytes | bytearray, keep: int) -> None:
        if len(self.head) < keep:
            self.head += bytes(data[: keep - len(self.head)])
        self.tail = (self.tail + bytes(data[-keep:]))[-keep:]
        self.nbytes += len(data)


def scan_file(
    path: Path,
    digester: LogDigester,
    config: LogConfig,
    *,
    start: int,
    size: int,
    max_line_bytes: int,
    scanner: CueScanner | None = None,
) -> None:
    """Feed ``digester`` from file bytes ``[start, size)``: head and tail parsed, the middle cue-scanned.

    ``scanner`` defaults to the one ``config.cue_scanner`` names (see :mod:`runshepherd.logs.scanners`).
    """
    cue_scanner = scanner if scanner is not None else scanner_for(config.cue_scanner)
    started = time.monotonic()
    deadline = started + config.max_seconds if config.max_seconds is not None else None
    with open(path, "rb") as stream:
        lo = next_line_start(stream, start, size)
        digester.bytes_skipped += lo - start
        # Head: whole lines until the window is used up.
        stream.seek(lo)
        head_end = lo
        for line in iter_binary_lines(stream, max_line_bytes):
            if not digester.feed(line.text, line.nbytes, line.cut):
                return
            head_end += line.nbytes
            if head_end - lo >= config.head_window_bytes:
                break
        if head_end >= size:
            return
        tail_start = max(head_end, next_line_start(stream, size - config.tail_window_bytes, size))
        middle = _MiddleScan(digester, config, cue_scanner, max_line_bytes)
        complete = middle.run(stream, head_end, tail_start, deadline)
        stream.seek(tail_start)
        for line in iter_binary_lines(stream, max_line_bytes):
            if not digester.feed(line.text, line.nbytes, line.cut):
                return
    if not complete and digester.truncation_reason is None:
        digester.truncation_reason = "max_seconds"
