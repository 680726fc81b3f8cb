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


def test_where_a_read_is_no_scheduler_call_a_first_ask_and_a_change_are_read_at_once() -> None:
    # local: a point first asked about after this tick's read, or woken by its status change, does not wait out a
    # 30-second tick (a two-point sweep of a 6-second job took 32 s; now 8 s)
    now = [0.0]
    be = Batched()
    poll = SharedPoll(  # type: ignore[arg-type]
        be, tick=30.0, clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s), cheap=True
    )
    for w in ("w-0", "w-1"):
        assert poll.query(w).status is Status.RUNNING
    assert now[0] == 0.0 and len(be.calls) == 2  # no sleep: each first ask read at once
    assert poll.query("w-0").status is Status.RUNNING and len(be.calls) == 2  # unchanged: this tick's read serves
    be.done.add("w-0")
    poll.refresh("w-0")  # its backend's change signal woke its monitor
    assert poll.query("w-0").status is Status.COMPLETED and now[0] == 0.0
    assert be.calls[-1] == ["w-0", "w-1"]  # still one batched read for every live point


def test_a_change_signal_does_not_cost_a_scheduler_call_where_reads_are_calls() -> None:
    # Slurm/OSMO never call refresh (no CheapStatus); a first ask after this tick's read still waits for the next
    now = [0.0]
    be = Batched()
    poll = SharedPoll(be, tick=30.0, clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))  # type: ignore[arg-type]
    poll.query("w-0")
    poll.query("w-1")
    assert len(be.calls) == 2 and 30 <= now[0] < 31
