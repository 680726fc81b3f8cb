"""Whether a sweep's points fit the pool now (issue 16: the plan shows every point, the total they ask for and
whether they fit). Read from what the backend reports — its nodes' free CPU, memory and GPUs and, where the pool
reports one, the GPU quota free — and said as "unknown" where it reports nothing: never a made-up number.

A point is counted as fitting when every one of its tasks can be placed, first fit, on a Ready node's free
resources left by the points placed before it (all of a point's tasks counted as running at once, which is exact
for one task or one group and cautious for a pipeline). `--max-parallel K` runs K points at a time; the rest queue
behind them in the sweep, not in the scheduler."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from runshepherd import wording
from runshepherd.backends.base import Backend, BackendError, Node, Pool
from runshepherd.backends.pool_choice import choose_pool, parse_auto
from runshepherd.errors import UsageError
from runshepherd.spec.model import TaskRequest, Workflow

GI = 1024**3
Verdict = Literal["yes", "partly", "no", "unknown"]


def point_tasks(workflow: Workflow) -> list[TaskRequest]:
    """One point's tasks' requests, each as the spec asks (profile overridden by inline resources)."""
    out = []
    for t in workflow.all_tasks():
        r = workflow.resources_for(t)
        out.append(TaskRequest(cpu=float(r.cpu or 0), gpu=int(r.gpu or 0), memory_bytes=int(r.memory_bytes or 0)))
    return out


def total_ask(points: list[list[TaskRequest]]) -> str:
    """What all the points ask for together, e.g. '12 CPU, 24 GiB memory, 0 GPU'."""
    cpu = sum(t.cpu for p in points for t in p)
    mem = sum(t.memory_bytes for p in points for t in p) / GI
    gpu = sum(t.gpu for p in points for t in p)
    return f"{wording.count(float(cpu), 'CPU')}, {mem:.3g} GiB memory, {wording.count(gpu, 'GPU')}"


def _usable(node: Node) -> bool:
    return not any(c.startswith("NotReady") or "SchedulingDisabled" in c for c in node.conditions)


def room(points: list[list[TaskRequest]], nodes: list[Node], gpu_quota_free: int | None = None) -> int:
    """How many of ``points`` (in order) can start now: each task placed first fit on what the nodes have free
    after the points before it; a GPU quota, when reported, caps the GPUs all placed points use together."""
    free = [[n.cpu_free, n.memory_free_gi * GI, float(n.gpu_free)] for n in nodes if _usable(n)]
    quota = gpu_quota_free
    placed = 0
    for tasks in points:
        trial = [list(f) for f in free]
        ok = quota is None or sum(t.gpu for t in tasks) <= quota
        for t in sorted(tasks, key=lambda t: (t.gpu, t.cpu, t.memory_bytes), reverse=True):
            if not ok:
                break
            slot = next((f for f in trial if f[0] >= t.cpu and f[1] >= t.memory_bytes and f[2] >= t.gpu), None)
            if slot is None:
                ok = False
                break
            slot[0] -= t.cpu
            slot[1] -= t.memory_bytes
            slot[2] -= t.gpu
        if not ok:
            break
        free = trial
        if quota is not None:
            quota -= sum(t.gpu for t in tasks)
        placed += 1
    return placed


@dataclass(frozen=True)
class PoolNow:
    """What the backend reported about the sweep's pool just now; ``unknown`` says why it could not tell."""

    name: str | None
    nodes: list[Node]
    pool: Pool | None = None
    unknown: str | None = None


def read_pool(backend: Backend, pool: str | None, gpus_per_point: int) -> PoolNow:
    """The pool the points go to and its nodes' free resources now, from the backend (errors → unknown). The pool
    is chosen the way each point's own plan chooses it (`workflow_expert.check`): the named one (--pool or the
    spec's `pool:`), else — `auto` or none named — `choose_pool` over the pools the backend lists."""
    try:
        pools = backend.pools()
        auto, gpu_type = parse_auto(pool)
        name: str | None = None if auto else pool
        if name is None and pools:
            try:
                name = choose_pool(pools, gpu_type, gpus_per_point).pool
            except UsageError:  # no pool of that GPU type: the points choose among all pools
                name = choose_pool(pools, None, gpus_per_point).pool
        if name is None:
            return PoolNow(None, [], unknown=f"the {backend.name} backend lists no pools and none was named")
        nodes = [n for n in backend.resources(name) if n.pool == name]
    except (BackendError, UsageError) as exc:
        return PoolNow(pool, [], unknown=f"the {backend.name} backend could not say ({exc})")
    if not nodes:
        return PoolNow(name, [], unknown=f"the {backend.name} backend reports no nodes for pool {name}")
    return PoolNow(name, nodes, pool=next((p for p in pools if p.name == name), None))


def fit_sentence(points: list[list[TaskRequest]], now: PoolNow, max_parallel: int) -> tuple[Verdict, str]:
    """The plan's line: how many run at once, whether they fit the pool now (yes, partly, no, unknown), and what
    the rest do."""
    n = len(points)
    at_once = min(max_parallel, n)
    queue = (
        f"{at_once} run at once (--max-parallel {max_parallel}), the other {n - at_once} wait for a free slot in the "
        "sweep; "
        if at_once < n
        else f"all {n} run at once; "
        if n > 1
        else "one point; "
    )
    if now.unknown is not None:
        return "unknown", queue + f"fits the pool now: unknown — {now.unknown}"
    quota = now.pool.quota_free if now.pool is not None else None
    gpus = any(t.gpu for p in points for t in p)
    fit = room(points[:at_once], now.nodes, quota if gpus else None)
    cpu = sum(n.cpu_free for n in now.nodes if _usable(n))
    mem = sum(n.memory_free_gi for n in now.nodes if _usable(n))
    gpu = sum(n.gpu_free for n in now.nodes if _usable(n))
    nodes = wording.count(len(now.nodes), "node")
    free = f"{wording.count(float(cpu), 'CPU')}, {mem:.3g} GiB memory, {wording.count(gpu, 'GPU')} free on {nodes}"
    if gpus:
        free += f", GPU quota free {quota}" if quota is not None else "; the pool reports no GPU quota, only free GPUs"
    where = f"pool {now.name} ({free})"
    if fit >= at_once:
        room_for = f"the {at_once} at once" if at_once > 1 else "it"
        return "yes", queue + f"fits the pool now: yes — room for {room_for} in {where}"
    if fit == 0:
        return (
            "no",
            queue + f"fits the pool now: no — not one point fits what is free in {where}; they wait in the queue",
        )
    return "partly", (
        queue + f"fits the pool now: partly — room for {fit} of the {at_once} in {where}; the others wait in the "
        "scheduler's queue until resources free up"
    )
