"""The sweep plan says whether the points fit the pool now — from what the backend reports, 'unknown' otherwise."""

from __future__ import annotations

import re

from runshepherd.backends.base import BackendError, Node, Pool
from runshepherd.spec.model import TaskRequest
from runshepherd.sweep.fit import fit_sentence, read_pool, room, total_ask

GI = 1024**3
POINT = [TaskRequest(cpu=2, gpu=1, memory_bytes=8 * GI)]


def node(name: str, cpu: float, mem: float, gpu: int, pool: str = "gpu-pool", ready: bool = True) -> Node:
    return Node(
        hostname=name,
        pool=pool,
        conditions=["Ready"] if ready else ["NotReady (DOWN)"],
        cpu_total=cpu,
        cpu_free=cpu,
        memory_total_gi=mem,
        memory_free_gi=mem,
        gpu_total=gpu,
        gpu_free=gpu,
    )


class Reporting:
    """A backend double reporting pools and nodes the way the real ones do (or failing to)."""

    name = "osmo"
    default_pool = None

    def __init__(self, pools: list[Pool], nodes: list[Node], fail: bool = False) -> None:
        self._pools, self._nodes, self.fail = pools, nodes, fail

    def pools(self) -> list[Pool]:
        if self.fail:
            raise BackendError("Unable to connect to https://osmo.example: connection refused")
        return self._pools

    def resources(self, pool: str | None = None) -> list[Node]:
        return [n for n in self._nodes if pool is None or n.pool == pool]


def test_points_are_placed_task_by_task_on_what_each_node_has_free() -> None:
    nodes = [node("a", 4, 32, 2), node("b", 2, 4, 0), node("c", 64, 512, 8, ready=False)]
    assert room([POINT] * 6, nodes) == 2  # node a: two GPUs; b has no GPU, c is down
    assert room([POINT] * 6, nodes, gpu_quota_free=1) == 1  # the quota allows one GPU
    assert room([[TaskRequest(cpu=1, memory_bytes=3 * GI)]] * 7, nodes) == 5  # a: 4 by CPU; b: 1 by memory
    assert total_ask([POINT] * 3) == "6 CPUs, 24 GiB memory, 3 GPUs"


def test_plan_says_how_many_run_at_once_and_that_the_rest_queue() -> None:
    be = Reporting([Pool(name="gpu-pool", backend="osmo", quota_free=8, total_free=16)], [node("a", 64, 512, 8)])
    now = read_pool(be, "gpu-pool", 1)  # type: ignore[arg-type]
    verdict, text = fit_sentence([POINT] * 6, now, max_parallel=2)
    assert verdict == "yes"
    assert text.startswith("2 run at once (--max-parallel 2), the other 4 wait for a free slot in the sweep")
    assert "room for the 2 at once in pool gpu-pool" in text and "GPU quota free 8" in text


def test_the_quota_limits_a_sweep_that_the_nodes_could_hold() -> None:
    be = Reporting([Pool(name="gpu-pool", backend="osmo", quota_free=3, total_free=8)], [node("a", 64, 512, 8)])
    verdict, text = fit_sentence([POINT] * 6, read_pool(be, "gpu-pool", 1), max_parallel=6)  # type: ignore[arg-type]
    assert verdict == "partly" and "room for 3 of the 6" in text and "GPU quota free 3" in text
    assert "wait in the scheduler's queue" in text


def test_nothing_free_is_no() -> None:
    be = Reporting([Pool(name="gpu-pool", backend="slurm")], [node("a", 64, 512, 0)])
    verdict, text = fit_sentence([POINT] * 2, read_pool(be, None, 1), max_parallel=2)  # type: ignore[arg-type]
    assert verdict == "no" and text.startswith("all 2 run at once; fits the pool now: no")
    assert "the pool reports no GPU quota, only free GPUs" in text  # never a made-up quota


def test_unknown_when_the_backend_cannot_tell_never_a_number() -> None:
    down = Reporting([], [], fail=True)
    verdict, text = fit_sentence([POINT] * 4, read_pool(down, "gpu-pool", 1), max_parallel=4)  # type: ignore[arg-type]
    assert verdict == "unknown" and "fits the pool now: unknown — the osmo backend could not say" in text
    assert "connection refused" in text and not re.search(r"room for|free on", text)
    none = Reporting([], [node("x", 8, 8, 0, pool="a")])
    verdict, text = fit_sentence([POINT] * 4, read_pool(none, None, 1), max_parallel=4)  # type: ignore[arg-type]
    assert verdict == "unknown" and "lists no pools and none was named" in text
    empty = Reporting([Pool(name="gpu-pool", backend="osmo")], [])
    verdict, text = fit_sentence([POINT], read_pool(empty, "gpu-pool", 1), max_parallel=1)  # type: ignore[arg-type]
    assert verdict == "unknown" and "reports no nodes for pool gpu-pool" in text


def test_no_pool_named_is_the_pool_each_points_plan_would_choose() -> None:
    pools = [
        Pool(name="small", backend="osmo", quota_free=1, total_free=1),
        Pool(name="big", backend="osmo", quota_free=8, total_free=8),
    ]
    be = Reporting(pools, [node("s", 8, 64, 1, pool="small"), node("b", 64, 512, 8, pool="big")])
    now = read_pool(be, None, 1)  # type: ignore[arg-type]
    assert now.name == "big"  # the most free GPUs: what choose_pool (and so every point's plan) picks
    verdict, text = fit_sentence([POINT] * 4, now, max_parallel=4)
    assert verdict == "yes" and "pool big" in text


def test_a_sweep_of_one_point_is_said_in_the_singular() -> None:
    """'--sweep lr=0.1' planned 'all 1 run at once; fits the pool now: yes — room for the 1 at once' and asked
    'Submit 1 workflows (lr=0.1)?'."""
    be = Reporting([Pool(name="gpu-pool", backend="osmo", quota_free=8, total_free=16)], [node("a", 64, 512, 8)])
    verdict, text = fit_sentence([POINT], read_pool(be, "gpu-pool", 1), max_parallel=1)  # type: ignore[arg-type]
    assert verdict == "yes" and text.startswith("one point; fits the pool now: yes — room for it in pool gpu-pool"), (
        text
    )
