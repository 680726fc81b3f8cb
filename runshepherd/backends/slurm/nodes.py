"""Partitions and nodes from `scontrol show partition|node -o` (one record per line, `Key=Value` pairs)."""

from __future__ import annotations

import re

from runshepherd import wording
from runshepherd.backends.base import Node, Pool

_PAIR = re.compile(r"(?:^|\s)([A-Za-z][A-Za-z0-9:_]*)=(\S*)")
_GPU = re.compile(r"gpu(?::[^:(,]+)?:(\d+)")
MIB_PER_GIB = 1024


def records(text: str) -> list[dict[str, str]]:
    return [dict(_PAIR.findall(line)) for line in text.splitlines() if "=" in line]


def gpu_count(gres: str) -> int:
    """`gpu:2`, `gpu:a100:4(S:0-1)`, `(null)` → 2, 4, 0."""
    return sum(int(n) for n in _GPU.findall(gres or ""))


def _num(rec: dict[str, str], key: str) -> float:
    try:
        return float(rec.get(key, "0"))
    except ValueError:
        return 0.0


def to_node(rec: dict[str, str], pool: str) -> Node:
    cpu_total = _num(rec, "CPUTot")
    mem_total = _num(rec, "RealMemory")
    gpus = gpu_count(rec.get("Gres", ""))
    state = rec.get("State", "UNKNOWN")
    ready = not any(s in state for s in ("DOWN", "DRAIN", "FAIL", "NOT_RESPONDING", "UNKNOWN"))
    return Node(
        hostname=rec.get("NodeName", "?"),
        pool=pool,
        conditions=["Ready" if ready else f"NotReady ({state})"],
        cpu_total=cpu_total,
        cpu_free=max(0.0, cpu_total - _num(rec, "CPUAlloc")),
        memory_total_gi=round(mem_total / MIB_PER_GIB, 2),
        memory_free_gi=round(max(0.0, mem_total - _num(rec, "AllocMem")) / MIB_PER_GIB, 2),
        gpu_total=gpus,
        gpu_free=max(0, gpus - gpu_count(rec.get("GresUsed", ""))),
    )


def nodes_of(node_text: str, partition: str | None) -> list[Node]:
    """One Node per (node, partition) pair; only `partition`'s when given."""
    out = []
    for rec in records(node_text):
        for part in (rec.get("Partitions") or "").split(","):
            if part and (partition is None or part == partition):
                out.append(to_node(rec, part))
    return out


def pools_of(partition_text: str, node_text: str) -> list[Pool]:
    nodes = nodes_of(node_text, None)
    pools = []
    for rec in records(partition_text):
        name = rec.get("PartitionName", "?")
        mine = [n for n in nodes if n.pool == name]
        total = sum(n.gpu_total for n in mine)
        free = sum(n.gpu_free for n in mine)
        state = rec.get("State", "UP")
        biggest = max(mine, key=lambda n: (n.cpu_total, n.memory_total_gi), default=None)
        size = (
            f"; largest node {wording.count(float(biggest.cpu_total), 'CPU')}, {biggest.memory_total_gi:g}Gi"
            if biggest
            else ""
        )
        pools.append(
            Pool(
                name=name,
                description=f"Slurm partition{' (default)' if rec.get('Default') == 'YES' else ''}: "
                f"{len(mine)} node(s), {rec.get('TotalCPUs', '?')} CPUs, max time {rec.get('MaxTime', '?')}{size}",
                status="ONLINE" if state == "UP" else ("MAINTENANCE" if state == "DRAIN" else "OFFLINE"),
                backend="slurm",
                total_capacity=total,
                total_usage=total - free,
                total_free=free,
                notes=[
                    "Slurm runs commands on the nodes directly; `image` is recorded but not used",
                    "quota (QOS/association limits) is not reported; only physical GPU use",
                ],
            )
        )
    return pools


def default_partition(partition_text: str) -> str | None:
    for rec in records(partition_text):
        if rec.get("Default") == "YES":
            return rec.get("PartitionName")
    return None
