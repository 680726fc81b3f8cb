"""Sweeps here poll every half second: at the default cadence (30 s for training) a one-point sweep of the 5-second
example job waited a whole tick after it ended, and these tests are about what a sweep says and does, not when it
looks (tests/unit/sweep/test_poll.py drives the shared poll's ticks with its own clock)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _quick_ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RUNSHEPHERD_CADENCE__TRAINING", "0.5")
    monkeypatch.setenv("RUNSHEPHERD_CADENCE__SHORT", "0.5")
    monkeypatch.setenv("RUNSHEPHERD_CADENCE__BACKOFF", "0.5")  # after four unchanged polls: 60 s by default
