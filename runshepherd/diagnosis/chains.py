"""Which exception of a Python chain of tracebacks names the failure.

Python prints a chain of exceptions oldest first, each link introduced by one of two sentences (PEP 3134; the
``traceback`` module, https://docs.python.org/3/library/traceback.html, and the tutorial's "Exception chaining",
https://docs.python.org/3/tutorial/errors.html#exception-chaining):

- "The above exception was the direct cause of the following exception:" (``raise new from exc``): the new
  exception wraps the old one on purpose, usually in a generic type, so the first one names the cause;
- "During handling of the above exception, another exception occurred:" (an exception raised inside ``except``):
  the first one was being handled; the last one is what stopped the program.

Measured on TRAIN (35 logs with a chain): for "direct cause" the first traceback carries the true family in 13 of
16 and the last one alone in 3 (read right already where the last is the only one a family reads); for "during
handling" the handled traceback carries it in 15 of 19 — the handler failing generically (a bare ``RuntimeError``,
a re-raise) after the real error — and the last one alone in 2 (neither in 2), both where the handler's own
exception is read by a family of its own (a 404 retried, then W&B's ``CommError: Permission denied``; a generic
error, then ``No space left on device``). So the rule is narrow: after "during handling", when a family other than
user_code_error reads the handler's traceback and not the handled one, the handled traceback's other readings are
history (the program caught them) and yield to it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from runshepherd.diagnosis.errorblock import _TB_START, DURING_HANDLING, exception_type

_DURING = re.compile(DURING_HANDLING + ", another exception occurred")
# how far a traceback reaches from its chain marker: deep stacks (a trainer's loop, a tracker's retry layers) print
# 40-80 frames of two lines each
_SPAN = 200
YIELD = 0.1  # below the handler's reading by more than the engine's band: the handler's family is chosen


def handled_spans(lines: list[Any]) -> list[tuple[int, int, int]]:
    """For each "during handling" marker: (first line of the handled traceback, the marker, the exception line
    that closes the handler's traceback). Bounded: ``_SPAN`` lines each way, markers only where the text has one;
    without a ``Traceback`` header above the marker, the handled traceback is its exception line alone."""
    out: list[tuple[int, int, int]] = []
    for m, ln in enumerate(lines):
        if "During handling" not in ln.text or not _DURING.search(ln.text):
            continue
        start = m
        while start > 0 and m - start < _SPAN and not _TB_START.search(lines[start].text):
            start -= 1
        if not _TB_START.search(lines[start].text):
            # a paste that lost the header: only the handled exception line and what follows it up to the marker
            start = next((k for k in range(m - 1, start - 1, -1) if exception_type(lines[k].text)), m)
        end = m + 1
        while end < len(lines) - 1 and end - m < _SPAN and exception_type(lines[end].text) is None:
            end += 1
        out.append((start, m, end))
    return out


def yield_handled(signals: list[Any], lines: list[Any]) -> list[Any]:
    """After "during handling", the handled traceback's readings yield to a family that reads only the handler's
    (see the module docstring); a handler that fails generically (user_code_error or nothing) changes nothing."""
    spans = handled_spans(lines)
    if not spans:
        return signals
    out = list(signals)
    for start, mark, end in spans:
        handled = {s.label for s in out if not s.secondary and start <= s.order < mark}
        handler = [
            s
            for s in out
            if not s.secondary
            and mark < s.order <= end
            and s.label != "user_code_error"
            and s.label not in handled
            and s.strength >= 0.6
        ]
        if not handler:
            continue
        best = max(s.strength for s in handler)
        out = [
            replace(s, strength=min(s.strength, best - YIELD)) if start <= s.order < mark and not s.secondary else s
            for s in out
        ]
    return out
