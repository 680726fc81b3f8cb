"""A sweep started from the conversation ("sweep lr over 1e-3, 3e-4 with sweep-lr.yaml", "run this with 3 seeds").

The same sweep driver as `orchestrate run --sweep` (`sweep/driver.py`: the plan asked once, each point its own
session, a fix question once per diagnosis, one comparison, the follow-ups once), run on a worker thread. Its
questions come to the chat instead of a terminal prompt: the worker waits until the person answers in the
conversation. Duck-types `RunDriver` (busy, waiting, question, answer, wait, stop, values) so the chat's answer,
settle and list code treats a sweep like a run.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runshepherd.sweep.request import sweep_from_request

_SPEC_WORD = re.compile(r"(?<![\w/.-])((?:[\w.~-]+/)*[\w.-]+\.ya?ml)\b")


def spec_said(text: str, cwd: Path) -> Path | None:
    """The spec file a sentence names ('… with examples/sweep-lr.yaml'), if it exists (relative to ``cwd``)."""
    for m in _SPEC_WORD.finditer(text or ""):
        path = Path(m.group(1)).expanduser()
        path = path if path.is_absolute() else cwd / path
        if path.is_file():
            return path
    return None


def is_sweep_request(text: str) -> bool:
    return sweep_from_request(text) is not None


@dataclass
class SweepDriver:
    """One sweep of the conversation on a worker thread; questions wait for the chat's answer."""

    session: str
    on_question: Callable[[str, dict[str, Any]], None]
    on_done: Callable[[str, dict[str, Any]], None]
    on_error: Callable[[str, BaseException], None]
    waiting: dict[str, dict[str, Any]] = field(default_factory=dict)  # one open question at a time
    values: dict[str, Any] | None = None  # {"outcome": …} once the sweep ended
    workflow_id: str | None = None  # a sweep has many; the chat asks the sweep's status instead
    stopped: bool = False
    _answered: threading.Event = field(default_factory=threading.Event)
    _answer: str | None = None
    _idle: threading.Event = field(default_factory=threading.Event)
    _closed: bool = False

    def __post_init__(self) -> None:
        self._idle.set()

    @property
    def busy(self) -> bool:
        return not self._idle.is_set() and not self.waiting

    @property
    def question(self) -> dict[str, Any] | None:
        return next(iter(self.waiting.values()), None)

    def start(self, run: Callable[[], int]) -> None:
        """Run the sweep (``run`` → its exit code) on a worker thread."""
        self._idle.clear()
        threading.Thread(target=self._run, args=(run,), name=f"sweep-{self.session}", daemon=True).start()

    def _run(self, run: Callable[[], int]) -> None:
        try:
            code = run()
            outcome = {0: "COMPLETED", 3: "NEEDS_INPUT"}.get(code, "FAILED")  # the record's own, once read
            self.values = {"outcome": outcome, "sweep": self.session, "paused": code == 3}
            self.on_done(self.session, self.values)
        except BaseException as exc:  # said in the conversation; `orchestrate resume SWEEP` continues it
            self.on_error(self.session, exc)
        finally:
            self._idle.set()

    def prompt(self, kind: str, text: str, default: str, choices: list[str]) -> str | None:
        """The sweep's terminal prompt, answered in the conversation (None when the chat closes first)."""
        if self._closed:
            return None
        self._answer = None
        self._answered.clear()
        self.waiting = {"sweep": {"kind": kind, "text": text, "default": default, "choices": choices}}
        self.on_question(self.session, self.waiting["sweep"])
        self._answered.wait()
        return self._answer

    def answer(self, text: str) -> None:
        if not self.waiting:
            raise RuntimeError("the sweep is not waiting for an answer")
        self.waiting = {}
        self._answer = text
        self._answered.set()

    def stop(self, reason: str = "Ctrl-C") -> None:
        """Leave: an open question is left unanswered (nothing submitted for it); running points continue with
        `orchestrate resume SWEEP`."""
        self._closed = True
        if self.waiting:
            self.waiting = {}
            self._answered.set()

    def wait(self, timeout: float | None = None, until: Callable[[], bool] | None = None) -> bool:
        """Until the sweep ends or asks (or ``until`` holds); True if that happened within ``timeout``."""
        step, waited = 0.05, 0.0
        while not self._idle.is_set() and not self.waiting and not (until is not None and until()):
            if timeout is not None and waited >= timeout:
                return False
            self._idle.wait(step)
            waited += step
        return True
