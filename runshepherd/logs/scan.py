"""What the cue scan of a big log looks for, and the interface every scanner implementation offers.

A training log is mostly progress bars and metric prints; what a digest needs from its middle are error and
key-event lines. A scanner finds the lines of a large byte buffer that hold any cue phrase, compared
case-insensitively (ASCII), without a Python step per line. Two implementations share these semantics:
:mod:`~runshepherd.logs.scan_hyperscan` (Hyperscan, x86 only, several GB/s) and
:mod:`~runshepherd.logs.scan_numpy` (vectorised anchor lookups, everywhere); :mod:`~runshepherd.logs.scanners`
picks one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import ClassVar

# (natural spelling, anchor). The phrase is matched case-insensitively on a line. The anchor, used by the numpy
# scanner only, is a 5-character piece of the phrase that is rare in ordinary log lines ("ning", "poch", "mory"
# are not). The vocabulary mirrors the error collector's fatal/generic patterns and the event and stage rules.
# Cues shorter than an anchor ("E: " at a line start, "[E ", a bare "nan") are only seen in the head and tail
# windows; the middle has longer forms of them.
CUES: tuple[tuple[str, str], ...] = (
    # errors and fatal signals
    ("Traceback", "raceb"),
    ("Error", "Error"),
    ("Exception", "xcept"),
    ("FATAL", "FATAL"),
    ("CRITICAL", "RITIC"),
    ("Killed", "Kille"),
    ("SIGKILL", "GKILL"),
    ("signal 9", "nal 9"),
    ("oom-kill", "om-ki"),
    ("out of memory", "of me"),
    ("Cannot allocate", "ot al"),
    ("bad_alloc", "d_all"),
    ("Segmentation fault", "egmen"),
    ("SIGSEGV", "IGSEG"),
    ("SIGABRT", "GABRT"),
    ("core dumped", "dumpe"),
    ("Illegal instruction", "llega"),
    ("command not found", "t fou"),
    ("No such file", "such "),
    ("No space left", "o spa"),
    ("quota exceeded", "quota"),
    ("Permission denied", "denie"),
    ("NCCL WARN", "CL WA"),
    ("Watchdog caught", "chdog"),
    ("socketStartConnect", "tStar"),
    ("IBV_WC", "IBV_W"),
    ("device-side assert", "e-sid"),
    ("CUDA driver", "A dri"),
    ("CUDA-capable", "A-cap"),
    ("Unauthorized", "nauth"),
    ("Forbidden", "orbid"),
    ("AccessDenied", "sDeni"),
    ("ExpiredToken", "dToke"),
    ("InvalidAccessKeyId", "dAcce"),
    ("non-zero exit", "n-zer"),
    ("exited with", "xited"),
    ("exit code", "xit c"),
    ("exit status", "xit s"),
    ("panic:", "anic:"),
    ("Abort", "Abort"),
    ("assert", "asser"),
    ("timed out", "imed "),
    ("preempt", "reemp"),
    ("] E: ", "] E: "),
    (": NaN", ": NaN"),
    ("=NaN ", "=NaN "),
    ("=NaN,", "=NaN,"),
    (" NaN ", " NaN "),
    (" NaN,", " NaN,"),
    ("=NaN\n", "=NaN\n"),
    ("PRIVATE KEY", "IVATE"),
    # key events and stages
    ("checkpoint", "ckpoi"),
    ("Resuming", "esumi"),
    ("Resumed", "esume"),
    ("Restor", "Resto"),
    ("Download", "ownlo"),
    ("Upload", "Uploa"),
    ("Saving model", "aving"),
    ("saved model", "saved"),
    ("model saved", "saved"),
    ("Running training", "unnin"),
    ("Beginning training", "Begin"),
    ("Start training", "rt tr"),
    ("Starting training", "tarti"),
    ("Training started", "arted"),
    ("Training complete", "ng co"),
    ("Training finished", "finis"),
    ("Finished training", "nishe"),
    ("Training done", "ng do"),
    ("train_runtime", "n_run"),
    ("trainer.fit", "r.fit"),
    ("NCCL version", "CL ve"),
    ("ncclCommInitRank", "cclCo"),
    ("Init COMPLETE", "it CO"),
    ("Running evaluation", "unnin"),
    ("Evaluating", "aluat"),
    ("Validating", "lidat"),
    ("Validation:", "lidat"),
    ("pip install", "p ins"),
    ("Installing", "nstal"),
    ("Initializing", "alizi"),
    ("Loading model", "ng mo"),
    ("Building model", "Build"),
    ("Setting up", "ng up"),
    ("Loading dataset", "ng da"),
    ("Preparing data", "ng da"),
    ("Loading input data", "input"),
    ("Fetching data", "ng da"),
    ("completed successfully", "fully"),
    ("All done", "ll do"),
    ("has not started", "arted"),
    ("No application logs", "appli"),
    ("Total optimization steps", "imiza"),
    ("Num Epochs", "m Epo"),
)
CUE_PHRASES: tuple[str, ...] = tuple(phrase for phrase, _ in CUES)


class CueScanner(ABC):
    """Locates the lines of large byte buffers that contain any cue phrase, ignoring ASCII case.

    A line is its bytes up to and including its ``\\n``; a phrase that starts with ``\\n`` matches a line
    that starts with the rest of it (except on the first line of the scanned range, whose previous byte is
    not part of the range). Implementations differ in speed only, never in which lines they report.
    """

    name: ClassVar[str]

    def __init__(self, cues: Iterable[tuple[str, str]] = CUES) -> None:
        self.cues = tuple(cues)
        self.phrases = tuple(phrase for phrase, _ in self.cues)
        self._lower = tuple(phrase.lower().encode() for phrase in self.phrases)

    def matches(self, line: bytes) -> bool:
        """Whether ``line`` (bytes, possibly with the byte before it) holds a cue phrase in any case."""
        low = line.lower()
        return any(phrase in low for phrase in self._lower)

    @abstractmethod
    def cue_lines(self, buf: bytes | bytearray, lo: int, hi: int) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of each line in ``buf[lo:hi]`` holding a cue, in order; ``end`` is after its ``\\n``.

        ``lo`` must be a line start and ``hi`` a line end (just after a newline, or the buffer end).
        """
