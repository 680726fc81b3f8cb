"""Pruning a session also drops the long texts (specs) that only its dropped checkpoints referred to."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from runshepherd.graph.checkpoint import BLOB_MIN_CHARS, db_path, open_saver, prune_saver


class _State(TypedDict):
    spec: str
    step: int


def _spec(version: int) -> str:
    return f"# spec version {version}\n" + "x" * BLOB_MIN_CHARS


def _edit(state: _State) -> dict[str, object]:
    """Each step replaces the long text, as an approved fix replaces a session's spec."""
    return {"spec": _spec(state["step"] + 1), "step": state["step"] + 1}


def _graph(saver: object) -> object:
    g = StateGraph(_State)
    g.add_node("edit", _edit)
    g.add_edge(START, "edit")
    g.add_conditional_edges("edit", lambda s: END if s["step"] >= 4 else "edit")
    return g.compile(checkpointer=saver)  # type: ignore[arg-type]


def _stored(state: Path) -> list[str]:
    with sqlite3.connect(db_path(state)) as conn:
        return sorted(row[0].splitlines()[0] for row in conn.execute("SELECT text FROM rs_blobs"))


def test_prune_removes_texts_no_checkpoint_refers_to_and_keeps_shared_ones(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with open_saver(state) as saver:
        graph = _graph(saver)
        graph.invoke({"spec": _spec(0), "step": 0}, {"configurable": {"thread_id": "s1"}})  # type: ignore[attr-defined]
        # another session still holds version 0 (the same text is stored once for both)
        graph.invoke({"spec": _spec(0), "step": 3}, {"configurable": {"thread_id": "s2"}})  # type: ignore[attr-defined]
    assert _stored(state) == [f"# spec version {v}" for v in range(5)]

    with open_saver(state) as saver:
        prune_saver(saver, "s1")
    # s1 keeps only its latest checkpoint (version 4); version 0 stays for s2's checkpoints; 1-3 are gone
    assert _stored(state) == ["# spec version 0", "# spec version 4"]

    with open_saver(state) as saver:
        graph = _graph(saver)
        assert graph.get_state({"configurable": {"thread_id": "s1"}}).values["spec"] == _spec(4)  # type: ignore[attr-defined]
        prune_saver(saver, "s2")
        assert graph.get_state({"configurable": {"thread_id": "s2"}}).values["spec"] == _spec(4)  # type: ignore[attr-defined]
    assert _stored(state) == ["# spec version 4"]
