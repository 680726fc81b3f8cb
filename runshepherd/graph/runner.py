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
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from runshepherd.graph.checkpoint import open_saver, prune_saver, session_driven, session_lock
from runshepherd.graph.context import Deps

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig
    from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple
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
class SessionSnapshot:
    """A session as its latest checkpoint holds it: LangGraph's ``get_state`` answer, in the fields the product reads.

    ``values``: the session state. ``next``: the nodes of the checkpoint's step still to run (sorted). ``tasks``: every
    node of that step, finished or not (sorted). ``interrupts``: the questions still unanswered (LangGraph
    ``Interrupt``s: ``id``, ``value``). ``created_at``: when the checkpoint was written. No session: all empty.
    """

    values: dict[str, Any] = field(default_factory=dict)
    next: tuple[str, ...] = ()
    tasks: tuple[str, ...] = ()
    interrupts: tuple[Any, ...] = ()
    created_at: str | None = None

    @classmethod
    def of(cls, snap: StateSnapshot) -> SessionSnapshot:
        """The graph's own answer (``get_state``) in this form."""
        return cls(
            dict(snap.values or {}),
            tuple(sorted(snap.next)),
            tuple(sorted(t.name for t in snap.tasks)),
            tuple(snap.interrupts),
            snap.created_at,
        )


LAYOUT = 4  # the checkpoint layout (``checkpoint["v"]``) LangGraph 1.x writes, the one `read_checkpoint` knows
BRANCH = "branch:to:"  # the channel an edge (or a Command's goto) writes to start its node in the next step


def read_session(saver: BaseCheckpointSaver[Any], session: str, graph: Any = None) -> SessionSnapshot:
    """The one read of a session: every command, the chat, MCP, sweeps and `run` itself read a session here.

    Its latest checkpoint is read from the checkpointer (``get_tuple``) without building the graph, whose import
    (langgraph.graph, langchain_core's tracers, langsmith) costs ~2 s of CPU per CLI process. Where only the graph
    can say (`read_checkpoint` answers None: a step some of whose tasks already finished, a checkpoint layout this
    reader does not know), LangGraph's ``get_state`` answers: of ``graph`` when given, else of one compiled here.
    """
    cfg = session_config(session)
    snap = read_checkpoint(saver.get_tuple(cast("RunnableConfig", cfg)))
    if snap is None:
        if graph is None:
            from runshepherd.graph.builder import compile_graph

            graph = compile_graph(saver)
        snap = SessionSnapshot.of(graph.get_state(cfg))
    return snap


def read_checkpoint(saved: CheckpointTuple | None) -> SessionSnapshot | None:
    """What ``get_state`` says of the checkpoint ``saved`` (with its pending writes), or None where it cannot be told
    without the graph.

    - ``values``: the checkpoint's channels that are keys of the session state (a key the state no longer has is
      ignored, as the graph ignores it); a key kept with a reducer and never written shows its empty value.
    - ``tasks``: each node whose start channel (``branch:to:NODE``; ``__start__`` for the input) was written after
      the node last saw it, and the node of each ``Send`` waiting in the checkpoint (a fan-out's branches).
    - ``interrupts``: the questions recorded by the step's tasks (a task that asked writes only control writes).
    - None (the graph answers) when a task of the step has finished (its writes must be folded into the values
      with the state's reducers, and it leaves ``next``), when a write precedes the step's tasks (other than the
      answers a resume records before its task runs), when tasks of more than one node ask at once (their order is
      the graph's), and for a channel or layout of LangGraph's not described here.
    """
    try:  # the names LangGraph writes into every checkpoint; private, so a release that moves them reads via the graph
        from langgraph._internal._constants import (
            ERROR,
            ERROR_SOURCE_NODE,
            INTERRUPT,
            NULL_TASK_ID,
            RESUME,
            TASKS,
        )
    except ImportError:
        return None
    from langgraph.constants import START

    from runshepherd.graph.state import SessionState

    if saved is None:
        return SessionSnapshot()
    checkpoint = saved.checkpoint
    if checkpoint.get("v") != LAYOUT:
        return None
    versions: dict[str, Any] = dict(checkpoint["channel_versions"])
    seen: dict[str, dict[str, Any]] = dict(checkpoint["versions_seen"])
    null = next((type(v)() for v in versions.values()), None)
    keys = SessionState.__annotations__
    values: dict[str, Any] = {key: empty() for key, empty in reduced_keys().items()}
    tasks: list[str] = []
    for name, value in checkpoint["channel_values"].items():
        if name in keys:
            values[name] = value
        elif name == TASKS:
            from langgraph.types import Send  # loaded already: the checkpoint's Sends were read as Send

            if not all(isinstance(packet, Send) for packet in value):
                return None
            tasks += [packet.node for packet in value]
        elif name == START or name.startswith(BRANCH):
            node = name.removeprefix(BRANCH)
            node_seen = seen.get(node)
            try:
                if null is not None and (node_seen is None or versions.get(name, null) > node_seen.get(name, null)):
                    tasks.append(node)
            except TypeError:  # versions of two kinds (a store's string versions next to integers)
                return None
        elif name.startswith("__") or ":" in name:
            return None  # another channel of LangGraph's (a join, …): the graph knows what it starts
    asked: dict[str, list[Any]] = {}
    for task_id, channel, value in saved.pending_writes or ():
        if task_id == NULL_TASK_ID:
            if channel == RESUME:
                continue  # a resume's answers, recorded before the task that asked takes them
            return None
        if channel == INTERRUPT:
            asked.setdefault(task_id, []).extend(value if isinstance(value, Sequence) else [value])
        elif channel not in (ERROR, ERROR_SOURCE_NODE, RESUME):
            return None  # the task finished: its writes belong in the values, and it is not next
    if len(asked) > 1 or len({w[0] for w in saved.pending_writes or ()} - {NULL_TASK_ID}) > len(tasks):
        return None
    interrupts = tuple(i for found in asked.values() for i in found)
    ordered = tuple(sorted(tasks))
    return SessionSnapshot(values, ordered, ordered, interrupts, checkpoint["ts"])


