"""One run of the conversation: the normal session graph, streamed in a background thread so the person can
keep chatting while it is monitored. It stops at each question (the chat answers it) and at the end.

The same graph, checkpointer, lock and events as `orchestrate run`; a run started here is a session that
`orchestrate sessions` lists and `orchestrate resume` can continue.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PRUNE_EVERY = 25


@dataclass
class RunDriver:
    session: str
    deps: Any
    state_dir: Any
    max_concurrency: int
    on_event: Callable[[str, dict[str, Any]], None]
    on_question: Callable[[str, dict[str, Any]], None]
    on_done: Callable[[str, dict[str, Any]], None]
    on_error: Callable[[str, BaseException], None]
    waiting: dict[str, dict[str, Any]] = field(default_factory=dict)  # interrupt id → question payload
    values: dict[str, Any] | None = None  # the final state once the run ended
    workflow_id: str | None = None
    _thread: threading.Thread | None = None
    _idle: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self._idle.set()

    @property
    def busy(self) -> bool:
        return not self._idle.is_set()

    @property
    def question(self) -> dict[str, Any] | None:
        return next(iter(self.waiting.values()), None)

    def start(self, payload: Any) -> None:
        """Stream ``payload`` (first input, None to continue, or a Command answering the questions)."""
        self._idle.clear()
        self._thread = threading.Thread(target=self._run, args=(payload,), name=f"run-{self.session}", daemon=True)
        self._thread.start()

    def answer(self, text: str) -> None:
        from langgraph.types import Command

        if not self.waiting:
            raise RuntimeError("the run is not waiting for an answer")
        payload: Command[Any] = Command(resume={qid: text for qid in self.waiting})
        self.waiting = {}
        self.start(payload)

    def wait(self, timeout: float | None = None, until: Callable[[], bool] | None = None) -> bool:
        """Block until the run is idle (or ``until`` holds); True if it happened within ``timeout``."""
        if until is None:
            return self._idle.wait(timeout)
        step = 0.05
        waited = 0.0
        while not until() and not self._idle.is_set():
            if timeout is not None and waited >= timeout:
                return False
            self._idle.wait(step)
            waited += step
        return True

    def _run(self, payload: Any) -> None:
        from runshepherd.graph.builder import compile_graph
        from runshepherd.graph.checkpoint import open_saver, prune, session_lock

        cfg = {
            "configurable": {"thread_id": self.session},
            "max_concurrency": self.max_concurrency,
            "recursion_limit": 10_000,
        }
        try:
            with session_lock(self.state_dir, self.session), open_saver(self.state_dir) as saver:
                graph = compile_graph(saver)
                steps = 0
                for mode, chunk in graph.stream(
                    payload, cfg, context=self.deps, stream_mode=["custom", "updates"], durability="sync"
                ):
                    if mode == "custom" and isinstance(chunk, dict):
                        if chunk.get("event") == "submitted":
                            self.workflow_id = chunk.get("workflow_id")
                        self.on_event(self.session, chunk)
                    elif mode == "updates":
                        steps += 1
                        if steps % PRUNE_EVERY == 0:
                            prune(saver.conn, self.session)  # type: ignore[attr-defined]
                snap = graph.get_state(cfg)
                if snap.interrupts:
                    self.waiting = {i.id: i.value for i in snap.interrupts}
                else:
                    prune(saver.conn, self.session)  # type: ignore[attr-defined]
                    self.values = dict(snap.values)
            if self.waiting:
                self.on_question(self.session, self.question or {})
            elif self.values is not None:
                self.on_done(self.session, self.values)
        except BaseException as exc:  # shown in the conversation; the session stays resumable
            self.on_error(self.session, exc)
        finally:
            self._idle.set()
