"""The portable cue scanner: vectorised numpy lookups of rare 4-byte pieces, then exact checks per candidate line.

Testing ~90 cue phrases per line in Python runs at a few MB/s, and one C-level ``bytes.find`` per phrase is
still ~90 passes over the data. Instead each phrase has one *anchor*, a rare 5-byte piece of it. The buffer is
viewed as little-endian 32-bit words at every other byte offset, and each word is looked up in a hashed table
holding the anchors' 4-byte pieces in every ASCII case combination — a few vectorised numpy passes whatever the
number of phrases, and as case-blind as the exact check. Exact piece matches mark candidate lines, which are
then checked for their phrases with plain substring tests. Lines without a cue are never decoded.
Runs on any machine numpy runs on (~1 s per GB); :mod:`~runshepherd.logs.scan_hyperscan` is faster on x86.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import product

import numpy as np

from runshepherd.logs.scan import CUES, CueScanner

_HASH = np.uint32(2654435761)  # Knuth's multiplicative hash
_BITS = 20
_SHIFT = np.uint32(32 - _BITS)
_BLOCK = 1 << 20  # numpy works on 1 MiB blocks: its temporaries stay in cache and small
# Windows are looked up at every _STRIDE-th byte only: an anchor of 4 + _STRIDE - 1 bytes always holds one of
# them, so each of its _STRIDE 4-byte pieces goes in the table. Half the lookups of checking every byte.
_STRIDE = 2
ANCHOR_LEN = 4 + _STRIDE - 1


def _word(gram: bytes) -> int:
    return int.from_bytes(gram, "little")


def case_variants(piece: bytes) -> set[bytes]:
    """Every ASCII upper/lower spelling of ``piece`` (at most 16 for 4 bytes)."""
    options = [{bytes([b]).lower(), bytes([b]).upper()} for b in piece]
    return {b"".join(letters) for letters in product(*options)}


class NumpyCueScanner(CueScanner):
    """Cue lines through hashed anchor lookups in numpy; one instance serves several threads."""

    name = "numpy"

    def __init__(self, cues: Iterable[tuple[str, str]] = CUES) -> None:
        super().__init__(cues)
        words: set[int] = set()
        self._by_anchor: dict[bytes, tuple[bytes, ...]] = {}  # each lowercased 4-byte piece -> its phrases
        for phrase, anchor in self.cues:
            if len(anchor) != ANCHOR_LEN or anchor not in phrase:
                raise ValueError(f"anchor {anchor!r} must be {ANCHOR_LEN} characters of {phrase!r}")
            for at in range(_STRIDE):
                key = anchor[at : at + 4].lower().encode()
                words.update(_word(variant) for variant in case_variants(key))
                self._by_anchor[key] = (*self._by_anchor.get(key, ()), phrase.lower().encode())
        self._words = np.array(sorted(words), dtype=np.uint32)
        self._table = np.zeros(1 << _BITS, dtype=np.bool_)
        self._table[(self._words * _HASH) >> _SHIFT] = True

    def anchor_positions(self, buf: bytes | bytearray | memoryview, lo: int, hi: int) -> list[int]:
        """Sorted offsets in ``buf[lo:hi]`` (absolute) where a 4-byte piece of an anchor starts."""
        view = memoryview(buf)
        size = len(view)
        words_max = (min(_BLOCK, hi - lo) + 3) // 4 + 1
        hashed = np.empty(words_max, dtype=np.uint32)  # per call: one scanner serves several threads
        hit = np.empty(words_max, dtype=np.bool_)
        anchors = self._words
        found: list[np.ndarray] = []
        for start in range(lo, hi, _BLOCK):
            block = view[start : min(size, hi + 3, start + _BLOCK + 3)]  # 3 more: anchors straddle blocks
            for off in range(0, 4, _STRIDE):
                count = (min(len(block), _BLOCK + 3) - off) // 4
                if count <= 0:
                    continue
                words = np.frombuffer(block, dtype="<u4", count=count, offset=off)
                out, flags = hashed[:count], hit[:count]
                np.multiply(words, _HASH, out=out)
                np.right_shift(out, _SHIFT, out=out)
                np.take(self._table, out, out=flags)
                if not flags.any():  # no anchor in this block at this offset
                    continue
                maybe = np.flatnonzero(flags)
                values = words[maybe]
                at = np.minimum(np.searchsorted(anchors, values), len(anchors) - 1)
                exact = maybe[anchors[at] == values]
                if exact.size:
                    found.append(exact * 4 + (start + off))
        if not found:
            return []
        positions = np.unique(np.concatenate(found))
        return positions[positions < hi].tolist()

    def _matches_anchor(self, line: bytes, anchor: bytes) -> bool:
        """Exact check of one line against the phrases of the anchor found on it."""
        low = line.lower()
        return any(phrase in low for phrase in self._by_anchor.get(anchor.lower(), self._lower))

    def cue_lines(self, buf: bytes | bytearray, lo: int, hi: int) -> Iterator[tuple[int, int]]:
        cursor = lo
        for pos in self.anchor_positions(buf, lo, hi):
            anchor = bytes(buf[pos : pos + 4])
            if anchor[:1] == b"\n":
                pos += 1  # an anchor that starts with a newline belongs to the line after it
            if pos < cursor or pos >= hi:
                continue  # another anchor on a line already taken
            start = max(cursor, buf.rfind(b"\n", lo, pos) + 1)
            nl = buf.find(b"\n", pos, hi)
            end = hi if nl == -1 else nl + 1
            # One byte before the line is included so "\nE: " can match a line that starts with "E: ".
            if self._matches_anchor(bytes(buf[max(lo, start - 1) : end]), anchor):
                yield start, end
                cursor = end
