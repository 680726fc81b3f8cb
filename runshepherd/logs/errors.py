"""The error block: tracebacks and fatal lines, verbatim (after redaction), with the root error first in rank.

Root error = the final exception line of the first traceback (chained exceptions included); without a
traceback, the first specific fatal line (OOM, Killed, segfault, command not found, missing file, NCCL…);
else the first generic ERROR/FATAL line. Benign warnings that look alarming (deprecations, "Some weights
of … were not initialized", fp16 gradient overflow, optional NCCL transports, the leaked-semaphore warning
a SIGKILL leaves behind) are never errors. Memory is bounded: two traceback blocks (first and latest),
the first and last fatal lines, a capped counter of exception types.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from dataclasses import dataclass, field

_BENIGN = re.compile(
    r"DeprecationWarning|FutureWarning|UserWarning|RuntimeWarning|ResourceWarning|warnings\.warn\("
    r"|Some weights of .* were not (?:initialized|used)|You should probably TRAIN"
    r"|Gradient overflow\. +Skipping step|Attempted loss scale|NET/IB : No device found|No device found"
    r"|resource_tracker: There appear to be|leaked semaphore|leaked shared_memory"
    r"|NCCL INFO|^\s*\[?W(?:ARN(?:ING)?)?[\] :]|^\s*WARNING\b|^\s*Warning\b|\bWARNING:"
)
# Specific failure signatures (rank 2), then generic error markers (rank 1).
_FATAL = re.compile(
    r"CUDA out of memory|OutOfMemoryError|\bout of memory\b|Cannot allocate memory|std::bad_alloc|\bMemoryError\b"
    r"|^\s*Killed\b|\d\s+Killed\b|\bKilled process\b|OOMKilled|oom-kill|\bSIGKILL\b|\bsignal 9\b"
    r"|Segmentation fault|SIGSEGV|core dumped|\bBus error\b|Illegal instruction|\bSIGABRT\b"
    r"|command not found|No such file or directory|ModuleNotFoundError|\bImportError\b|cannot import name"
    r"|FileNotFoundError|No space left on device|Disk quota exceeded|Permission denied"
    r"|NCCL error|ncclInternalError|ncclSystemError|ncclUnhandledCudaError|ncclRemoteError|ncclInvalidUsage"
    r"|NCCL WARN|Watchdog caught collective operation timeout|socketStartConnect|IBV_WC_RETRY_EXC_ERR"
    r"|CUDA error|device-side assert|CUDA driver version is insufficient|no CUDA-capable device"
    r"|\b401 Unauthorized\b|\b403 Forbidden\b|InvalidAccessKeyId|ExpiredToken|AccessDenied"
    r"|returned non-zero exit status|exited with (?:code|status) [1-9]|ChildFailedError"
    r"|^(?:\S+ -m )?\S+: error: (?:unrecognized arguments|the following arguments are required|argument )"
    r"|^\s*(?:[A-Za-z_]\w*\.)*[A-Z]\w*[a-z]\w*(?:Error|Exception)(?::|$)"
)
_GENERIC = re.compile(
    r"\bFATAL\b|\bFatal\b|\bCRITICAL\b|\bERROR\b|^\s*error:|^\s*fatal:|^E: |^\s*\[E |\bpanic:|\bError: |\bAbort"
)
_CUES = (
    "rror",
    "RROR",
    "xception",
    "ATAL",
    "atal",
    "Killed",
    "kill",
    "KILL",
    "fault",
    "not found",
    "No such",
    "memory",
    "NCCL",
    "nccl",
    "CUDA",
    "dumped",
    "denied",
    "Unauthorized",
    "Forbidden",
    "exit",
    "SIGSEGV",
    "SIGABRT",
    "ITICAL",
    "Illegal",
    "panic",
    "cannot import",
    "No space",
    "quota",
    "E: ",
    "[E ",
    "Abort",
    "AccessDenied",
    "ExpiredToken",
    "InvalidAccessKeyId",
    "IBV_",
    "socketStartConnect",
    "bad_alloc",
)
_TB_START = "Traceback (most recent call last)"
_CHAIN = ("During handling of the above exception", "The above exception was the direct cause")
# An exception line: a (dotted) class name with a lowercase letter (so "INFO:" is not one), or a lowercase
# one that says what it is (socket.gaierror, socket.timeout).
_EXC_LINE = re.compile(
    r"^(?:[A-Za-z_]\w*\.)*([A-Z_]\w*[a-z]\w*|[a-z_]\w*(?:error|exception|timeout|exit|interrupt))(?::\s|:$|$)"
)

_TB_HEAD = 8
_TB_TAIL = 12
_MAX_STRAY = 40  # un-indented non-exception lines tolerated inside a traceback (interleaved output)
_KEEP_FATAL = 25
_MAX_EXC_KINDS = 20


@dataclass
class Block:
    """A bounded traceback: its first lines, its last lines, its exception lines, how much was skipped."""

    start: int
    head: list[str] = field(default_factory=list)
    tail: deque[str] = field(default_factory=lambda: deque(maxlen=_TB_TAIL))
    omitted: int = 0
    exceptions: list[str] = field(default_factory=list)
    stray: int = 0

    def add(self, line: str) -> None:
        if len(self.head) < _TB_HEAD:
            self.head.append(line)
            return
        if len(self.tail) == self.tail.maxlen:
            self.omitted += 1
        self.tail.append(line)

    def add_exception(self, line: str) -> None:
        self.add(line)
        if len(self.exceptions) < 4:
            self.exceptions.append(line)
        else:
            self.exceptions[-1] = line  # keep the first three and the latest

    @property
    def final_exception(self) -> str | None:
        return self.exceptions[-1] if self.exceptions else None

    def lines(self) -> list[str]:
        """Head, an omission marker, any exception line that fell in the gap, tail; exceptions always kept."""
        out = list(self.head)
        tail = list(self.tail)
        if self.omitted:
            out.append(f"... [{self.omitted} traceback lines omitted] ...")
            shown = set(out) | set(tail)
            out.extend(e for e in self.exceptions if e not in shown)
        return out + tail


@dataclass(frozen=True)
class FatalLine:
    lineno: int
    text: str
    rank: int


class ErrorCollector:
    """Feeds on redacted message text, one line at a time."""

    def __init__(self) -> None:
        self.first_block: Block | None = None
        self.last_block: Block | None = None
        self._open: Block | None = None
        self._state = "none"  # none | frames | after_exception | expect_traceback
        self._after = 0
        self.first_fatal: list[FatalLine] = []
        self.last_fatal: deque[FatalLine] = deque(maxlen=_KEEP_FATAL)
        self.exception_counts: Counter[str] = Counter()
        self.tracebacks = 0

    # ------------------------------------------------------------------ observe
    @property
    def in_traceback(self) -> bool:
        """True while lines must keep coming in order (an open traceback)."""
        return self._state != "none"

    def observe(self, lineno: int, text: str, candidate: bool = True) -> bool:
        """Returns True when the line is part of an error (traceback or fatal line).

        ``candidate=False`` (the caller's cue triage found nothing) only advances an open traceback.
        """
        if self._state != "none" and self._continue_traceback(text):
            return True
        if not candidate:
            return False
        if text.lstrip().startswith(_TB_START):
            self._start_block(lineno, text)
            return True
        if not any(map(text.__contains__, _CUES)):
            return False
        if _BENIGN.search(text):
            return False
        if _FATAL.search(text):
            self._fatal(FatalLine(lineno, text, 2))
            return True
        if _GENERIC.search(text):
            self._fatal(FatalLine(lineno, text, 1))
            return True
        return False

    def _start_block(self, lineno: int, text: str) -> None:
        if self._open is not None and self._state == "expect_traceback":
            self._open.add(text)  # a chained traceback continues the same block
            self._state = "frames"
            return
        block = Block(lineno)
        block.add(text)
        self._open = block
        self._state = "frames"
        self.tracebacks += 1
        if self.first_block is None:
            self.first_block = block
        else:
            self.last_block = block

    def _continue_traceback(self, text: str) -> bool:
        block = self._open
        assert block is not None
        if self._state == "frames":
            if not text.strip() or text[0] in " \t" or text.startswith(_TB_START):
                block.add(text)
                return True
            m = _EXC_LINE.match(text)
            if m:
                block.add_exception(text)
                name = m.group(1)
                if name in self.exception_counts or len(self.exception_counts) < _MAX_EXC_KINDS:
                    self.exception_counts[name] += 1
                self._state, self._after = "after_exception", 0
                return True
            block.stray += 1
            if block.stray > _MAX_STRAY:
                self._close()
            return False  # interleaved output from elsewhere; judged on its own
        if text.startswith(_CHAIN):
            block.add(text)
            self._state = "expect_traceback"
            return True
        if not text.strip():
            self._after += 1
            if self._after > 3:
                self._close()
            return False
        if self._state == "expect_traceback" and text.startswith(_TB_START):
            return False  # handled by the caller as a chained start
        self._close()
        return False

    def _close(self) -> None:
        self._open = None
        self._state = "none"

    def _fatal(self, line: FatalLine) -> None:
        if len(self.first_fatal) < _KEEP_FATAL:
            self.first_fatal.append(line)
        else:
            self.last_fatal.append(line)

    # ------------------------------------------------------------------ results
    def root_error(self) -> str | None:
        if self.first_block is not None and self.first_block.final_exception:
            return self.first_block.final_exception.strip()
        for rank in (2, 1):
            for line in self.first_fatal:
                if line.rank == rank:
                    return line.text.strip()
        if self.first_block is not None:
            return self.first_block.head[0].strip()  # a traceback cut before its exception line
        return None

    def error_lines(self, limit: int) -> list[str]:
        """At most ``limit`` verbatim lines in log order, chosen root-first when they do not all fit."""
        candidates: list[tuple[int, int, list[str]]] = []  # (priority, lineno, lines)
        if self.first_block is not None:
            candidates.append((0, self.first_block.start, self.first_block.lines()))
        fatal = sorted({f.lineno: f for f in [*self.first_fatal, *self.last_fatal]}.values(), key=lambda f: f.lineno)
        seen: set[str] = set()
        for f in fatal:
            if f.text in seen:
                continue
            seen.add(f.text)
            candidates.append((1 if f.rank == 2 else 3, f.lineno, [f.text]))
        if self.last_block is not None:
            lines = self.last_block.lines()
            if len(lines) > 10:
                lines = [*lines[:3], f"... [{len(lines) - 8} traceback lines omitted] ...", *lines[-5:]]
            candidates.append((2, self.last_block.start, lines))
        chosen: list[tuple[int, list[str]]] = []
        budget = limit
        for priority, lineno, lines in sorted(candidates, key=lambda c: (c[0], c[1])):
            if len(lines) > budget:
                if priority == 0 and budget > 0:  # trim a huge root block but keep its exception line
                    lines = [*lines[: budget - 1], lines[-1]]
                else:
                    continue
            chosen.append((lineno, lines))
            budget -= len(lines)
            if budget <= 0:
                break
        out: list[str] = []
        for _, lines in sorted(chosen, key=lambda c: c[0]):
            out.extend(lines)
        return out[:limit]
