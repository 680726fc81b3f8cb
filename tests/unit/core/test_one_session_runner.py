"""One way to drive a session: only graph/runner.py streams the session graph, builds its config and takes the
session lock. The CLI, the chat, detached runs and servers go through `SessionRunner` (issue 11)."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "runshepherd"
RUNNER = PACKAGE / "graph" / "runner.py"


def _callers(pattern: str) -> list[str]:
    rx = re.compile(pattern)
    return sorted(
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if p != RUNNER and rx.search(p.read_text(encoding="utf-8"))
    )


def test_only_the_runner_takes_the_session_lock() -> None:
    assert _callers(r"\bsession_lock\(") == ["graph/checkpoint.py"]  # where it is defined


def test_only_the_runner_streams_the_session_graph() -> None:
    assert _callers(r"compile_graph\([^)]*\)\s*\.(stream|invoke)\(|\bgraph\.(stream|invoke)\(") == []


def test_only_the_runner_builds_a_session_config() -> None:
    # graph/migrate.py copies raw checkpoints between stores; it never runs a session
    assert _callers(r"\{\s*\"configurable\":\s*\{\s*\"thread_id\"") == ["graph/migrate.py"]


def test_only_the_runner_reads_a_session() -> None:
    """One read of a session's state (`runner.read_session`): no command compiles the graph to call its
    `get_state`, nor reads a checkpoint its own way (graph/migrate.py only asks whether a copy exists)."""
    assert _callers(r"\.get_state\(|\bcompile_graph\(") == ["graph/builder.py"]  # where it is defined
    assert _callers(r"\.get_tuple\(") == ["graph/migrate.py"]
