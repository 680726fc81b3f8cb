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
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import ahocorasick

from runshepherd.diagnosis import gatetable
from runshepherd.diagnosis.lazyregex import LazyRegex

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


_UNBUILT = object()
MANY = 8  # literals from which one Aho-Corasick pass over a text beats a loop of substring tests (~8 on 40-450 chars)


class AnyOf:
    """Whether a text holds at least one of some literals: a substring test per literal for a few, one pass of an
    Aho-Corasick automaton over the text for :data:`MANY` or more (it stops at the first literal found; a gate of 32
    literals on a 450-character line took ~7 us as a loop, ~2 us as one pass). The automaton is built on first use,
    so a gate no log asks costs nothing."""

    __slots__ = ("literals", "_auto")

    def __init__(self, literals: tuple[str, ...]) -> None:
        self.literals = literals
        self._auto: Any = _UNBUILT if len(literals) >= MANY else None

    def __call__(self, text: str) -> bool:
        auto = self._auto
        if auto is None:
            for lit in self.literals:
                if lit in text:
                    return True
            return False
        if auto is _UNBUILT:
            # built whole before it is shared: a thread asking at the same time builds its own or uses a finished one
            auto = ahocorasick.Automaton()
            for lit in self.literals:
                auto.add_word(lit, None)
            auto.make_automaton()
            self._auto = auto
        return next(auto.iter(text), None) is not None


@dataclass(frozen=True)
class Gate:
    """Clauses of literals: any match contains at least one literal of every clause (most selective clause first).

    ``icase`` literals are lower-case and tested on :func:`fold` of the text. A first clause whose literals are all
    :data:`HELD_MIN` characters or longer is answered by :class:`_Held` (one pass per text for every such gate).
    """

    clauses: tuple[tuple[str, ...], ...]
    icase: bool
    tests: tuple[AnyOf, ...] = field(init=False, compare=False, repr=False)  # the clauses not answered by _Held
    first: frozenset[str] | None = field(init=False, compare=False, repr=False)  # the first clause, when held
    generation: int = field(init=False, compare=False, repr=False)  # of its kind's _Held once ``first`` is in it

    def __post_init__(self) -> None:
        held = all(len(lit) >= HELD_MIN for lit in self.clauses[0])
        first = frozenset(self.clauses[0]) if held else None
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "generation", _HELD[self.icase].add(first) if first is not None else 0)
        object.__setattr__(self, "tests", tuple(AnyOf(c) for c in self.clauses[1 if held else 0 :]))

    def admits(self, text: str, folded: str | None = None) -> bool:
        """False only when the regex cannot match ``text``; ``folded`` is :func:`fold` of ``text`` if known."""
        if self.icase:
            text = fold(text) if folded is None else folded
        if self.first is not None and self.first.isdisjoint(_HELD[self.icase].of(text, self.generation)):
            return False
        for test in self.tests:
            if not test(text):
                return False
        return True


HELD_MIN = 3  # shorter literals (``:``, ``/``, ``lr``) occur so often that finding each occurrence costs more
HELD_TEXTS = 2_000_000  # characters of text whose literals are kept, at most


class _Dictionary:
    """A growing set of literals and one Aho-Corasick automaton over them (each found as itself),
    built on first use and again only when literals were added since (``generation``). It is published whole: threads
    asking at once (a sweep diagnoses its points' logs in threads of one process) never get one half built."""

    def __init__(self) -> None:
        self.known: set[str] = set()
        self.generation = 0
        self.built: tuple[int, Any] = (-1, None)  # (generation, its automaton or None when empty)

    def add(self, literals: Iterable[str]) -> int:
        """Record literals; the generation whose automaton holds them all."""
        if not self.known.issuperset(literals):
            self.known.update(literals)
            self.generation += 1
        return self.generation

    def automaton(self) -> tuple[int, Any]:
        """The current generation and its automaton (None when no literal is known)."""
        built, auto = self.built
        if built != self.generation:
            built, auto = self.generation, None
            literals = list(self.known)  # one C-level copy: a gate made meanwhile cannot change it under the loop
            if literals:
                auto = ahocorasick.Automaton()
                for lit in literals:
                    auto.add_word(lit, lit)
                auto.make_automaton()
            self.built = (built, auto)
        return built, auto


class _Held:
    """The literals of every gate's first clause (of one kind: folded or exact) that a text holds: one Aho-Corasick
    pass over the text finds them all, and the answer is kept, so the ~20 gates that ask about each line of a log
    (prepare, error_looking, mark_counters, the progress and finish tests, the rules' own) cost one pass and a set
    test each, where each was a pass or a loop of its own. Kept for the texts asked last, up to :data:`HELD_TEXTS`
    characters (then forgotten at once); a gate made after a text was read has the text read again."""

    def __init__(self) -> None:
        self.literals = _Dictionary()
        self.seen: dict[str, tuple[int, frozenset[str]]] = {}
        self.size = 0

    def add(self, literals: frozenset[str]) -> int:
        """Record a gate's first clause; the generation that holds it."""
        return self.literals.add(literals)

    def of(self, text: str, generation: int) -> frozenset[str]:
        """The known literals in ``text`` (all gates up to ``generation`` at least)."""
        kept = self.seen.get(text)
        if kept is not None and kept[0] >= generation:
            return kept[1]
        built, auto = self.literals.automaton()
        held = frozenset(lit for _end, lit in auto.iter(text)) if auto is not None else frozenset()
        if self.size + len(text) > HELD_TEXTS:
            self.seen.clear()
            self.size = 0
        self.seen[text] = (built, held)
        self.size += len(text)
        return held


