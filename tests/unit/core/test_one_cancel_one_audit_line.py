"""One cancel, one `cancel` audit line. The door writes the session's mark, then cancels its workflow; a running
session that sees the mark in between cancels its own workflow too. Before: both called the scheduler's cancel and
both wrote a `cancel` line (the session's with other words), so the audit log showed two cancels of one workflow."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import runshepherd.cancel_mark as cancel_mark
from runshepherd.backends.base import Status
from runshepherd.backends.local import LocalBackend
from runshepherd.cancel_mark import CancelTarget
from runshepherd.spec import load_spec_text
from runshepherd.sweep.cancel import cancel_own

SLEEPER = "workflow:\n  name: sl\n  tasks:\n  - name: t\n    image: x\n    command: [sleep, '60']\n"


def _cancels(state: Path) -> list[dict[str, Any]]:
    lines = (state / "audit.jsonl").read_text().splitlines()
    return [e for e in map(json.loads, lines) if e["what"] == "cancel"]


@pytest.mark.parametrize("session_first", [True, False])
def test_the_door_and_the_session_cancel_the_workflow_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, session_first: bool
) -> None:
    state = tmp_path / "state"
    backend = LocalBackend(state)
    wid = backend.submit(load_spec_text(SLEEPER)).workflow_id
    deadline = time.monotonic() + 30
    while backend.query(wid).status is not Status.RUNNING and time.monotonic() < deadline:
        time.sleep(0.05)
    calls: list[str] = []
    real_cancel = backend.cancel

    def counted(workflow_id: str) -> None:
        calls.append(workflow_id)
        real_cancel(workflow_id)

    backend.cancel = counted  # type: ignore[method-assign]
    real_write_mark = cancel_mark.write_mark

    def marked_then_polled(path: Path, **kw: Any) -> bool:
        wrote = real_write_mark(path, **kw)
        if session_first:  # the session's monitor polls right after the mark
            cancel_own(backend, state, "s1", wid, "session s1 was canceled by you")
        return wrote

    monkeypatch.setattr(cancel_mark, "write_mark", marked_then_polled)
    target = CancelTarget(session="s1", workflow=wid, status="RUNNING")
    told = cancel_mark.cancel(backend, state, target, via="orchestrate cancel", approved_by="--yes")
    cancel_own(backend, state, "s1", wid, "session s1 was canceled by you")  # the session's next poll
    assert f"cancel requested for {wid}" in told
    assert calls == [wid]  # the scheduler was asked once
    # the person's cancel is recorded before anything it caused, whoever sent the scheduler's cancel
    whats = [json.loads(x)["what"] for x in (state / "audit.jsonl").read_text().splitlines()]
    assert [w for w in whats if w.startswith("cancel")] == ["cancel session", "cancel"]
    [line] = _cancels(state)  # one audit line, worded as the door's whoever made the call
    assert (line["workflow"], line["session"], line["via"], line["approved_by"]) == (
        wid,
        "s1",
        "orchestrate cancel",
        "--yes",
    )
    assert backend.query(wid).status.terminal()
