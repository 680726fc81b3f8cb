"""A session is read from its checkpoint without building the graph (`runner.read_checkpoint`), and that read says
what LangGraph's own `get_state` says, at every state the product saves.

Each test drives real sessions on the production checkpointers and, after every checkpoint and every pending write
the graph saves, reads the session both ways: `read_checkpoint(saver.get_tuple(...))` and the compiled graph's
`get_state`. Every state a process killed at that instant would leave is one of those, so the stages covered are:
the input, planned, waiting at a question, running, drained (Ctrl-C), a node that raised (an error recorded), a
fan-out (Sends), canceled by the person, failed, finished. The graph answers (`read_checkpoint` says None) only
where a task of the open step has finished (its writes are saved just before the step's checkpoint), nowhere else.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from graph_helpers import EXAMPLES, MANY, Session, make_deps, spec_file
from graph_helpers import HELLO as BASE_HELLO

from runshepherd.backends.base import BackendUnavailable
from runshepherd.backends.local import LocalBackend
from runshepherd.graph.builder import compile_graph
from runshepherd.graph.checkpoint import open_saver
from runshepherd.graph.runner import SessionRunner, SessionSnapshot, read_checkpoint, read_session, session_config

HELLO = BASE_HELLO.replace("echo step 1/2;", "echo step 1/2; sleep 1;")  # a second to stop it in

SLOW = HELLO.replace("sleep 1", "sleep 30")


CONTROL = ("__interrupt__", "__error__", "__error_source_node__", "__resume__")
NULL_TASK = "00000000-0000-0000-0000-000000000000"


class BothReads:
    """The production saver of one session, read both ways after each `put` and `put_writes` the graph makes."""

    def __init__(self, saver: Any, thread: str) -> None:
        self.saver, self.thread = saver, thread
        self.graph = compile_graph(saver)
        self.read: list[tuple[Any, SessionSnapshot]] = []  # (checkpoint tuple, the read without the graph)
        self.graph_only: list[Any] = []  # checkpoint tuples `read_checkpoint` left to the graph
        self.differ: list[tuple[SessionSnapshot, SessionSnapshot]] = []
        self.after: list[Any] = []  # callables run after each check: (snapshot) -> None
        self._lock = threading.Lock()  # no write lands between the two reads
        for name in ("put", "put_writes"):
            setattr(saver, name, self._checked(getattr(saver, name)))

    def _checked(self, method: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                out = method(*args, **kwargs)
                snap = self.check()
            for hook in self.after:
                hook(snap)
            return out

        return call

    def check(self) -> SessionSnapshot:
        cfg = session_config(self.thread)
        saved = self.saver.get_tuple(cfg)
        told = SessionSnapshot.of(self.graph.get_state(cfg))
        mine = read_checkpoint(saved)
        if mine is None:
            self.graph_only.append(saved)
            mine = read_session(self.saver, self.thread)  # the graph's answer, through the one read
        else:
            self.read.append((saved, mine))
        if mine != told:
            self.differ.append((mine, told))
        return told

    def snaps(self) -> list[SessionSnapshot]:
        return [snap for _, snap in self.read]

    def assert_same(self) -> None:
        assert self.differ == []
        assert len(self.read) >= 5
        for saved in self.graph_only:  # only a step with a finished task needs the graph
            finished = [w for w in saved.pending_writes if w[0] != NULL_TASK and w[1] not in CONTROL]
            assert finished, saved.pending_writes


@pytest.fixture
def store(checkpointer: str | None, tmp_path: Path) -> Iterator[Any]:
    with open_saver(tmp_path / "state", checkpointer) as saver:
        yield saver


def test_asked_answered_drained_and_finished(store: Any, tmp_path: Path) -> None:
    backend = LocalBackend(tmp_path / "state")
    both = BothReads(store, "s1")
    s = Session(store, make_deps(backend, tmp_path))
    s.run({"request": "say hello", "spec_path": spec_file(tmp_path, HELLO)}, stop_at_question=True)
    waiting = s.runner.snapshot()
    assert [i.value["kind"] for i in waiting.interrupts] == ["submit"] and waiting.next == ("approve_submit",)
    assert waiting == both.check()

    def drain_once(snap: SessionSnapshot) -> None:  # Ctrl-C while it monitors: it stops at the next safe point
        if snap.next == ("monitor",) and not s.runner.stopping:
            s.runner.stop()

    both.after.append(drain_once)
    s.resume({"submit": "yes"})
    drained = s.runner.snapshot()
    assert type(s.last).__name__ == "Stopped" and drained.next and not drained.values.get("outcome")
    both.after.clear()
    s = Session(store, make_deps(backend, tmp_path))  # `orchestrate resume s1`: a new process, a new runner
    out = s.run(None, answers={"download": "yes", "save_app": "no"})
    assert out["outcome"] == "COMPLETED"
    both.assert_same()
    snaps = both.snaps()
    assert snaps[0].next == ("__start__",) and snaps[0].values == {"reader_results": []}  # the input: no node ran
    assert any(x.next == ("approve_submit",) and not x.interrupts for x in snaps)  # planned, not asked yet
    assert [i.value["kind"] for x in snaps for i in x.interrupts[:1]][:1] == ["submit"]
    assert any(x.next == ("monitor",) for x in snaps)  # running
    # a finished task's writes are saved before its step's checkpoint: the graph reads those instants
    assert both.graph_only and all(x.next for x in snaps[:-1])
    end = s.runner.snapshot()
    assert SessionRunner.ended(end) and end.values["outcome"] == "COMPLETED" and end == both.check()


def test_declined_and_failed(store: Any, tmp_path: Path) -> None:
    backend = LocalBackend(tmp_path / "state")
    both = BothReads(store, "no")
    s = Session(store, make_deps(backend, tmp_path, session_id="no"), thread="no")
    out = s.run({"request": "x", "spec_path": spec_file(tmp_path, HELLO)}, answers={"submit": "no"})
    assert out["outcome"] == "CANCELED" and out["declined"]
    both.assert_same()

    both = BothReads(store, "oom")
    s = Session(store, make_deps(backend, tmp_path, session_id="oom"), thread="oom")
    out = s.run({"request": "oom", "spec_path": str(EXAMPLES / "fail-oom.yaml")}, answers={"resubmit": "no"})
    assert out["outcome"] == "FAILED" and out["outcome_reason"] == "you declined the fix"
    both.assert_same()
    assert any(x.next == ("read_logs_inline",) for x in both.snaps())
    assert any(x.next == ("diagnose_fix",) for x in both.snaps())


def test_a_fan_out_and_a_node_that_raised(store: Any, tmp_path: Path) -> None:
    backend = LocalBackend(tmp_path / "state")
    both = BothReads(store, "many")
    s = Session(store, make_deps(backend, tmp_path, auto_yes=True, max_fixes=0, session_id="many"), thread="many")
    s.run({"request": "many", "spec_path": spec_file(tmp_path, MANY)})
    both.assert_same()
    assert any(x.next == ("read_logs",) * 3 for x in both.snaps())  # the Sends, read without the graph
    assert both.graph_only  # each reader that finished before the others

    class Down:  # the backend stops answering once the workflow is submitted: monitor raises mid-node
        def __getattr__(self, name: str) -> Any:
            if name == "query":
                raise BackendUnavailable("injected: the scheduler stopped answering")
            return getattr(backend, name)

    both = BothReads(store, "down")
    s = Session(store, make_deps(Down(), tmp_path, auto_yes=True, session_id="down"), thread="down")  # type: ignore[arg-type]
    with pytest.raises(BackendUnavailable):
        s.run({"request": "down", "spec_path": spec_file(tmp_path, HELLO)})
    raised = s.runner.snapshot()
    assert raised.next == ("monitor",) and not SessionRunner.ended(raised) and raised == both.check()
    assert any(w[1] == "__error__" for saved, _ in both.read for w in saved.pending_writes)
    s = Session(store, make_deps(backend, tmp_path, auto_yes=True, session_id="down"), thread="down")
    assert s.run(None)["outcome"] == "COMPLETED"  # resumed with the scheduler back
    both.assert_same()


def test_canceled_by_the_person_while_it_runs(store: Any, tmp_path: Path, checkpointer: str | None) -> None:
    from runshepherd.cancel_mark import cancel, find_target

    backend = LocalBackend(tmp_path / "state")
    both = BothReads(store, "cx")
    s = Session(store, make_deps(backend, tmp_path, auto_yes=True, session_id="cx"), thread="cx")

    def cancel_when_running() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            running = [w for w in backend.list_workflows() if w.status.value == "RUNNING"]
            if running:
                t = find_target(backend, tmp_path / "state", "cx", checkpointer)
                cancel(backend, tmp_path / "state", t, via="a test", approved_by="--yes")
                return
            time.sleep(0.2)

    person = threading.Thread(target=cancel_when_running)
    person.start()
    out = s.run({"request": "slow", "spec_path": spec_file(tmp_path, SLOW)})
    person.join()
    assert out["outcome"] == "CANCELED" and out["last_status"]["status"] == "FAILED_CANCELED"
    both.assert_same()
    assert any(x.next == ("monitor",) for x in both.snaps())
    assert SessionRunner.ended(s.runner.snapshot())


def test_a_langgraph_that_moved_its_private_names_is_read_through_the_graph(
    store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The channel names come from a private LangGraph module: a release that moves it must not break `sessions`
    or `cancel` (an ImportError), the graph answers instead."""
    backend = LocalBackend(tmp_path / "state")
    s = Session(store, make_deps(backend, tmp_path))
    s.run({"request": "say hello", "spec_path": spec_file(tmp_path, HELLO)}, stop_at_question=True)
    cfg = session_config(s.runner.session)
    told = SessionSnapshot.of(compile_graph(store).get_state(cfg))
    monkeypatch.setitem(__import__("sys").modules, "langgraph._internal._constants", None)
    assert read_checkpoint(store.get_tuple(cfg)) is None
    assert read_session(store, s.runner.session) == told
    assert [i.value["kind"] for i in told.interrupts] == ["submit"]
