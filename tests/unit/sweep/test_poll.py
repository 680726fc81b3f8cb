"""SharedPoll: one batched read per tick for every workflow of a sweep, terminal statuses never read again."""

from __future__ import annotations

from datetime import UTC, datetime

from runshepherd.backends.base import Status, WorkflowStatus
from runshepherd.sweep.poll import SharedPoll


class Batched:
    """A backend double with the BatchQuery capability; counts scheduler calls."""

    name = "fake"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []
        self.done: set[str] = set()

    def query_many(self, ids: list[str]) -> dict[str, WorkflowStatus]:
        self.calls.append(sorted(ids))
        return {w: self.query(w) for w in ids}

    def query(self, wid: str) -> WorkflowStatus:
        status = Status.COMPLETED if wid in self.done else Status.RUNNING
        return WorkflowStatus(
            workflow_id=wid, name=wid, status=status, pool="p", backend="fake", submit_time=datetime.now(UTC), tasks=[]
        )


def test_one_read_per_tick_for_all_points() -> None:
    now = [0.0]
    be = Batched()
    poll = SharedPoll(be, tick=10.0, clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))  # type: ignore[arg-type]
    ids = [f"w-{i}" for i in range(6)]
    for w in ids:  # first sight after this tick's read: wait for the next tick (here, one after the other)
        poll.query(w)
    assert len(be.calls) == 6 and 50 <= now[0] < 60  # never two reads in one tick
    for _ in range(3):  # every later tick: six monitors, one call covering all six
        now[0] += 10
        for w in ids:
            assert poll.query(w).status is Status.RUNNING
    assert len(be.calls) == 9 and all(len(c) == 6 for c in be.calls[5:])
    be.done.update(ids[:3])
    now[0] += 10
    for w in ids:
        poll.query(w)
    now[0] += 10
    for w in ids:
        poll.query(w)
    assert be.calls[-1] == sorted(ids[3:])  # finished workflows are never read again