_HELD = {True: _Held(), False: _Held()}  # folded (case-insensitive gates), exact


@dataclass(frozen=True)
class AnyGate:
    """The union of several gates' first clauses: when it fails, none of those regexes can match the text.

    A rule with many patterns tests this once per line instead of one gate per pattern, which is what long logs
    (almost every line matching nothing) spend their time on.
    """

    folded_literals: tuple[str, ...]
    exact_literals: tuple[str, ...]
    generation: tuple[int, int] = field(init=False, compare=False, repr=False)  # of :data:`_LITERALS`' two kinds
    in_folded: AnyOf = field(init=False, compare=False, repr=False)
    in_exact: AnyOf = field(init=False, compare=False, repr=False)

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

    def __post_init__(self) -> None:
        kinds = (self.folded_literals, self.exact_literals)
        object.__setattr__(self, "generation", tuple(d.add(lits) for d, lits in zip(_LITERALS, kinds, strict=True)))
        object.__setattr__(self, "in_folded", AnyOf(self.folded_literals))
        object.__setattr__(self, "in_exact", AnyOf(self.exact_literals))

    def lines_in(self, joined: Joined) -> list[int]:
        """Indices of the lines this gate admits, in order, in lines joined once (:class:`Joined`)."""
        hit: set[int] = set()
        folded, exact = joined.occurrences(self.generation)
        for lits, found in ((self.folded_literals, folded), (self.exact_literals, exact)):
            for lit in lits:
                lines = found.get(lit)
                if lines is not None:
                    hit.update(lines)
        return sorted(hit)

    def admits(self, text: str, folded: str) -> bool:
        return self.in_folded(folded) or self.in_exact(text)


_LITERALS = (_Dictionary(), _Dictionary())  # every AnyGate literal: folded, exact

Found = dict[str, list[int]]  # a literal -> the lines it occurs in, in order


class Joined:
    """Lines joined once (lower-cased by :func:`fold` and as written, one separator character between lines), and
    which lines every :class:`AnyGate` literal occurs in: one Aho-Corasick pass per text over all of them at once.

    A long log's lines almost never hold a literal, and ~1,500 literals each searched over a 100 KB log took 30-50
    ms; the automaton finds them all in one pass. A literal straddling two lines (it would hold the separator) can
    only add a line, never lose one.
    """

    def __init__(self, texts: list[str], folded: list[str]) -> None:
        self.text = "\n".join(texts)
        self.folded = "\n".join(folded)
        self.starts: list[int] = []
        pos = 0
        for t in texts:
            self.starts.append(pos)
            pos += len(t) + 1
        self._found: tuple[tuple[int, int], Found, Found] | None = None

    def occurrences(self, generation: tuple[int, int]) -> tuple[Found, Found]:
        """Lines of each folded and each exact literal (absent: in no line), for gates up to ``generation``."""
        if self._found is None or self._found[0][0] < generation[0] or self._found[0][1] < generation[1]:
            (gf, folded_auto), (ge, exact_auto) = (d.automaton() for d in _LITERALS)
            self._found = ((gf, ge), self._scan(folded_auto, self.folded), self._scan(exact_auto, self.text))
        return self._found[1], self._found[2]

    def _scan(self, auto: Any, joined: str) -> Found:
        found: Found = {}
        if auto is None:
            return found
        starts = self.starts
        for end, lit in auto.iter(joined):
            k = bisect_right(starts, end - len(lit) + 1) - 1
            lines = found.get(lit)
            if lines is None:
                found[lit] = [k]
            elif lines[-1] != k:  # one literal's matches come in order, so its lines do
                lines.append(k)
        return found


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

    regex: re.Pattern[str] | LazyRegex
    gate: Gate | None

    @classmethod
    def of(cls, regex: re.Pattern[str] | LazyRegex) -> Gated:
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

    ``A|B|C`` finds a match exactly when one of ``A``, ``B``, ``C`` does, so a line runs only the alternatives whose own
    gates admit it, not the whole alternation (one benign-notice alternative, ``loss scale\\b.*(?:to|->)``, admits
    every Megatron step line, and the whole 50-way alternation costs ~0.1 ms on such a line). Which alternatives'
    first clauses a line holds is one Aho-Corasick pass over the line (:class:`_PartIndex`), not a loop over every
    alternative's literals. ``parts`` is None when the regex is not a plain top-level alternation (then the whole regex
    runs, as before).
    """

    whole: Gated
    parts: tuple[Gated, ...] | None
    index: _PartIndex | None = field(init=False, compare=False, repr=False)

    @classmethod
    def of(cls, regex: re.Pattern[str] | LazyRegex) -> Alternatives:
        return cls(Gated.of(regex), _split_alternatives(regex))

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", _PartIndex(self.parts) if self.parts is not None else None)

    def found(self, text: str, folded: str | None = None) -> bool:
        if not _enabled or self.parts is None or self.index is None:
            return self.whole.regex.search(text) is not None
        if folded is None:
            folded = fold(text)
        parts = self.parts
        return any(parts[i].search(text, folded) is not None for i in self.index.candidates(text, folded))


class _PartIndex:
    """Which alternatives a line may match: those without a gate, and those whose gate's first clause has a literal in
    the line, found by one Aho-Corasick automaton per kind (folded / exact) over every alternative's first clause."""

    def __init__(self, parts: tuple[Gated, ...]) -> None:
        self.ungated = frozenset(i for i, p in enumerate(parts) if p.gate is None)
        owners: tuple[dict[str, set[int]], dict[str, set[int]]] = ({}, {})
        for i, p in enumerate(parts):
            if p.gate is not None:
                for lit in p.gate.clauses[0]:
                    owners[0 if p.gate.icase else 1].setdefault(lit, set()).add(i)
        autos: list[Any] = []
        for lits in owners:
            auto = None
            if lits:
                auto = ahocorasick.Automaton()
                for lit, idx in lits.items():
                    auto.add_word(lit, tuple(sorted(idx)))
                auto.make_automaton()
            autos.append(auto)
        self.folded_auto, self.exact_auto = autos

    def candidates(self, text: str, folded: str) -> set[int]:
        """Indices of the alternatives whose gates may admit ``text`` (``folded`` is :func:`fold` of it)."""
        hits = set(self.ungated)
        for auto, scanned in ((self.folded_auto, folded), (self.exact_auto, text)):
            if auto is not None:
                for _end, owners in auto.iter(scanned):
                    hits.update(owners)
        return hits