@cache
def reduced_keys() -> dict[str, Callable[[], Any]]:
    """The session state's keys kept with a reducer (``Annotated[list[...], operator.add]``), each with how to make
    its value before anything was written: LangGraph starts such a channel at ``T()`` (an empty list), so `get_state`
    shows the key even then."""
    import collections.abc
    import typing

    from runshepherd.graph.state import SessionState

    concrete = {
        collections.abc.Sequence: list,
        collections.abc.MutableSequence: list,
        collections.abc.Set: set,
        collections.abc.MutableSet: set,
        collections.abc.Mapping: dict,
        collections.abc.MutableMapping: dict,
    }
    found: dict[str, Callable[[], Any]] = {}
    for key, hint in typing.get_type_hints(SessionState, include_extras=True).items():
        while typing.get_origin(hint) in (typing.NotRequired, typing.Required):
            (hint,) = typing.get_args(hint)
        if typing.get_origin(hint) is not typing.Annotated or not callable(hint.__metadata__[-1]):
            continue
        kind = typing.get_args(hint)[0]
        kind = typing.get_origin(kind) or kind
        kind = concrete.get(kind, kind)
        try:
            kind()
        except Exception:  # noqa: BLE001 - LangGraph leaves such a channel empty, as this does
            continue
        found[key] = kind
    return found


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

    def snapshot(self) -> SessionSnapshot:
        """The session's latest checkpoint (empty ``values`` when there is no such session). Takes no lock."""
        with self._open() as saver:  # opened first: an unreachable session database is said before langgraph loads
            return read_session(saver, self.session)

    def exists(self) -> bool:
        return bool(self.snapshot().values)

    def questions(self, snap: SessionSnapshot | None = None) -> list[Question]:
        """The questions the session waits on now (none when it is not waiting)."""
        snap = snap if snap is not None else self.snapshot()
        return [Question.of(i.id, i.value) for i in snap.interrupts]

    def driven(self) -> bool:
        """Is some process (this one included) driving the session right now? Read from the session lock."""
        return session_driven(self.state_dir, self.session, self.checkpointer)

    @staticmethod
    def ended(snap: SessionSnapshot) -> bool:
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
                    snap = read_session(saver, self.session, graph)
                    if not snap.interrupts:
                        break
                    questions = self.questions(snap)
                    answers = {q.id: a for q in questions if answer is not None and (a := answer(q)) is not None}
                    if len(answers) < len(questions):
                        yield Asked(questions, dict(snap.values))
                        return
                    payload = Command(resume=answers)
            except GraphDrained:
                yield Stopped(read_session(saver, self.session, graph).values, self._stop_reason or "stop")
                return
            finally:
                self._control = None
            self._prune(saver)
            yield Finished(dict(snap.values))

    def _prune(self, saver: BaseCheckpointSaver[Any]) -> None:
        prune_saver(saver, self.session)
