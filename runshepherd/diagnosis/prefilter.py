"""A literal prefilter for regexes: skip ``search`` on lines that cannot match.

Most of the diagnosis time on long logs went into running every case-insensitive pattern on every line, while
nearly every line matches none. Most patterns contain literal text that any match must include (``CUDA out of
memory``; for ``a|b`` one of each branch's literals). A plain substring test (a fast C search) on the line,
lower-cased once, rules most lines out before the regex engine runs.

Soundness: a gate only ever skips a regex that could not have matched. Gates are built from ASCII literals and
from non-ASCII characters that have no case (CJK, digits of other scripts: ``re`` compares those exactly even under
IGNORECASE, and ``str.lower`` leaves them as they are), so ``设备上没有空间`` gates a pattern like any English phrase.
Case-insensitive ``re`` also equates four non-ASCII letters with ASCII ones where ``str.lower`` does not
(``İ``/``ı`` with ``i``, ``ſ`` with ``s``, Kelvin ``K`` with ``k``), so a non-ASCII line is mapped through
``_TO_ASCII`` before lowering (a unit test checks that table against ``re`` over all of Unicode). Patterns with
no extractable literal are never gated. :func:`ungated` turns the prefilter off (reference runs in tests).
"""

from __future__ import annotations

import _sre as _sre_c  # the C engine: its own notion of a cased character
import re
import re._parser as _sre  # Python >= 3.11 (the project's floor)
from bisect import bisect_right
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

_iscased = _sre_c.unicode_iscased  # what re's compiler asks before comparing a literal case-insensitively
_REPEATS = {_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", _sre.MAX_REPEAT)}
_ATOMIC = getattr(_sre, "ATOMIC_GROUP", None)

_enabled = True
MAX_EXPANSION = 32  # most strings a literal piece may multiply out to
MAX_CLAUSES = 3  # a line failing the first clause costs one test; later clauses only refine the rare passes


def prefilter_enabled() -> bool:
    return _enabled


@contextmanager
def ungated() -> Iterator[None]:
    """Run every regex on every line inside this block (the reference the gated results must equal)."""
    global _enabled
    before, _enabled = _enabled, False
    try:
        yield
    finally:
        _enabled = before


@dataclass(frozen=True)
class Gate:
    """Clauses of literals: any match contains at least one literal of every clause (most selective clause first).

    ``icase`` literals are lower-case and tested on :func:`fold` of the text.
    """

    clauses: tuple[tuple[str, ...], ...]
    icase: bool

    def admits(self, text: str, folded: str | None = None) -> bool:
        """False only when the regex cannot match ``text``; ``folded`` is :func:`fold` of ``text`` if known."""
        if self.icase:
            text = fold(text) if folded is None else folded
        for clause in self.clauses:
            for lit in clause:
                if lit in text:
                    break
            else:
                return False
        return True


@dataclass(frozen=True)
class AnyGate:
    """The union of several gates' first clauses: when it fails, none of those regexes can match the text.

    A rule with many patterns tests this once per line instead of one gate per pattern, which is what long logs
    (almost every line matching nothing) spend their time on.
    """

    folded_literals: tuple[str, ...]
    exact_literals: tuple[str, ...]

    @classmethod
    def of(cls, gates: list[Gate | None]) -> AnyGate | None:
        """None when some regex has no gate (then every line must be searched)."""
        folded: set[str] = set()
        exact: set[str] = set()
        for g in gates:
            if g is None:
                return None
            (folded if g.icase else exact).update(g.clauses[0])
        return cls(_minimal(folded), _minimal(exact))

    def lines_in(
        self, folded: str, text: str, starts: list[int], seen: dict[tuple[bool, str], list[int]] | None = None
    ) -> list[int]:
        """Indices of the lines this gate admits, in order, given the lines joined (``folded`` and ``text``, one
        separator character between lines) and where each line starts in them.

        One C substring search per occurrence instead of one Python test per line and literal: a long log's lines
        almost never hold a literal. A line holding a literal is always found (the search resumes at the start of
        the line after each hit); a literal straddling two lines can only add a line, never lose one. ``seen``
        keeps each literal's lines for the next gate asking about the same joined text (families share literals).
        """
        hit: set[int] = set()
        last = len(starts) - 1
        for exact, lits, joined in ((False, self.folded_literals, folded), (True, self.exact_literals, text)):
            for lit in lits:
                known = seen.get((exact, lit)) if seen is not None else None
                if known is None:
                    known = []
                    pos = joined.find(lit)
                    while pos >= 0:
                        k = bisect_right(starts, pos) - 1
                        known.append(k)
                        if k >= last:
                            break
                        pos = joined.find(lit, starts[k + 1])
                    if seen is not None:
                        seen[(exact, lit)] = known
                hit.update(known)
        return sorted(hit)

    def admits(self, text: str, folded: str) -> bool:
        for lit in self.folded_literals:
            if lit in folded:
                return True
        for lit in self.exact_literals:
            if lit in text:
                return True
        return False


def _minimal(lits: set[str]) -> tuple[str, ...]:
    """Drop literals containing a shorter one (if the long one occurs, so does the short); shortest first."""
    keep: list[str] = []
    for lit in sorted(lits, key=lambda x: (len(x), x)):
        if not any(k in lit for k in keep):
            keep.append(lit)
    return tuple(keep)


# Non-ASCII characters that case-insensitive ``re`` matches against an ASCII letter, and that letter.
_TO_ASCII = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}


