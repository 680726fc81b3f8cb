"""The diagnosis patterns compile on first use: each still compiles, and knows its flags before it does."""

from __future__ import annotations

import re

import pytest

import runshepherd.diagnosis.engine  # noqa: F401  (declares every pattern)
from runshepherd.diagnosis.lazyregex import LazyRegex, compiled_flags, declared


def test_every_declared_pattern_compiles_with_the_flags_it_announced() -> None:
    patterns = declared()
    assert len(patterns) > 500  # the rules' patterns and their split alternatives are lazy
    for lazy in patterns:
        compiled = re.compile(lazy.pattern, lazy._given)
        assert compiled.flags == lazy.flags, lazy


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [("abc", 0), ("abc", re.IGNORECASE), ("(?i)abc", 0), ("(?ms)a.b", re.IGNORECASE), ("(?a)\\w", 0), ("(?x) a b", 0)],
)
def test_flags_are_known_without_compiling(pattern: str, flags: int) -> None:
    assert compiled_flags(pattern, flags) == re.compile(pattern, flags).flags


def test_a_lazy_regex_reads_like_a_compiled_one_and_compiles_once() -> None:
    lazy = LazyRegex(r"(?P<n>\d+) of (?P=n)", re.IGNORECASE)
    assert lazy._compiled is None
    m = lazy.search("step 3 of 3")
    assert m is not None and m.group("n") == "3"
    first = lazy.compiled()
    assert lazy.compiled() is first
    assert [m.group(0) for m in lazy.finditer("1 of 1, 2 of 2")] == ["1 of 1", "2 of 2"]
    assert lazy.sub("N", "4 of 4") == "N" and lazy.groupindex == {"n": 1}
