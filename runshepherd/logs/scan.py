"""Find the few interesting lines of a big log without a Python step per line.

A training log is mostly progress bars and metric prints; what a digest needs from its middle are error and
key-event lines. Testing ~90 cue phrases per line in Python runs at a few MB/s, and one C-level
``bytes.find`` per phrase is still ~90 passes. Instead each phrase is given one *anchor*: its rarest 4-byte
substring, in its natural, lower and upper case. A buffer is viewed as 32-bit words at the four byte offsets
and every word is looked up in a hashed bit table of anchors (numpy, a handful of vectorised passes whatever
the number of phrases); exact anchor matches are kept, and only their lines are checked against the phrases
with a case-insensitive regex. Lines without a cue are never decoded.
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

import numpy as np

# Natural spelling of each cue (case-insensitive when verified). Errors first, then key events and stages;
# the vocabulary mirrors the error collector's fatal/generic patterns and the event and stage rules.
CUE_PHRASES: tuple[str, ...] = (
    # errors and fatal signals
    "Traceback", "Error", "Exception", "FATAL", "CRITICAL", "Killed", "SIGKILL", "signal 9", "oom-kill",
    "out of memory", "Cannot allocate", "bad_alloc", "Segmentation fault", "SIGSEGV", "SIGABRT", "core dumped",
    "Illegal instruction", "command not found", "No such file", "No space left", "quota exceeded",
    "Permission denied", "NCCL WARN", "Watchdog caught", "socketStartConnect", "IBV_WC", "device-side assert",
    "CUDA driver", "CUDA-capable", "Unauthorized", "Forbidden", "AccessDenied", "ExpiredToken",
    "InvalidAccessKeyId", "non-zero exit", "exited with", "exit code", "exit status", "panic:", "Abort",
    "assert", "timed out", "preempt", "] E: ", "\nE: ", " [E ", "\n[E ", " NaN", "=NaN", ":NaN",
    "PRIVATE KEY",
    # key events
    "checkpoint", "Resum", "Restor", "Download", "Upload", "Saving model", "saved model", "model saved",
    "Running training", "Beginning training", "Start training", "Starting training", "Training started",
    "Training complete", "Training finished", "Finished training", "Training done", "train_runtime",
    "trainer.fit", "NCCL version", "ncclCommInitRank", "Init COMPLETE", "Running evaluation", "Evaluating",
    "Validating", "Validation:", "pip install", "Installing", "Initializing", "Loading model", "Building model",
    "Setting up", "Loading dataset", "Preparing data", "Loading input data", "Fetching data",
    "completed successfully", "All done", "has not started", "No application logs", "Total optimization steps",
    "Num Epochs",
)

# Rough byte commonness in logs (lower = rarer), to pick each phrase's most selective anchor.
_COMMON = {c: i for i, c in enumerate("zqjxkvbpygfwmucldrhsnioate")}
_HASH = np.uint32(2654435761)  # Knuth's multiplicative hash
_BITS = 20
_SHIFT = np.uint32(32 - _BITS)
_BLOCK = 1 << 20  # numpy works on 1 MiB blocks: its temporaries stay in cache and small


def _commonness(gram: str) -> int:
    score = 0
    for ch in gram.lower():
        if ch.isalpha():
            score += _COMMON.get(ch, 0)
        elif ch in " \n":
            score += 30
        elif ch.isdigit():
            score += 20
        else:
            score += 8
    return score


def anchor_of(phrase: str) -> str:
    """The phrase's rarest 4-character substring (phrases are at least 4 characters)."""
    if len(phrase) < 4:
        raise ValueError(f"cue phrase {phrase!r} is shorter than 4 characters")
    grams = [phrase[i : i + 4] for i in range(len(phrase) - 3)]
    return min(grams, key=_commonness)


def _word(gram: bytes) -> int:
    return int.from_bytes(gram, "little")


class CueScanner:
    """Locates lines that contain any of ``phrases`` inside large byte buffers."""

    def __init__(self, phrases: Iterable[str] = CUE_PHRASES) -> None:
        self.phrases = tuple(phrases)
        words: set[int] = set()
        for phrase in self.phrases:
            anchor = anchor_of(phrase)
            for variant in {anchor, anchor.lower(), anchor.upper()}:
                words.add(_word(variant.encode()))
        self._words = np.array(sorted(words), dtype=np.uint32)
        self._table = np.zeros(1 << _BITS, dtype=np.bool_)
        self._table[(self._words * _HASH) >> _SHIFT] = True
        self._verify = re.compile(b"|".join(re.escape(p.encode()) for p in self.phrases), re.IGNORECASE)

    def anchor_positions(self, buf: bytes | bytearray | memoryview, lo: int, hi: int) -> list[int]:
        """Sorted offsets in ``buf[lo:hi]`` (absolute) where an anchor starts."""
        view = memoryview(buf)
        found: list[np.ndarray] = []
        for start in range(lo, hi, _BLOCK):
            end = min(hi, start + _BLOCK + 3)  # 3 bytes of overlap: an anchor may straddle two blocks
            block = view[start:end]
            for off in range(4):
                count = (len(block) - off) // 4
                if count <= 0:
                    continue
                words = np.frombuffer(block, dtype="<u4", count=count, offset=off)
                hashed = words * _HASH
                hashed >>= _SHIFT
                maybe = np.flatnonzero(self._table[hashed])
                if maybe.size:
                    exact = maybe[np.isin(words[maybe], self._words)]
                    if exact.size:
                        found.append(exact * 4 + (start + off))
        if not found:
            return []
        positions = np.unique(np.concatenate(found))
        return [int(p) for p in positions if p < hi]

    def matches(self, line: bytes) -> bool:
        """Exact check of one line (the anchor only says where to look)."""
        return self._verify.search(line) is not None

    def cue_lines(self, buf: bytes | bytearray, lo: int, hi: int) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of each line in ``buf[lo:hi]`` holding a cue, in order; ``end`` is after its ``\\n``.

        ``lo`` must be a line start and ``hi`` a line end (just after a newline, or the buffer end).
        """
        cursor = lo
        for pos in self.anchor_positions(buf, lo, hi):
            if buf[pos : pos + 1] == b"\n":
                pos += 1  # the anchor of "\nE: " starts on the newline before its line
            if pos < cursor or pos >= hi:
                continue  # another anchor on a line already taken
            start = max(cursor, buf.rfind(b"\n", lo, pos) + 1)
            nl = buf.find(b"\n", pos, hi)
            end = hi if nl == -1 else nl + 1
            # One byte before the line is included so "\nE: " can match a line that starts with "E: ".
            if self.matches(bytes(buf[max(lo, start - 1) : end])):
                yield start, end
                cursor = end


DEFAULT_SCANNER = CueScanner()
