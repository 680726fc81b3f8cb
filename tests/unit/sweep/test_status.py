"""'how is the sweep doing?' in the chat: routed to the sweep, answered from the record and each point's session."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.chat.intents import route
from runshepherd.sweep.status import latest_record, status_lines, write_record


@pytest.mark.parametrize("said", ["how is the sweep doing?", "compare the points", "which point is best?"])
def test_sweep_questions_route_to_the_sweep(said: str) -> None:
    assert route(said).kind == "sweep_status"
    assert route("how is it going?").kind == "status"  # a single run's status is unchanged


def test_status_lines_say_each_point_and_the_best(tmp_path: Path) -> None:
    record = {
        "sweep": "s1",
        "spec": "sweep-lr.yaml",
        "points": [
            {"index": 1, "point": "lr=0.05", "values": {"lr": 0.05}, "session": "s1-p1"},
            {"index": 2, "point": "lr=1.0", "values": {"lr": 1.0}, "session": "s1-p2"},
        ],
    }
    write_record(tmp_path, "s1", record)
    assert latest_record(tmp_path) == record
    sessions = {
        "s1-p1": {
            "attempt": {"n": 1, "workflow_id": "w-1"},
            "last_status": {"status": "RUNNING"},
            "progress_line": "epoch 1/2",
        },
        "s1-p2": {"attempt": {"n": 2, "workflow_id": "w-3"}, "last_status": {"status": "FAILED"}, "outcome": "FAILED"},
    }
    lines = status_lines(record, lambda sid: sessions[sid])
    assert lines[0].endswith("1 FAILED, 1 RUNNING")
    assert lines[1] == "#1 lr=0.05: RUNNING, w-1 (attempt 1) · epoch 1/2" and lines[2].startswith(
        "#2 lr=1.0: FAILED, w-3"
    )
    best = {"index": 2, "point": "lr=1.0", "metric": "eval_accuracy", "value": 0.94, "fixed": True}
    assert "ran with a fix" in status_lines({**record, "best": best}, lambda sid: sessions[sid])[-1]
