"""A cancel that comes the instant after a session submitted its workflow still names and cancels that workflow.

The submit node announces "submitted X" before it returns, and the session's checkpoint holds X only once it has
returned. A cancel in between read "this session has submitted nothing": the person was told only that the session
was canceled (its own process canceled the workflow a moment later). CI caught it through MCP's `cancel` once
reading a session stopped building the graph (so the read fell inside that instant)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import runshepherd.graph.checkpoint as checkpoint
import runshepherd.graph.runner as runner
from runshepherd.backends.base import Status
from runshepherd.backends.local import LocalBackend
from runshepherd.cancel_mark import find_target
from runshepherd.graph.runner import SessionSnapshot
from runshepherd.spec import load_spec_text

SLEEPER = "workflow:\n  name: sl\n  tasks:\n  - name: t\n    image: x\n    command: [sleep, '60']\n"


def test_a_workflow_submitted_an_instant_ago_is_found_by_its_attempts_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    backend = LocalBackend(state)
    wid = backend.submit(load_spec_text(SLEEPER), idempotency_key="s1-attempt-1").workflow_id
    try:
        # the checkpoint as the submit node leaves it until it returns: the attempt and its key, no workflow id yet
        saved = SessionSnapshot(values={"attempt": {"n": 1, "idempotency_key": "s1-attempt-1"}}, next=("submit",))
        monkeypatch.setattr(runner.SessionRunner, "snapshot", lambda self: saved)
        monkeypatch.setattr(checkpoint, "has_session", lambda state_dir, session, url=None: session == "s1")
        target = find_target(backend, state, "s1")
        assert (target.session, target.workflow, target.nothing) == ("s1", wid, None)
        assert target.live
    finally:
        backend.cancel(wid)
        deadline = time.monotonic() + 30
        while not backend.query(wid).status.terminal() and time.monotonic() < deadline:
            time.sleep(0.05)
    assert backend.query(wid).status is Status.FAILED_CANCELED
