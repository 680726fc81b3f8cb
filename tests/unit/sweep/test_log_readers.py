"""A sweep's log readers are shared by all its points: when several points fail in the same tick, at most
ceil(failed tasks / 5) readers run at once (one per five tasks across the sweep, not one per point), every task is
still read at the same time, and each point gets back only its own tasks' digests."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from runshepherd.logs import LogConfig
from runshepherd.subagents.logs_reader.graph import ReaderContext, logs_reader
from runshepherd.subagents.logs_reader.pool import SharedReaders


class BlockingLogs:
    """A backend whose log reads all wait for each other: they finish only if every task is read at once."""

    name = "fake"

    def __init__(self, tasks: int) -> None:
        self.barrier = threading.Barrier(tasks, timeout=20)
        self.threads: list[str] = []
        self.lock = threading.Lock()

    def logs(
        self, workflow_id: str, task: str | None = None, *, tail: int | None = None, timeout: Any = None
    ) -> Iterator[str]:
        with self.lock:
            self.threads.append(threading.current_thread().name)
        self.barrier.wait()
        yield f"2026/11/30 10:00:00 [{task}] step 10 loss 0.5"
        yield f"2026/11/30 10:00:01 [{task}] RuntimeError: boom in {workflow_id}/{task}"


@pytest.mark.parametrize(("points", "tasks_each"), [(6, 1), (3, 4), (1, 5), (4, 3)])
def test_points_failing_together_share_one_reader_per_five_tasks(points: int, tasks_each: int) -> None:
    total = points * tasks_each
    be = BlockingLogs(total)
    shared = SharedReaders()
    ctx = ReaderContext(backend=be, config=LogConfig(), readers=shared)
    results: dict[int, dict[str, Any]] = {}

    def point(i: int) -> None:  # what each point's session does when its workflow failed
        tasks = [{"name": f"t{j}", "status": "FAILED"} for j in range(tasks_each)]
        payload = {"workflow_id": f"p{i}-1", "tasks": tasks, "reader": 0, "attempt": 1, "alive": False}
        results[i] = logs_reader.invoke(payload, context=ctx)["result"]

    threads = [threading.Thread(target=point, args=(i,)) for i in range(points)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == points  # every read finished: all the tasks were read at the same time
    readers = {name.rsplit("_", 1)[0] for name in be.threads}
    assert len(readers) == shared.peak == math.ceil(total / 5)  # not one reader per point
    for i, res in results.items():  # each point's digest is about its own workflow only
        assert sorted(res["facts"]) == [f"t{j}" for j in range(tasks_each)]
        assert all(f"p{i}-1/" in (f["root_error"] or "") for f in res["facts"].values())


def test_a_reader_that_went_idle_is_not_counted_again() -> None:
    shared = SharedReaders()
    assert shared.read([lambda: 1, lambda: 2]) == [1, 2]
    assert shared.read([lambda: 3]) == [3]
    assert shared.peak == 1
    with pytest.raises(ZeroDivisionError):  # a failed read is the caller's error, not a hang
        shared.read([lambda: 1 // 0])
