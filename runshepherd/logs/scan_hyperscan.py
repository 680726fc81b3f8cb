"""The fast cue scanner: all phrases compiled into one Hyperscan database, scanned over the buffer in place.

Hyperscan (x86 only) matches ~100 caseless literals in one SIMD pass at several GB/s, and reports only end
offsets: the byte before a match's end lies on the line that holds it (for a phrase ending in ``\\n``, that is
the line's own newline), so no start-of-match tracking is needed. Importing this module fails where the
``hyperscan`` package is missing; :mod:`~runshepherd.logs.scanners` then falls back to numpy.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from typing import Any

import hyperscan

from runshepherd.logs.scan import CUES, CueScanner


def _collect(_id: int, _start: int, end: int, _flags: int, ends: Any) -> None:  # ends: the list[int] passed as context
    ends.append(end)


class HyperscanCueScanner(CueScanner):
    """Cue lines through one Hyperscan block-mode database; a scratch per thread, so threads may share it."""

    name = "hyperscan"

    def __init__(self, cues: Iterable[tuple[str, str]] = CUES) -> None:
        super().__init__(cues)
        self._db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        self._db.compile(
            expressions=[phrase.encode() for phrase in self.phrases],
            ids=list(range(len(self.phrases))),
            elements=len(self.phrases),
            flags=hyperscan.HS_FLAG_CASELESS,
            literal=True,  # phrases are plain text: no regex escaping, the literal compiler
        )
        self._local = threading.local()

    def _scratch(self) -> hyperscan.Scratch:
        """Hyperscan's scratch space may be used by one scan at a time: each thread gets its own."""
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = hyperscan.Scratch(self._db)
        return scratch

    def match_ends(self, buf: bytes | bytearray, lo: int, hi: int) -> list[int]:
        """Absolute end offsets of the phrase matches in ``buf[lo:hi]``, ascending (the buffer is not copied)."""
        ends: list[int] = []
        if hi > lo:
            with memoryview(buf) as view, view[lo:hi] as part:
                # Hyperscan scans any buffer; its stub names only str/bytes (copying to bytes would cost a chunk).
                self._db.scan(part, match_event_handler=_collect, context=ends, scratch=self._scratch())  # type: ignore[type-var]
        ends.sort()  # block mode reports by end offset already; sorting a short list keeps that explicit
        return [lo + end for end in ends]

    def cue_lines(self, buf: bytes | bytearray, lo: int, hi: int) -> Iterator[tuple[int, int]]:
        cursor = lo
        for end_of_match in self.match_ends(buf, lo, hi):
            last = end_of_match - 1  # the match's last byte: on the line that holds the match
            if last < cursor:
                continue  # another match on a line already taken
            start = buf.rfind(b"\n", lo, last) + 1
            nl = buf.find(b"\n", last, hi)
            end = hi if nl == -1 else nl + 1
            yield max(start, lo), end
            cursor = end
