"""The emitters' own documented log formats that show a run is healthy, one table per emitter kind.

Each entry names its emitter, what the line shows (``finished``: the run ended well; ``progress``: its work went on;
``summary``: the work done, printed as the loop ends, even when an exception ends it: progress in a log with no
error, never a sign the run went on past one; ``started``: it got past its start-up; ``benign``: an error-looking line
the emitter documents as harmless, after which the run goes on; ``failed``: the same emitters' records of a job that
ended badly, error evidence whatever level they are logged at), the pattern, one line quoted from the emitter's
documentation or source, and that address.
A unit test checks every example against its own pattern. The verdict layer (:mod:`runshepherd.diagnosis.positive`,
:mod:`runshepherd.diagnosis.errorblock`) compiles each kind once; adding a format is adding a row.

Positive evidence never outvotes a failure that comes after it: a completion line only excuses the errors printed
before it, and a unit completing (an epoch, a trial, an evaluation engine) is ``progress``, never ``finished``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from runshepherd.diagnosis.lazyregex import LazyRegex

Kind = Literal["finished", "progress", "summary", "started", "benign", "failed"]


@dataclass(frozen=True)
class Marker:
    emitter: str
    kind: Kind
    pattern: str
    example: str  # a line quoted from the emitter's documentation or source
    source: str  # where the example (and the format) is documented


def all_markers() -> tuple[Marker, ...]:
    from runshepherd.diagnosis.formats import frameworks, noise, schedulers, serving

    return (*schedulers.MARKERS, *frameworks.MARKERS, *serving.MARKERS, *noise.MARKERS)


def pattern_of(kind: Kind) -> str:
    """One alternation of every documented pattern of ``kind`` (each entry a group of its own)."""
    return "|".join(f"(?:{m.pattern})" for m in all_markers() if m.kind == kind)


def compiled(kind: Kind) -> re.Pattern[str]:
    return re.compile(pattern_of(kind), re.IGNORECASE)


def lazy(kind: Kind) -> LazyRegex:
    """:func:`compiled`, compiled on first use (for a pattern read through its alternatives)."""
    return LazyRegex(pattern_of(kind), re.IGNORECASE)