def fold(text: str) -> str:
    """The line as case-insensitive gates see it: lowered, with ``re``'s extra ASCII equivalents mapped first."""
    if text.isascii():
        return text.lower()
    for odd, plain in _TO_ASCII.items():  # before lower(): "İ".lower() is two characters
        if odd in text:
            text = text.replace(odd, plain)
    return text.lower()


@dataclass(frozen=True)
class Gated:
    """A compiled regex with its gate: ``search``/``finditer`` skip the regex when the gate rules the text out."""

    regex: re.Pattern[str]
    gate: Gate | None

    @classmethod
    def of(cls, regex: re.Pattern[str]) -> Gated:
        return cls(regex, gate_for(regex))

    def admits(self, text: str, folded: str | None = None) -> bool:
        return not _enabled or self.gate is None or self.gate.admits(text, folded)

    def search(self, text: str, folded: str | None = None) -> re.Match[str] | None:
        return self.regex.search(text) if self.admits(text, folded) else None

    def finditer(self, text: str, folded: str | None = None) -> Iterator[re.Match[str]]:
        return self.regex.finditer(text) if self.admits(text, folded) else iter(())


@dataclass(frozen=True)
class Alternatives:
    """A regex used only as a yes/no test, split into its top-level alternatives, each with its own gate.

    ``A|B|C`` finds a match exactly when one of ``A``, ``B``, ``C`` does, so a line that passes the whole regex's gate
    (any alternative's literal) runs only the alternatives whose own gates admit it, not the whole alternation (one
    benign-notice alternative, ``loss scale\\b.*(?:to|->)``, admits every Megatron step line, and the whole 50-way
    alternation costs ~0.1 ms on such a line). ``parts`` is None when the regex is not a plain top-level alternation
    (then the whole regex runs, as before).
    """

    whole: Gated
    parts: tuple[Gated, ...] | None

    @classmethod
    def of(cls, regex: re.Pattern[str]) -> Alternatives:
        return cls(Gated.of(regex), _split_alternatives(regex))

    def found(self, text: str, folded: str | None = None) -> bool:
        if not _enabled or self.parts is None:
            return self.whole.regex.search(text) is not None
        if not self.whole.admits(text, folded):
            return False
        return any(p.search(text, folded) is not None for p in self.parts)


def _split_alternatives(regex: re.Pattern[str]) -> tuple[Gated, ...] | None:
    """The top-level alternatives of ``regex`` compiled alone (same flags), or None when that is not certain to mean
    the same: verbose patterns, numbered group references (a part numbers its groups afresh), conditionals, or a parse
    that is not one top-level branch of as many parts. A named reference stays: a part compiles only when it defines
    the group it names, and then it is the same group (``(?P<n>\\d+) of (?P=n) steps``)."""
    pattern = regex.pattern
    if not isinstance(pattern, str) or regex.flags & re.VERBOSE or re.search(r"\\[1-9]|\(\?\(", pattern):
        return None
    parts: list[str] = []
    depth, in_class, start, i = 0, False, 0, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            i += 1
            if pattern[i : i + 1] == "^":
                i += 1
            if pattern[i : i + 1] == "]":  # a ']' first in a class is a literal
                i += 1
            continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    try:
        parsed = list(_sre.parse(pattern, regex.flags))
        compiled = [re.compile(p, regex.flags) for p in parts]
    except (re.error, TypeError, ValueError):
        return None
    if len(parts) < 2 or len(parsed) != 1 or parsed[0][0] is not _sre.BRANCH or len(parsed[0][1][1]) != len(parts):
        return None
    return tuple(Gated.of(p) for p in compiled)


