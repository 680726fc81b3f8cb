"""One run of the conversation: the normal session graph, streamed in a background thread so the person can
keep chatting while it is monitored. It stops at each question (the chat answers it) and at the end.

The same `SessionRunner` as `orchestrate run` (graph, checkpointer, lock, pruning, stop), so a run started here is
a session that `orchestrate sessions` lists and `orchestrate resume` can continue.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runshepherd.graph.context import Deps
from runshepherd.graph.runner import Asked, Emitted, Finished, SessionRunner, Stopped


@dataclass
class RunDriver:
    """Transport for one `SessionRunner` on a worker thread: forwards its items to the chat's callbacks."""

    session: str
    deps: Deps
    state_dir: Path
    max_concurrency: int
    checkpointer: str | None
    on_event: Callable[[str, dict[str, Any]], None]
    on_question: Callable[[str, dict[str, Any]], None]
    on_done: Callable[[str, dict[str, Any]], None]
    on_error: Callable[[str, BaseException], None]
    on_stopped: Callable[[str, dict[str, Any]], None] | None = None
    waiting: dict[str, dict[str, Any]] = field(default_factory=dict)  # interrupt id → question payload
    values: dict[str, Any] | None = None  # the final state once the run ended
    workflow_id: str | None = None
    stopped: bool = False  # the last run was stopped at a safe point (Ctrl-C); `start(None)` continues it
    _runner: SessionRunner | None = None
    _thread: threading.Thread | None = None
    _idle: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self._idle.set()
        self._runner = self._new_runner()

    def _new_runner(self) -> SessionRunner:
        return SessionRunner(
            self.state_dir,
            self.session,
            self.deps,
            max_concurrency=self.max_concurrency,
            checkpointer=self.checkpointer,
        )

    @property
    def runner(self) -> SessionRunner:
        assert self._runner is not None
        return self._runner

    @property
    def busy(self) -> bool:
        return not self._idle.is_set()

    @property
    def question(self) -> dict[str, Any] | None:
        return next(iter(self.waiting.values()), None)

    def start(self, first_input: dict[str, Any] | None = None, answers: dict[str, str] | None = None) -> None:
        """Run on a worker thread: a new session's ``first_input``, or continue it (answering ``answers``)."""
        self._idle.clear()
        self.stopped = False
        self._runner = self._new_runner()
        self._thread = threading.Thread(
            target=self._run, args=(first_input, answers), name=f"run-{self.session}", daemon=True
        )
        self._thread.start()

    def answer(self, text: str) -> None:
        if not self.waiting:
            raise RuntimeError("the run is not waiting for an answer")
        answers = {qid: text for qid in self.waiting}
        self.waiting = {}
        self.start(answers=answers)

    def stop(self, reason: str = "Ctrl-C") -> None:
        """Stop the run at its next safe point (the runner's drain); the session stays resumable."""
        if self.busy:
            self.runner.stop(reason)

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

    def _run(self, first_input: dict[str, Any] | None, answers: dict[str, str] | None) -> None:
        try:
            end: Asked | Finished | Stopped | None = None
            for item in self.runner.run(first_input, answers=answers):
                if isinstance(item, Emitted):
                    if item.event.get("event") == "submitted":
                        self.workflow_id = item.event.get("workflow_id")
                    self.on_event(self.session, item.event)
                else:
                    end = item  # acted on below, once the runner has released the session lock
            if isinstance(end, Asked):
                self.waiting = {q.id: q.payload() for q in end.questions}
                self.on_question(self.session, self.question or {})
            elif isinstance(end, Finished):
                self.values = end.values
                self.on_done(self.session, end.values)
            elif isinstance(end, Stopped):
                self.stopped = True
                if self.on_stopped is not None:
                    self.on_stopped(self.session, end.values)
        except BaseException as exc:  # shown in the conversation; the session stays resumable
            self.on_error(self.session, exc)
        finally:
            self._idle.set()
