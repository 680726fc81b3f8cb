"""Find the few interesting lines of a big log without a Python step per line.

A training log is mostly progress bars and metric prints; what a digest needs from its middle are error and
key-event lines. Testing ~90 cue phrases per line in Python runs at a few MB/s, and one C-level
``bytes.find`` per phrase is still ~90 passes. Instead each phrase is given one *anchor*: a rare 4-byte
piece of it, in its natural, lower and upper case. A buffer is viewed as 32-bit words at the four byte offsets
and every word is looked up in a hashed bit table of anchors (numpy, a handful of vectorised passes whatever
the number of phrases); exact anchor matches are kept, and only their lines are checked against the phrases
with a case-insensitive regex. Lines without a cue are never decoded.
"""

from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

# (natural spelling, anchor). The phrase is matched case-insensitively on a candidate line; the anchor is a
# 4-character piece of it that is rare in ordinary log lines ("ning", "poch", "mory" are not), looked up in its
# natural, lower and upper case. The vocabulary mirrors the error collector's fatal/generic patterns and the
# event and stage rules.
CUES: tuple[tuple[str, str], ...] = (
    # errors and fatal signals
    ("Traceback", "aceb"), ("Error", "rror"), ("Exception", "xcep"), ("FATAL", "ATAL"), ("CRITICAL", "ITIC"),
    ("Killed", "Kill"), ("SIGKILL", "GKIL"), ("signal 9", "al 9"), ("oom-kill", "m-ki"),
    ("out of memory", "f me"), ("Cannot allocate", "t al"), ("bad_alloc", "_all"),
    ("Segmentation fault", "egme"), ("SIGSEGV", "SEGV"), ("SIGABRT", "GABR"), ("core dumped", "dump"),
    ("Illegal instruction", "lleg"), ("command not found", "t fo"), ("No such file", "such"),
    ("No space left", "spac"), ("quota exceeded", "quot"), ("Permission denied", "enie"),
    ("NCCL WARN", "L WA"), ("Watchdog caught", "chdo"), ("socketStartConnect", "tSta"), ("IBV_WC", "BV_W"),
    ("device-side assert", "-sid"), ("CUDA driver", "A dr"), ("CUDA-capable", "A-ca"),
    ("Unauthorized", "naut"), ("Forbidden", "rbid"), ("AccessDenied", "sDen"), ("ExpiredToken", "dTok"),
    ("InvalidAccessKeyId", "dAcc"), ("non-zero exit", "-zer"), ("exited with", "xite"), ("exit code", "xit "),
    ("exit status", "xit "), ("panic:", "nic:"), ("Abort", "bort"), ("assert", "sser"), ("timed out", "imed"),
    ("preempt", "eemp"), ("] E: ", "] E:"), ("\nE: ", "\nE: "), (" [E ", " [E "), ("\n[E ", "\n[E "),
    (" NaN", " NaN"), ("=NaN", "=NaN"), (":NaN", ":NaN"), ("PRIVATE KEY", "IVAT"),
    # key events and stages
    ("checkpoint", "ckpo"), ("Resum", "esum"), ("Restor", "esto"), ("Download", "ownl"), ("Upload", "ploa"),
    ("Saving model", "avin"), ("saved model", "aved"), ("model saved", "aved"), ("Running training", "g tr"),
    ("Beginning training", "Begi"), ("Start training", "rt t"), ("Starting training", "g tr"),
    ("Training started", "arte"), ("Training complete", "g co"), ("Training finished", "g fi"),
    ("Finished training", "d tr"), ("Training done", "g do"), ("train_runtime", "n_ru"), ("trainer.fit", "r.fi"),
    ("NCCL version", "L ve"), ("ncclCommInitRank", "cclC"), ("Init COMPLETE", "t CO"),
    ("Running evaluation", "g ev"), ("Evaluating", "luat"), ("Validating", "dati"), ("Validation:", "ion:"),
    ("pip install", "p in"), ("Installing", "stal"), ("Initializing", "iali"), ("Loading model", "g mo"),
    ("Building model", "Buil"), ("Setting up", "g up"), ("Loading dataset", "g da"), ("Preparing data", "g da"),
    ("Loading input data", "inpu"), ("Fetching data", "g da"), ("completed successfully", "ully"),
    ("All done", "l do"), ("has not started", "ot s"), ("No application logs", "ppli"),
    ("Total optimization steps", "imiz"), ("Num Epochs", "m Ep"),
)
CUE_PHRASES: tuple[str, ...] = tuple(phrase for phrase, _ in CUES)

_HASH = np.uint32(2654435761)  # Knuth's multiplicative hash
_BITS = 20
_SHIFT = np.uint32(32 - _BITS)
_BLOCK = 1 << 20  # numpy works on 1 MiB blocks: its temporaries stay in cache and small


def _word(gram: bytes) -> int:
    return int.from_bytes(gram, "little")


class CueScanner:
    """Locates lines that contain any of ``phrases`` inside large byte buffers."""

    def __init__(self, cues: Iterable[tuple[str, str]] = CUES) -> None:
        cues = tuple(cues)
        self.phrases = tuple(phrase for phrase, _ in cues)
        words: set[int] = set()
        for phrase, anchor in cues:
            if len(anchor) != 4 or anchor not in phrase:
                raise ValueError(f"anchor {anchor!r} must be 4 characters of {phrase!r}")
            for variant in {anchor, anchor.lower(), anchor.upper()}:
                words.add(_word(variant.encode()))
        self._words = np.array(sorted(words), dtype=np.uint32)
        self._table = np.zeros(1 << _BITS, dtype=np.bool_)
        self._table[(self._words * _HASH) >> _SHIFT] = True
        self._lower = tuple(p.lower().encode() for p in self.phrases)
        self._by_anchor: dict[bytes, tuple[bytes, ...]] = {}
        for phrase, anchor in cues:
            key = anchor.lower().encode()
            self._by_anchor[key] = (*self._by_anchor.get(key, ()), phrase.lower().encode())

    def anchor_positions(self, buf: bytes | bytearray | memoryview, lo: int, hi: int) -> list[int]:
        """Sorted offsets in ``buf[lo:hi]`` (absolute) where an anchor starts."""
        view = memoryview(buf)
        size = len(view)
        words_max = (min(_BLOCK, hi - lo) + 3) // 4 + 1
        hashed = np.empty(words_max, dtype=np.uint32)  # per call: one scanner serves several threads
        hit = np.empty(words_max, dtype=np.bool_)
        anchors = self._words
        found: list[np.ndarray] = []
        for start in range(lo, hi, _BLOCK):
            block = view[start : min(size, hi + 3, start + _BLOCK + 3)]  # 3 more: anchors straddle blocks
            for off in range(4):
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
                pos += 1  # the anchor of "\nE: " starts on the newline before its line
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