def gate_for(regex: re.Pattern[str]) -> Gate | None:
    """The literal gate of a compiled regex, or None when no literal is certain to occur in a match."""
    try:
        parsed = _sre.parse(regex.pattern, regex.flags)
    except (re.error, TypeError):  # bytes patterns and anything the parser refuses stay ungated
        return None
    cands = sorted(_candidates(list(parsed)), key=_selectivity, reverse=True)[:MAX_CLAUSES]
    if not cands:
        return None
    icase = bool(regex.flags & re.IGNORECASE)
    clauses = tuple(
        tuple(sorted({lit.lower() if icase else lit for lit in c}, key=lambda s: (-len(s), s))) for c in cands
    )
    return Gate(clauses, icase)


def _candidates(seq: list[Any]) -> list[frozenset[str]]:
    """Sets of ASCII literals, each set such that every match of ``seq`` contains one of its members.

    Adjacent literal pieces are concatenated, small alternatives multiplied out (``W(?:ARN|arning)`` gives
    ``WARN``/``Warning``, not ``ARN``/``arning``), because a longer literal passes fewer lines.
    """
    out: list[frozenset[str]] = []
    run: set[str] = {""}

    def flush() -> None:
        if "" not in run:
            out.append(frozenset(run))
        run.clear()
        run.add("")

    for op, av in seq:
        exact = _exact_item(op, av)
        if exact is not None:
            product = {a + b for a in run for b in exact}
            if len(product) > MAX_EXPANSION:
                flush()
                product = exact
            run.clear()
            run.update(product)
            continue
        flush()
        if op is _sre.SUBPATTERN:
            _group, add_flags, del_flags, sub = av
            if not add_flags and not del_flags:  # a local (?i:...) would change how its literals compare
                out.extend(_candidates(list(sub)))
        elif op in _REPEATS:
            low, _high, item = av
            if low >= 1:
                out.extend(_candidates(list(item)))
        elif _ATOMIC is not None and op is _ATOMIC:
            out.extend(_candidates(list(av)))
        elif op is _sre.BRANCH:
            union: set[str] = set()
            for branch in av[1]:
                best = _best(_candidates(list(branch)))
                if best is None:
                    break
                union |= best
            else:
                out.append(frozenset(union))
    flush()
    return out


def _exact(seq: list[Any]) -> set[str] | None:
    """Every string ``seq`` can match, when that is a small set of ASCII strings; else None."""
    acc = {""}
    for op, av in seq:
        item = _exact_item(op, av)
        if item is None:
            return None
        acc = {a + b for a in acc for b in item}
        if len(acc) > MAX_EXPANSION:
            return None
    return acc


def _exact_item(op: Any, av: Any) -> set[str] | None:
    if op is _sre.LITERAL:
        return {chr(av)} if av < 128 or not _iscased(av) else None
    if op is _sre.SUBPATTERN:
        _group, add_flags, del_flags, sub = av
        return _exact(list(sub)) if not add_flags and not del_flags else None
    if op is _sre.BRANCH:
        union: set[str] = set()
        for branch in av[1]:
            alt = _exact(list(branch))
            if alt is None:
                return None
            union |= alt
        return union if len(union) <= MAX_EXPANSION else None
    if op in _REPEATS:
        low, high, item = av
        if high > 1:
            return None
        once = _exact(list(item))
        if once is None:
            return None
        return once | {""} if low == 0 else once
    return None


def _selectivity(s: frozenset[str]) -> tuple[int, int]:
    """Longer shortest literal first, then fewer literals: a heuristic for how rarely a clause passes."""
    return min(5, *(len(x) for x in s)), -len(s)


def _best(cands: list[frozenset[str]]) -> frozenset[str] | None:
    """The most selective set (any one is a sound gate; a branch contributes one set per alternative)."""
    return max(cands, key=_selectivity) if cands else None
