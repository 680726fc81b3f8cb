"""Find the few interesting lines of a big log without a Python step per line.

A training log is mostly progress bars and metric prints; what a digest needs from its middle are error and
key-event lines. Testing ~90 cue phrases per line in Python runs at a few MB/s, and one C-level
``bytes.find`` per phrase is still ~90 passes over the data. Instead each phrase has one *anchor*, a rare
5-byte piece of it (as spelled, and in lower, upper and capitalised case). The buffer is viewed as little-endian 32-bit words at
every other byte offset, and each word is looked up in a hashed table of the anchors' 4-byte pieces — a few
vectorised numpy passes whatever the number of phrases. Exact piece matches mark candidate lines, which are
then checked for their phrases with plain substring tests. Lines without a cue are never decoded.
"""

from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

# (natural spelling, anchor). The phrase is matched case-insensitively on a candidate line; the anchor is a
# 5-character piece of it that is rare in ordinary log lines ("ning", "poch", "mory" are not), looked up as
# spelled and in lower, upper and capitalised case. The vocabulary mirrors the error collector's fatal/generic patterns and the
# event and stage rules. Cues shorter than an anchor ("E: " at a line start, "[E ", a bare "nan") are only
# seen in the head and tail windows; the middle has longer forms of them.
CUES: tuple[tuple[str, str], ...] = (
    # errors and fatal signals
    ("Traceback", "raceb"), ("Error", "Error"), ("Exception", "xcept"), ("FATAL", "FATAL"),
    ("CRITICAL", "RITIC"), ("Killed", "Kille"), ("SIGKILL", "GKILL"), ("signal 9", "nal 9"),
    ("oom-kill", "om-ki"), ("out of memory", "of me"), ("Cannot allocate", "ot al"), ("bad_alloc", "d_all"),
    ("Segmentation fault", "egmen"), ("SIGSEGV", "IGSEG"), ("SIGABRT", "GABRT"), ("core dumped", "dumpe"),
    ("Illegal instruction", "llega"), ("command not found", "t fou"), ("No such file", "such "),
    ("No space left", "o spa"), ("quota exceeded", "quota"), ("Permission denied", "denie"),
    ("NCCL WARN", "CL WA"), ("Watchdog caught", "chdog"), ("socketStartConnect", "tStar"), ("IBV_WC", "IBV_W"),
    ("device-side assert", "e-sid"), ("CUDA driver", "A dri"), ("CUDA-capable", "A-cap"),
    ("Unauthorized", "nauth"), ("Forbidden", "orbid"), ("AccessDenied", "sDeni"), ("ExpiredToken", "dToke"),
    ("InvalidAccessKeyId", "dAcce"), ("non-zero exit", "n-zer"), ("exited with", "xited"),
    ("exit code", "xit c"), ("exit status", "xit s"), ("panic:", "anic:"), ("Abort", "Abort"),
    ("assert", "asser"), ("timed out", "imed "), ("preempt", "reemp"), ("] E: ", "] E: "),
    (": NaN", ": NaN"), ("=NaN ", "=NaN "), ("=NaN,", "=NaN,"), (" NaN ", " NaN "), (" NaN,", " NaN,"),
    ("=NaN\n", "=NaN\n"), ("PRIVATE KEY", "IVATE"),
    # key events and stages
    ("checkpoint", "ckpoi"), ("Resuming", "esumi"), ("Resumed", "esume"), ("Restor", "Resto"), ("Download", "ownlo"),
    ("Upload", "Uploa"), ("Saving model", "aving"), ("saved model", "saved"), ("model saved", "saved"),
    ("Running training", "unnin"), ("Beginning training", "Begin"), ("Start training", "rt tr"),
    ("Starting training", "tarti"), ("Training started", "arted"), ("Training complete", "ng co"),
    ("Training finished", "finis"), ("Finished training", "nishe"), ("Training done", "ng do"),
    ("train_runtime", "n_run"), ("trainer.fit", "r.fit"), ("NCCL version", "CL ve"),
    ("ncclCommInitRank", "cclCo"), ("Init COMPLETE", "it CO"), ("Running evaluation", "unnin"),
    ("Evaluating", "aluat"), ("Validating", "lidat"), ("Validation:", "lidat"), ("pip install", "p ins"),
    ("Installing", "nstal"), ("Initializing", "alizi"), ("Loading model", "ng mo"), ("Building model", "Build"),
    ("Setting up", "ng up"), ("Loading dataset", "ng da"), ("Preparing data", "ng da"),
    ("Loading input data", "input"), ("Fetching data", "ng da"), ("completed successfully", "fully"),
    ("All done", "ll do"), ("has not started", "arted"), ("No application logs", "appli"),
    ("Total optimization steps", "imiza"), ("Num Epochs", "m Epo"),
)
CUE_PHRASES: tuple[str, ...] = tuple(phrase for phrase, _ in CUES)

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


class CueScanner:
    """Locates lines that contain any of ``phrases`` inside large byte buffers."""

    def __init__(self, cues: Iterable[tuple[str, str]] = CUES) -> None:
        cues = tuple(cues)
        self.phrases = tuple(phrase for phrase, _ in cues)
        words: set[int] = set()
        self._by_anchor: dict[bytes, tuple[bytes, ...]] = {}  # each 4-byte piece -> the phrases it may start
        for phrase, anchor in cues:
            if len(anchor) != ANCHOR_LEN or anchor not in phrase:
                raise ValueError(f"anchor {anchor!r} must be {ANCHOR_LEN} characters of {phrase!r}")
            at_ = phrase.index(anchor)
            spellings = {phrase, phrase.lower(), phrase.upper(), phrase.capitalize()}  # "FATAL", "fatal", "Fatal"
            for variant in {spelling[at_ : at_ + ANCHOR_LEN] for spelling in spellings}:
                for at in range(_STRIDE):
                    piece = variant[at : at + 4].encode()
                    words.add(_word(piece))
                    key = piece.lower()
                    self._by_anchor[key] = (*self._by_anchor.get(key, ()), phrase.lower().encode())
        self._words = np.array(sorted(words), dtype=np.uint32)
        self._table = np.zeros(1 << _BITS, dtype=np.bool_)
        self._table[(self._words * _HASH) >> _SHIFT] = True
        self._lower = tuple(p.lower().encode() for p in self.phrases)

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
                if not flags.any():  # the common case: no anchor in this block at this offset
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

    def matches(self, line: bytes, anchor: bytes | None = None) -> bool:
        """Exact check of one line; with the anchor found on it, only that anchor's phrases are tried."""
        low = line.lower()
        phrases = self._by_anchor.get(anchor.lower(), self._lower) if anchor is not None else self._lower
        return any(p in low for p in phrases)

    def cue_lines(self, buf: bytes | bytearray, lo: int, hi: int) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of each line in ``buf[lo:hi]`` holding a cue, in order; ``end`` is after its ``\\n``.

        ``lo`` must be a line start and ``hi`` a line end (just after a newline, or the buffer end).
        """
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
            if self.matches(bytes(buf[max(lo, start - 1) : end]), anchor):
                yield start, end
                cursor = end


DEFAULT_SCANNER = CueScanner()
