"""A chat (in process, local backend) whose run of the demo classifier has been submitted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def submitted_chat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Any]]:
    """``(chat, driver)``: "train a small classifier for 50 epochs" answered yes, its workflow submitted."""
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord
    from runshepherd.cli.context import CliContext

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c1"), interactive=False, cadence=0.2)
    try:
        convo.handle("train a small classifier for 50 epochs")
        d = convo.current
        assert d is not None and d.wait(60, until=lambda: d.waiting)
        convo.handle("yes")
        assert d.wait(60, until=lambda: d.workflow_id is not None)
        yield convo, d
    finally:
        convo.stop_runs()
