"""`orchestrate cancel SESSION` (and `cancel WF` of its latest workflow) while the session is between attempts:
its workflow has just FAILED and it is about to diagnose, fix and resubmit. Before: "sweep-lr-2 already ended
(FAILED); nothing to cancel" (exit 0, no mark), and the point resubmitted as attempt 2 a moment later — the
person's cancel was dropped. Now the session is marked canceled, so it submits and fixes nothing more."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from runshepherd import cancel_mark
from runshepherd.backends.base import Status


class _Backend:
    def __init__(self, status: Status) -> None:
        self.status = status
        self.canceled: list[str] = []

    def query(self, wid: str) -> Any:
        return SimpleNamespace(status=self.status)

    def cancel(self, wid: str) -> None:
        self.canceled.append(wid)


def _sessions(monkeypatch: pytest.MonkeyPatch, values: dict[str, dict[str, Any]], submitted: dict[str, str]) -> None:
    from runshepherd.graph import checkpoint, runner, waiting

    monkeypatch.setattr(waiting, "waiting_session", lambda state_dir, target, url=None: None)  # no open question
    monkeypatch.setattr(waiting, "submitted_by", lambda state_dir, wid: submitted.get(wid))
    monkeypatch.setattr(checkpoint, "has_session", lambda state_dir, sid, url=None: sid in values)

    class _Runner:
        def __init__(self, state_dir: Path, sid: str, **_: Any) -> None:
            self.sid = sid

        def snapshot(self) -> Any:
            return SimpleNamespace(values=values[self.sid])

    monkeypatch.setattr(runner, "SessionRunner", _Runner)


def test_cancel_of_a_session_between_attempts_marks_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    going = {"attempt": {"workflow_id": "sweep-lr-2"}}  # no outcome: the session has not ended
    _sessions(monkeypatch, {"p2": going}, {"sweep-lr-2": "p2"})
    backend = _Backend(Status.FAILED)
    for target in ("p2", "sweep-lr-2"):
        t = cancel_mark.find_target(backend, tmp_path, target)  # type: ignore[arg-type]
        assert t.nothing is None and t.session == "p2", t
        assert t.confirm() == (
            "Cancel session p2 (nothing more would be submitted or fixed; its last workflow sweep-lr-2 FAILED)? "
            "This is final."
        )
    told = cancel_mark.cancel(backend, tmp_path, t, via="orchestrate cancel", approved_by="person")  # type: ignore[arg-type]
    assert told == "session p2 canceled: nothing more is submitted or fixed", told
    assert cancel_mark.session_halted(tmp_path, "p2")() is not None and backend.canceled == []


def test_an_ended_session_or_an_older_attempt_is_still_nothing_to_cancel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ended = {"attempt": {"workflow_id": "tiny-1"}, "outcome": "FAILED"}
    going = {"attempt": {"workflow_id": "tiny-3"}}
    _sessions(monkeypatch, {"s1": ended, "s2": going}, {"tiny-1": "s1", "tiny-2": "s2"})
    backend = _Backend(Status.FAILED)
    for target, wid in (("s1", "tiny-1"), ("tiny-2", "tiny-2")):
        t = cancel_mark.find_target(backend, tmp_path, target)  # type: ignore[arg-type]
        assert t.nothing == f"{wid} already ended (FAILED); nothing to cancel", t
