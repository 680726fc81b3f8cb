"""Two points that reached the very same value are a tie, and the comparison says so. Before, `--repeat 2` of a
seeded spec (identical runs) said "Best point: #1 (run 1) by eval_accuracy = 0.957", as if #1 had done better."""

from __future__ import annotations

from typing import Any

from runshepherd.sweep.results import best_point, table_markdown
from runshepherd.sweep.status import status_lines


def _point(index: int, eval_acc: float) -> dict[str, Any]:
    return {
        "index": index,
        "point": f"run {index}",
        "status": "COMPLETED",
        "metrics": {"eval_accuracy": {"last": eval_acc, "best": eval_acc}},
        "workflow_id": f"w-{index}",
        "attempts": 1,
        "duration": "5s",
    }


def test_a_tie_is_said_in_the_table_and_the_status() -> None:
    results = [_point(1, 0.957), _point(2, 0.957), _point(3, 0.9)]
    best = best_point(results)
    assert best is not None and best["tied_with"] == [2]
    assert "Best point: #1 (run 1) by eval_accuracy = 0.957, tied with #2." in table_markdown(results, best)
    record = {"sweep": "s1", "points": [], "best": best}
    assert status_lines(record, lambda sid: {})[-1] == "best: #1 (run 1) by eval_accuracy = 0.957, tied with #2"


def test_a_clear_winner_is_said_as_before() -> None:
    results = [_point(1, 0.9), _point(2, 0.957)]
    best = best_point(results)
    assert best is not None and best["tied_with"] == []
    assert "Best point: #2 (run 2) by eval_accuracy = 0.957." in table_markdown(results, best)
