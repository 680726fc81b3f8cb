"""Issue 16 on OSMO: the monitors of a 6-point sweep share one `osmo workflow list` per tick, narrowed with the
CLI's own filters; a workflow is queried on its own only when the list says its status changed (its tasks' detail)
or the list does not return it."""

from __future__ import annotations

import json
from pathlib import Path

from runshepherd.backends.base import BatchQuery, Status

from ..conformance import wait_running
from ..helpers import spec_from_yaml, sweep_ticks
from . import fake_env
from .conftest import MakeBackend

POINT = """\
workflow:
  name: sweep-point
  tasks:
  - name: train
    image: ubuntu:24.04
    command: [sh, -c, "sleep 60"]
"""


def calls(home: Path) -> list[list[str]]:
    return [json.loads(line) for line in (home / "calls.jsonl").read_text().splitlines()]


def test_six_points_one_workflow_list_per_tick(make_backend: MakeBackend, server_home: Path) -> None:
    be = make_backend(FAKE_OSMO_EXECUTE="0", FAKE_OSMO_RUN_SECONDS="60")
    assert isinstance(be, BatchQuery)
    ids = [be.submit(spec_from_yaml(POINT), pool="fake-pool").workflow_id for _ in range(6)]
    for w in ids:
        wait_running(be, w)
    poll, tick = sweep_ticks(be, ids)  # six monitors, each polled once; tick(): all six poll once
    start = len(calls(server_home))
    for _ in range(3):
        assert tick() == dict.fromkeys(ids, Status.RUNNING)
    made = calls(server_home)[start:]
    assert len(made) == 3 and all(c[:2] == ["workflow", "list"] for c in made)  # one call per tick, not six
    listed = made[0]
    assert listed[listed.index("--name") + 1] == "sweep-point" and "--submitted-after" in listed
    assert listed[listed.index("--order") + 1] == "desc"
    ws = poll.query(ids[2])
    assert ws.tasks and ws.tasks[0].name == "train" and ws.links.overview  # the tasks of its last full query

    for w in ids[:2]:
        be.cancel(w)
    start = len(calls(server_home))
    got = tick()
    assert got == {**dict.fromkeys(ids[:2], Status.FAILED_CANCELED), **dict.fromkeys(ids[2:], Status.RUNNING)}
    made = calls(server_home)[start:]
    # the list, then a full query of exactly the two whose status changed: their tasks say how they ended
    assert [c[:2] for c in made] == [["workflow", "list"]] + [["workflow", "query"]] * 2
    assert {c[2] for c in made[1:]} == set(ids[:2])
    assert all(t.status.value == "FAILED_CANCELED" for t in poll.query(ids[0]).tasks)
    start = len(calls(server_home))
    tick()
    assert [c[:2] for c in calls(server_home)[start:]] == [["workflow", "list"]]  # finished ones: never again
    for w in ids[2:]:
        be.cancel(w)


def test_ids_the_list_does_not_return_are_queried_alone(make_backend: MakeBackend, server_home: Path) -> None:
    be = make_backend([fake_env.EVAL_FIXTURES / "default"])
    wanted = ["oom-train-1", "gr00t-train-1"]  # served by `workflow query` only / also a row of the list
    start = len(calls(server_home)) if (server_home / "calls.jsonl").exists() else 0
    got = be.query_many(wanted)
    made = calls(server_home)[start:]
    assert [c[:2] for c in made].count(["workflow", "list"]) == 1
    assert {c[2] for c in made if c[:2] == ["workflow", "query"]} == set(wanted)  # not listed / first sight
    assert got["oom-train-1"].status is be.query("oom-train-1").status
    assert "--name" not in made[0]  # the names share nothing: no name filter rather than a wrong one
