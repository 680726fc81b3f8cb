"""`detached.running_elsewhere` reads a background session's record once: the pid it compares with this process and
the liveness it checks come from the same record (was: two reads, so a record rewritten between them by a new
`--detach` could pair one process's pid with another's liveness)."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import psutil
import pytest

from runshepherd.cli import detached


def test_one_read_answers_both_questions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parent = psutil.Process(os.getppid())  # alive, and not this process
    rec = detached.DetachedRecord(
        session="s",
        pid=parent.pid,
        create_time=parent.create_time(),
        started_at=datetime.now(UTC),
        events="e",
        log="l",
    )
    reads: list[str] = []

    def read(state_dir: Path, session: str) -> detached.DetachedRecord:
        reads.append(session)
        return rec

    monkeypatch.setattr(detached, "read", read)
    assert detached.running_elsewhere(tmp_path, "s") is True
    assert reads == ["s"], reads
    mine = rec.model_copy(update={"pid": os.getpid(), "create_time": psutil.Process().create_time()})
    monkeypatch.setattr(detached, "read", lambda state_dir, session: mine)
    assert detached.running_elsewhere(tmp_path, "s") is False  # its own background process
