"""Regexes compiled on first use.

The diagnosis modules declare about a thousand patterns; compiling them all when the diagnoser is imported took
~0.1 s of every ``orchestrate diagnose`` process, while the literal prefilter (:mod:`prefilter`) means a given log
runs only the few patterns whose literals it holds. A :class:`LazyRegex` knows its text and the flags ``re`` will
give it (what the prefilter's gate table is keyed by) without compiling, and compiles once, when first searched.
A pattern's syntax is still checked before it ships: a unit test compiles every one (:func:`declared`).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Mapping

# Python >= 3.11 accepts global inline flags only at the very start of the pattern ("(?i)", "(?ms)")
_GLOBAL_FLAGS = re.compile(r"\(\?([aiLmsux]+)\)")
_LETTERS = {
    "a": re.ASCII,
    "i": re.IGNORECASE,
    "L": re.LOCALE,
    "m": re.MULTILINE,
    "s": re.DOTALL,
    "u": re.UNICODE,
    "x": re.VERBOSE,
}
_declared: list[LazyRegex] = []


def compiled_flags(pattern: str, flags: int) -> int:
    """The ``flags`` attribute ``re.compile(pattern, flags)`` gives a str pattern: the flags passed, the global
    inline flags at its start, and UNICODE unless ASCII (or LOCALE) is set."""
    at = 0
    while (m := _GLOBAL_FLAGS.match(pattern, at)) is not None:
        for letter in m.group(1):
            flags |= _LETTERS[letter]
        at = m.end()
    if not flags & (re.ASCII | re.LOCALE):
        flags |= re.UNICODE
    return int(flags)


class LazyRegex:
    """A str regex with ``re.Pattern``'s reading methods, compiled the first time one of them runs."""

    __slots__ = ("pattern", "flags", "_given", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = compiled_flags(pattern, flags)
        self._given = flags
        self._compiled: re.Pattern[str] | None = None
        _declared.append(self)

    def compiled(self) -> re.Pattern[str]:
        c = self._compiled
        if c is None:
            c = self._compiled = re.compile(self.pattern, self._given)
        return c

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled().finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[object]:
        return self.compiled().findall(string, pos, endpos)

    def sub(self, repl: str, string: str, count: int = 0) -> str:
        return self.compiled().sub(repl, string, count)

    @property
    def groupindex(self) -> Mapping[str, int]:
        return self.compiled().groupindex

    def __repr__(self) -> str:
        return f"LazyRegex({self.pattern!r}, {self._given!r})"


def declared() -> list[LazyRegex]:
    """Every lazy regex made so far (for the test that compiles them all)."""
    return list(_declared)
