"""The one way to drive a session: `SessionRunner` owns everything between a front end and the graph.

The CLI (`run`, `resume`), the chat, detached runs and servers only render or transport what it yields; none of
them builds a LangGraph config, takes the session lock, opens the checkpointer, prunes or handles a drain itself.

    runner = SessionRunner(state_dir, session, deps, max_concurrency=4)
    for item in runner.run(first_input):          # run() continues; run(answers={id: "yes"}) answers
        match item:
            case Emitted(event=ev): show(ev)       # a progress event (the `--json` stream's line)
            case Asked(questions=qs): ...          # the session waits for an answer; the run ended here
            case Finished(values=v): ...           # the graph reached its end (outcome in v["outcome"])
            case Stopped(values=v): ...            # `stop()` (Ctrl-C) drained it at a safe point; resumable

`run()` holds the session lock while it streams; `answer=` lets a caller that can ask at once (a terminal prompt)
answer questions without releasing it. `stop()` may be called from any thread or a signal handler: the graph stops
at the next checkpoint (the monitor and the diagnosis wait notice within half a second) and `Stopped` is yielded.
Every segment is durable (`durability="sync"`), so a crash at any point leaves a session that `run(None)` resumes.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runshepherd.graph.checkpoint import open_saver, prune_saver, session_driven, session_lock
from runshepherd.graph.context import Deps

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.types import StateSnapshot

PRUNE_EVERY = 25  # graph steps between prunes of superseded checkpoints (each monitor return is one step)
RECURSION_LIMIT = 10_000  # a week of monitoring is thousands of steps; the graph's own caps bound real loops


def new_session_id() -> str:
    return uuid.uuid4().hex[:8]


def session_config(session: str, max_concurrency: int | None = None) -> dict[str, Any]:
    """The LangGraph config of a session: the only place a thread id is turned into a config."""
    cfg: dict[str, Any] = {"configurable": {"thread_id": session}, "recursion_limit": RECURSION_LIMIT}
    if max_concurrency is not None:
        cfg["max_concurrency"] = max_concurrency
    return cfg


@dataclass(frozen=True)
class Question:
    """A question the session waits on (a LangGraph interrupt), as front ends show it."""

    id: str
    kind: str
    text: str
    default: str
    choices: list[str]

    @classmethod
    def of(cls, interrupt_id: str, payload: dict[str, Any]) -> Question:
        choices = list(payload.get("choices") or ["yes", "no"])
        return cls(
            id=interrupt_id,
            kind=str(payload.get("kind") or "question"),
            text=str(payload.get("text") or ""),
            default=str(payload.get("default") or choices[0]),
            choices=choices,
        )

    def payload(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "default": self.default, "choices": self.choices}


@dataclass(frozen=True)
class Emitted:
    """One progress event a node emitted (what `--json` prints, one per line)."""

    event: dict[str, Any]


@dataclass(frozen=True)
class Asked:
    """The session is waiting for answers; `run(answers={question id: answer})` continues it."""

    questions: list[Question]
    values: dict[str, Any]


@dataclass(frozen=True)
class Finished:
    """The graph reached its end; ``values`` is the final state."""

    values: dict[str, Any]


@dataclass(frozen=True)
class Stopped:
    """Stopped at a safe point on request (Ctrl-C, a chat 'stop'); submitted workflows keep running."""

    values: dict[str, Any]
    reason: str


RunItem = Emitted | Asked | Finished | Stopped
Answerer = Callable[[Question], str | None]  # None: do not answer now (the run pauses with `Asked`)


@dataclass
class SessionRunner:
    """Drive one session of the graph: config, lock, checkpointer, streaming, stop, pruning and resume."""

    state_dir: Path
    session: str
    deps: Deps | None = None
    max_concurrency: int | None = None
    saver: Callable[[], AbstractContextManager[BaseCheckpointSaver[Any]]] | None = None  # default: open_saver
    checkpointer: str | None = None  # a postgresql:// URL; None: SQLite in state_dir (Settings.checkpointer)
    _control: Any = field(default=None, init=False, repr=False)
    _stop_reason: str | None = field(default=None, init=False, repr=False)

    # -- reading ---------------------------------------------------------------------------------------------
    def _open(self) -> AbstractContextManager[BaseCheckpointSaver[Any]]:
        return self.saver() if self.saver is not None else open_saver(self.state_dir, self.checkpointer)

    def snapshot(self) -> StateSnapshot:
        """The session's latest checkpoint (empty ``values`` when there is no such session). Takes no lock."""
        with self._open() as saver:  # opened first: an unreachable session database is said before langgraph loads
            from runshepherd.graph.builder import compile_graph

            return compile_graph(saver).get_state(session_config(self.session))

    def exists(self) -> bool:
        return bool(self.snapshot().values)

    def questions(self, snap: StateSnapshot | None = None) -> list[Question]:
        """The questions the session waits on now (none when it is not waiting)."""
        snap = snap if snap is not None else self.snapshot()
        return [Question.of(i.id, i.value) for i in snap.interrupts]

    def driven(self) -> bool:
        """Is some process (this one included) driving the session right now? Read from the session lock."""
        return session_driven(self.state_dir, self.session, self.checkpointer)

    @staticmethod
    def ended(snap: StateSnapshot) -> bool:
        """True when the graph has nothing left to do (a finished session: resuming only shows its result)."""
        return bool(snap.values) and not snap.next and not snap.interrupts and not snap.tasks

    # -- driving ---------------------------------------------------------------------------------------------
    def stop(self, reason: str = "stop") -> None:
        """Ask the running graph to stop at its next safe point. Thread- and signal-safe; idempotent."""
        self._stop_reason = self._stop_reason or reason
        if self._control is not None:
            self._control.request_drain(reason)

    @property
    def stopping(self) -> bool:
        return self._stop_reason is not None

    def run(
        self,
        first_input: dict[str, Any] | None = None,
        *,
        answers: dict[str, str] | None = None,
        answer: Answerer | None = None,
    ) -> Iterator[RunItem]:
        """Stream the session from ``first_input`` (a new session), or continue it (None), answering ``answers``
        ({question id: answer}) first when it waits. ``answer`` is asked each later question while the lock is held.

        Yields `Emitted` events, then exactly one of `Asked`, `Finished` or `Stopped`. Raises `SessionBusy` when
        another process drives the session, and backend errors (e.g. `BackendUnavailable`) as they are: the
        checkpoint before them stands, so the session stays resumable.
        """
        from langgraph.errors import GraphDrained
        from langgraph.runtime import RunControl
        from langgraph.types import Command

        from runshepherd.graph.builder import compile_graph

        if self.deps is None:
            raise RuntimeError("SessionRunner.run needs deps")
        cfg = session_config(self.session, self.max_concurrency)
        self._control = RunControl()
        if self._stop_reason is not None:  # stop() before the run started: stop at the first safe point
            self._control.request_drain(self._stop_reason)
        payload: Any = Command(resume=answers) if answers else first_input
        steps = 0
        with session_lock(self.state_dir, self.session, self.checkpointer), self._open() as saver:
            graph = compile_graph(saver)
            try:
                while True:
                    for mode, chunk in graph.stream(
                        payload,
                        cfg,
                        context=self.deps,
                        stream_mode=["custom", "updates"],
                        durability="sync",
                        control=self._control,
                    ):
                        if mode == "custom" and isinstance(chunk, dict):
                            yield Emitted(chunk)
                        elif mode == "updates":
                            steps += 1
                            if steps % PRUNE_EVERY == 0:
                                self._prune(saver)
                    snap = graph.get_state(cfg)
                    if not snap.interrupts:
                        break
                    questions = self.questions(snap)
                    answers = {q.id: a for q in questions if answer is not None and (a := answer(q)) is not None}
                    if len(answers) < len(questions):
                        yield Asked(questions, dict(snap.values))
                        return
                    payload = Command(resume=answers)
            except GraphDrained:
                yield Stopped(dict(graph.get_state(cfg).values), self._stop_reason or "stop")
                return
            finally:
                self._control = None
            self._prune(saver)
            yield Finished(dict(snap.values))

    def _prune(self, saver: BaseCheckpointSaver[Any]) -> None:
        prune_saver(saver, self.session)
