"""One batched status read per tick for all workflows of a sweep (issue 16): every point's monitor asks
`SharedPoll.query(id)`. Time is cut into ticks (the monitors' poll interval); the first ask in a tick reads every
live workflow the sweep knows in one backend call (`BatchQuery.query_many`: one `squeue` on Slurm, one pass on local
that opens only the state files rewritten since the last one) and the other points are answered from that read. A
workflow first asked about after this tick's read waits for the next tick (its monitor would have waited that long
anyway), so a tick never costs a second call. A terminal status is final and is never read again. Where a status
change wakes a point and a read costs no scheduler call (local: `CheapStatus`), a first ask and the woken point's
next ask (`refresh`) read at once: a sweep ends when its jobs do, not at the next tick.

A running point's progress line comes from its own log tail; where that read is not cheap (OSMO: one streaming
`osmo workflow logs` call), `progress_due` lets each point read it when its status changed and then once every
`progress_every` ticks, not every tick."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from runshepherd.backends.base import Backend, BackendError, BatchQuery, WorkflowStatus

PROGRESS_EVERY_TICKS = 5  # a running point's log tail, where a log read is a backend call: once per 5 ticks


@dataclass
class SharedPoll:
    backend: Backend
    tick: float  # seconds per tick: the monitors' poll interval
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    reads: int = 0  # batched reads made (each is one backend call where the backend offers BatchQuery)
    progress_every: int = PROGRESS_EVERY_TICKS
    cheap: bool = False  # a read costs no scheduler call (`CheapStatus`): a first ask is read at once, not next tick
    _seen: dict[str, tuple[int, WorkflowStatus]] = field(default_factory=dict, repr=False)
    _waiting: set[str] = field(default_factory=set, repr=False)  # asked about after this tick's read
    _last_tick: int = field(default=-1, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _progress: dict[str, tuple[int, str]] = field(default_factory=dict, repr=False)  # id → (tick, status) last read
    _stale: set[str] = field(default_factory=set, repr=False)  # changed since read: read again at the next ask

    def _tick_of(self, t: float) -> int:
        return math.floor(t / self.tick)

    def query(self, workflow_id: str) -> WorkflowStatus:
        while True:
            with self._lock:
                now = self.clock()
                tick = self._tick_of(now)
                got = self._seen.get(workflow_id)
                stale = workflow_id in self._stale
                if got is not None and (got[1].status.terminal() or (got[0] == tick and not stale)):
                    return got[1]
                if self._last_tick != tick or stale or (got is None and self.cheap):
                    return self._read_all(workflow_id, tick)
                self._waiting.add(workflow_id)  # this tick was read before we knew this workflow
                wait = (tick + 1) * self.tick - now
            self.sleep(max(0.0, wait) + 1e-3)

    def _read_all(self, workflow_id: str, tick: int) -> WorkflowStatus:
        live = [w for w, (_, ws) in self._seen.items() if not ws.status.terminal()]
        wanted = list(dict.fromkeys([workflow_id, *live, *self._waiting]))
        try:
            fresh = self._read(wanted)
        except BackendError:  # another point's workflow must not break this one's poll: read it alone
            fresh = {workflow_id: self.backend.query(workflow_id)}
        self.reads += 1
        self._last_tick = tick
        self._waiting.difference_update(fresh)
        self._stale.difference_update(fresh)
        for wid, ws in fresh.items():
            self._seen[wid] = (tick, ws)
        return fresh[workflow_id]

    def refresh(self, workflow_id: str) -> None:
        """The workflow's status changed (its backend's change signal, where that costs no scheduler call): its next
        ask reads it again, with every live workflow, instead of waiting for the next tick."""
        with self._lock:
            self._stale.add(workflow_id)

    def _read(self, ids: list[str]) -> dict[str, WorkflowStatus]:
        if isinstance(self.backend, BatchQuery):
            return self.backend.query_many(ids)
        return {w: self.backend.query(w) for w in ids}  # no batched read here: one query per live workflow

    def progress_due(self, workflow_id: str, status: str) -> bool:
        """Should this point read its log tail for its progress line now? Yes the first time, when its status
        changed since its last read, and then every `progress_every` ticks (recorded as read when True)."""
        with self._lock:
            tick = self._tick_of(self.clock())
            last = self._progress.get(workflow_id)
            if last is not None and last[1] == status and tick - last[0] < self.progress_every:
                return False
            self._progress[workflow_id] = (tick, status)
            return True
