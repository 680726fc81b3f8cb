"""A sweep's fix questions, asked once per distinct diagnosis (issue 16: "4 of 6 points failed with gpu_oom: double
memory for all of them?").

Points fail at nearly the same moment (same spec, same bug), but each reaches its question on its own thread. The
first point to reach a question about (kind, label) waits a short window for the other running points, so every
point that failed the same way is in the one question; the others wait for that answer. A point that reaches the
same question later gets the answer given (the driver says so). Points waiting on any question, or finished, are
not waited for."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

Key = tuple[str, str]  # (question kind, diagnosis label)
Who = tuple[int, str]  # (point index, point name)


@dataclass
class OncePerDiagnosis:
    window: float  # seconds the first point waits for other running points to fail the same way
    clock: Callable[[], float] = time.monotonic
    _cond: threading.Condition = field(default_factory=threading.Condition, repr=False)
    _answers: dict[Key, str] = field(default_factory=dict, repr=False)
    _asking: dict[Key, list[Who]] = field(default_factory=dict, repr=False)  # open question → points in it
    _given: dict[Key, str | None] = field(default_factory=dict, repr=False)  # the last group's answer
    _active: int = 0  # points whose session is running (not finished, not waiting on a question)

    def started(self) -> None:
        with self._cond:
            self._active += 1

    def finished(self) -> None:
        with self._cond:
            self._active -= 1
            self._cond.notify_all()

    def answered(self, key: Key) -> str | None:
        with self._cond:
            return self._answers.get(key)

    def ask(self, key: Key, who: Who, prompt: Callable[[list[Who]], str | None]) -> tuple[str | None, list[Who]]:
        """The answer for ``key`` and the points it was asked for. ``prompt(points)`` asks the person once for
        every point that failed the same way (None: no answer — each of them pauses; a later point asks again)."""
        with self._cond:
            if key in self._answers:
                return self._answers[key], []
            self._active -= 1
            self._cond.notify_all()
            if key in self._asking:  # another point is gathering or asking this very question: join it
                group = self._asking[key]
                group.append(who)
                self._cond.wait_for(lambda: key not in self._asking)
                self._active += 1
                return self._given.get(key), group
            group = self._asking[key] = [who]
            self._cond.wait_for(lambda: self._active <= 0, timeout=self.window)
            asked = list(group)
        given = None
        try:
            given = prompt(asked)
        finally:
            with self._cond:
                self._given[key] = given
                if given is not None:
                    self._answers[key] = given
                del self._asking[key]
                self._active += 1
                self._cond.notify_all()
        return given, asked
