"""A long run of a program's counter lines (``tick N  kimg K  loss L``) is read in one pass: each line is marked as
progress once. Before, every new line of the run re-checked and re-marked the whole run so far, so 5,000 such lines
took 30 s to diagnose and 20,000 took 150 s (quadratic), where the rest of the diagnosis takes about a second."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis.errorblock import Line, prepare
from runshepherd.diagnosis.positive import mark_counters


def test_each_counter_line_is_marked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 2000
    lines = prepare([f"tick {i}  kimg {i * 4}.0  loss 0.{(i * 37) % 100:02d}" for i in range(1, n + 1)]).lines
    marks = 0
    set_field = object.__setattr__

    def counting(self: Line, name: str, value: object) -> None:
        nonlocal marks
        marks += name == "progress" and value is True
        set_field(self, name, value)

    monkeypatch.setattr(Line, "__setattr__", counting)
    mark_counters(lines)
    assert all(ln.progress for ln in lines)
    assert marks == n  # was n * (n + 1) / 2 - 3: the run marked again for every line added


def test_a_run_is_progress_only_once_another_value_moves() -> None:
    """The run's three lines are marked together when the third shows a value moving apart from the counter."""
    still = prepare([f"tick {i}  kimg 8.0" for i in range(1, 5)]).lines
    moving = prepare(["tick 1  kimg 8.0", "tick 2  kimg 8.0", "tick 3  kimg 12.0"]).lines
    assert not any(ln.progress for ln in mark_counters(still))
    assert all(ln.progress for ln in mark_counters(moving))