def _split_alternatives(regex: re.Pattern[str] | LazyRegex) -> tuple[Gated, ...] | None:
    """The top-level alternatives of ``regex`` compiled alone (same flags), or None when that is not certain to mean
    the same: verbose patterns, numbered group references (a part numbers its groups afresh), conditionals, or a parse
    that is not one top-level branch of as many parts. A named reference stays: a part compiles only when it defines
    the group it names, and then it is the same group (``(?P<n>\\d+) of (?P=n) steps``). The split comes from the
    shipped table when it holds the pattern (:mod:`gatetable`)."""
    if not isinstance(regex.pattern, str):
        return None
    parts = gatetable.cached("splits", regex.pattern, regex.flags, lambda: _work_out_split(regex))
    return None if parts is None else tuple(Gated.of(LazyRegex(p, regex.flags)) for p in parts)


def _work_out_split(regex: re.Pattern[str] | LazyRegex) -> list[str] | None:
    """The texts of :func:`_split_alternatives`' parts, read off the pattern and checked against its parse."""
    pattern = regex.pattern
    if regex.flags & re.VERBOSE or re.search(r"\\[1-9]|\(\?\(", pattern):
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
        for p in parts:
            re.compile(p, regex.flags)
    except (re.error, TypeError, ValueError):
        return None
    if len(parts) < 2 or len(parsed) != 1 or parsed[0][0] is not _sre.BRANCH or len(parsed[0][1][1]) != len(parts):
        return None
    return parts


def gate_for(regex: re.Pattern[str] | LazyRegex) -> Gate | None:
    """The literal gate of a compiled regex, or None when no literal is certain to occur in a match (from the shipped
    table when it holds the pattern: :mod:`gatetable`)."""
    if not isinstance(regex.pattern, str):  # bytes patterns stay ungated
        return None
    found = gatetable.cached("gates", regex.pattern, regex.flags, lambda: _work_out_gate(regex))
    return None if found is None else Gate(tuple(tuple(c) for c in found[1]), bool(found[0]))


def _work_out_gate(regex: re.Pattern[str] | LazyRegex) -> tuple[bool, list[list[str]]] | None:
    """``(icase, clauses)`` of :func:`gate_for`, read off the parsed regex; None when it has no gate."""
    try:
        parsed = _sre.parse(regex.pattern, regex.flags)
    except (re.error, TypeError):  # anything the parser refuses stays ungated
        return None
    cands = sorted(_candidates(list(parsed)), key=_selectivity, reverse=True)[:MAX_CLAUSES]
    if not cands:
        return None
    icase = bool(regex.flags & re.IGNORECASE)
    clauses = [sorted({lit.lower() if icase else lit for lit in c}, key=lambda s: (-len(s), s)) for c in cands]
    return icase, clauses


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
    if op is _sre.IN:  # a class of literal characters (``[Ee]``, ``[━█▉▊▋]``): each one as a LITERAL would be
        chars = {chr(c) for kind, c in av if kind is _sre.LITERAL and (c < 128 or not _iscased(c))}
        return chars if len(chars) == len(av) and len(chars) <= MAX_EXPANSION else None
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
