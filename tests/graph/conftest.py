"""Graph tests run the real graph on the real local backend through the SessionRunner, on InMemorySaver and the
production CompactSqliteSaver alike."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from runshepherd.backends.local import LocalBackend
from runshepherd.graph.checkpoint import open_saver


@pytest.fixture(params=["memory", "sqlite"])
def saver(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """In-memory, and the production checkpointer (CompactSqliteSaver via `open_saver`, pruned by the runner)."""
    if request.param == "memory":
        yield InMemorySaver()
        return
    with open_saver(tmp_path / "state") as s:
        yield s


@pytest.fixture
def backend(tmp_path: Path) -> LocalBackend:
    return LocalBackend(tmp_path / "state")
