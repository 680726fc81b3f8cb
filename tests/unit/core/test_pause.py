"""Waits inside nodes answer a stop request (Ctrl-C) within a slice, whatever the length of the wait."""

from __future__ import annotations

import pytest

from runshepherd.nodes import common
from runshepherd.nodes.common import DRAIN_SLICE, pause


def test_a_long_pause_ends_at_the_first_check_after_a_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    monkeypatch.setattr(common.time, "sleep", slept.append)
    calls = iter([False, False, True])
    assert pause(60.0, lambda: next(calls)) is True
    assert len(slept) == 2 and all(s <= DRAIN_SLICE for s in slept)  # two half-second slices, not 60 s


def test_an_uninterrupted_pause_reports_no_stop() -> None:
    assert pause(0.0, lambda: False) is False
