"""Helpers for graph tests: deps for a temp state dir, and a scripted session runner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.types import Command

from runshepherd.backends.local import LocalBackend
from runshepherd.config import load_settings
from runshepherd.graph.builder import compile_graph
from runshepherd.graph.context import Deps

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def make_deps(backend: LocalBackend, tmp_path: Path, **kw: Any) -> Deps:
    settings = load_settings(environ={}, flags={"state_dir": str(tmp_path / "state")})
    settings.fixes.infra_backoff_seconds = 0
    return Deps(
        backend=backend,
        settings=settings,
        session_id=kw.pop("session_id", "s1"),
        state_dir=tmp_path / "state",
        cadence=kw.pop("cadence", 0.2),
        cwd=tmp_path,
        download_root=tmp_path / "home",
        **kw,
    )


class Session:
    """Runs a graph to its end, answering questions from a script; records every custom event."""

    def __init__(self, saver: Any, deps: Deps, thread: str = "s1") -> None:
        self.graph = compile_graph(saver)
        self.deps = deps
        self.cfg = {"configurable": {"thread_id": thread}, "max_concurrency": 4}
        self.events: list[dict[str, Any]] = []
        self.questions: list[dict[str, Any]] = []

    def run(self, first: Any, answers: dict[str, str] | None = None, stop_at_question: bool = False) -> dict[str, Any]:
        payload = first
        while True:
            for mode, chunk in self.graph.stream(
                payload, self.cfg, context=self.deps, stream_mode=["custom", "updates"], durability="sync"
            ):
                if mode == "custom":
                    self.events.append(chunk)
            snap = self.graph.get_state(self.cfg)
            if not snap.interrupts:
                return snap.values
            self.questions += [i.value for i in snap.interrupts]
            if stop_at_question:
                return snap.values
            payload = Command(
                resume={i.id: (answers or {}).get(i.value["kind"], i.value["default"]) for i in snap.interrupts}
            )

    def kinds(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("event") == event]
