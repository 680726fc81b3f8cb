"""Issue 16 on the local backend: a sweep's poll tick reads every point's workflow in one pass, and a tick in
which nothing changed opens no file — where polling each workflow on its own opens three files per workflow."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from runshepherd.backends.base import BatchQuery, Status
from runshepherd.backends.local import LocalBackend, MachineInfo

from .conformance import wait_running
from .helpers import spec_from_yaml, sweep_ticks

BIG = MachineInfo(hostname="testbox", cpu_count=64, memory_bytes=64 * 1024**3, gpu_count=0)
POINT = """\
workflow:
  name: point
  resources:
    default: {cpu: 0.1, memory: 32Mi}
  tasks:
  - name: train
    image: ubuntu:24.04
    command: [sh, -c, "echo started; sleep 60"]
"""
WATCHED = ("record.json", "state.json", "supervisor.json")


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[LocalBackend]:
    be = LocalBackend(tmp_path / "state", machine=BIG)
    yield be
    for row in be.list_workflows(limit=100):
        if row.status.alive():
            be.cancel(row.workflow_id)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every read of a workflow's record, state or supervisor file made by this process, by file name."""
    counted: Counter[str] = Counter()
    real = Path.read_text

    def counting(self: Path, *args: object, **kwargs: object) -> str:
        if self.name in WATCHED:
            counted[self.name] += 1
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", counting)
    return counted


def test_six_points_one_pass_per_tick_and_no_file_read_when_nothing_changed(
    backend: LocalBackend, reads: Counter[str]
) -> None:
    assert isinstance(backend, BatchQuery)
    ids = [backend.submit(spec_from_yaml(POINT)).workflow_id for _ in range(6)]
    for w in ids:
        wait_running(backend, w)
    poll, tick = sweep_ticks(backend, ids)  # six monitors, each polled once; tick(): all six poll once
    reads.clear()
    for _ in range(3):
        assert tick() == dict.fromkeys(ids, Status.RUNNING)
    assert poll.reads == 6 + 3  # one read per tick for all six
    assert sum(reads.values()) == 0  # nothing changed: not one record, state or supervisor file opened

    # the same three ticks polled workflow by workflow: three files per workflow per tick
    for _ in range(3):
        for w in ids:
            backend.query(w)
    assert reads == Counter({"record.json": 18, "state.json": 18, "supervisor.json": 18})

    reads.clear()
    backend.cancel(ids[0])
    backend.cancel(ids[1])
    reads.clear()
    got = tick()
    assert got == {**dict.fromkeys(ids[:2], Status.FAILED_CANCELED), **dict.fromkeys(ids[2:], Status.RUNNING)}
    assert reads == Counter({"state.json": 2})  # only the two rewritten state files were opened
    reads.clear()
    tick()
    assert sum(reads.values()) == 0 and poll.reads == 6 + 3 + 2  # finished ones are never read again


def test_batched_statuses_match_single_queries(backend: LocalBackend) -> None:
    ids = [backend.submit(spec_from_yaml(POINT)).workflow_id for _ in range(2)]
    for w in ids:
        wait_running(backend, w)
    many = backend.query_many([*ids, ids[0]])
    assert list(many) == ids  # each id once, in the order asked
    for w in ids:
        one = backend.query(w)
        assert many[w].model_dump(exclude={"duration", "queued_time"}) == one.model_dump(
            exclude={"duration", "queued_time"}
        )
    from runshepherd.backends.base import WorkflowNotFound

    with pytest.raises(WorkflowNotFound):
        backend.query_many([ids[0], "no-such-9"])


def test_a_workflow_whose_files_vanish_mid_sweep_is_not_found_not_a_crash(backend: LocalBackend) -> None:
    from runshepherd.backends.base import WorkflowNotFound

    wid = backend.submit(spec_from_yaml(POINT)).workflow_id
    wait_running(backend, wid)
    assert backend.query_many([wid])[wid].status is Status.RUNNING  # known to the batched read now
    folder = backend.state_dir / "workflows" / wid
    kept = {name: (folder / name).read_bytes() for name in ("record.json", "state.json")}
    try:
        for name in kept:
            (folder / name).unlink()
        with pytest.raises(WorkflowNotFound):  # what a poll can handle, not a FileNotFoundError from a stale cache
            backend.query_many([wid])
    finally:  # restored either way, so the fixture can cancel the running point
        for name, data in kept.items():
            (folder / name).write_bytes(data)
    assert backend.query_many([wid])[wid].status is Status.RUNNING
