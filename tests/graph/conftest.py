"""Graph tests run the real graph on the real local backend through the SessionRunner, on InMemorySaver and the
production checkpointers (CompactSqliteSaver, and PostgreSQL from scripts/pg-up.sh) alike."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from runshepherd.backends.local import LocalBackend
from runshepherd.graph.checkpoint import open_saver


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def saver(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """In-memory, and the production checkpointers via `open_saver` (pruned by the runner)."""
    if request.param == "memory":
        yield InMemorySaver()
        return
    url = request.getfixturevalue("pg_url") if request.param == "postgres" else None
    with open_saver(tmp_path / "state", url) as s:
        yield s


@pytest.fixture(params=["sqlite", "postgres"])
def checkpointer(request: pytest.FixtureRequest) -> str | None:
    """Where a SessionRunner keeps sessions: None (SQLite in the state dir) or a PostgreSQL URL."""
    return request.getfixturevalue("pg_url") if request.param == "postgres" else None


@pytest.fixture
def backend(tmp_path: Path) -> LocalBackend:
    return LocalBackend(tmp_path / "state")
