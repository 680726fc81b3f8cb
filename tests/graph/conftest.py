"""Graph tests run the real graph on the real local backend, on InMemorySaver and SqliteSaver alike."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver

from runshepherd.backends.local import LocalBackend


@pytest.fixture(params=["memory", "sqlite"])
def saver(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    if request.param == "memory":
        yield InMemorySaver()
        return
    conn = sqlite3.connect(str(tmp_path / "sessions.sqlite"), check_same_thread=False)
    s = SqliteSaver(conn)
    s.setup()
    yield s
    conn.close()


@pytest.fixture
def backend(tmp_path: Path) -> LocalBackend:
    return LocalBackend(tmp_path / "state")
