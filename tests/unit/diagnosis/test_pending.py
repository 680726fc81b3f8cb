"""Pending explained: scheduler words in plain language, and quota vs capacity vs per-node fit."""

from __future__ import annotations

from runshepherd.backends.base import Node, Pool
from runshepherd.diagnosis.pending import ResourceRequest, explain_pending, translate


def _pool(name: str, qf: int, tf: int) -> Pool:
    return Pool(name=name, backend="k8s", quota_free=qf, total_free=tf, quota_limit=16, total_capacity=64)


def _nodes(pool: str, n: int, gpus: int = 8, free: int = 8) -> list[Node]:
    return [
        Node(
            hostname=f"{pool}-{i}",
            pool=pool,
            cpu_total=96,
            cpu_free=48,
            memory_total_gi=1024,
            memory_free_gi=512,
            gpu_total=gpus,
            gpu_free=free,
        )
        for i in range(n)
    ]


def test_quota_short_capacity_free_offers_low_priority_with_warning() -> None:
    e = explain_pending([], [_pool("a", 0, 12)], _nodes("a", 2), ResourceRequest(gpu=4, pool="a"))
    assert e.kind == "quota" and e.origin == "quota" and e.suggest_low_priority
    assert any("LOW" in s and "preempt" in s for s in e.suggestions)


def test_capacity_short_says_low_priority_will_not_help() -> None:
    e = explain_pending(
        [], [_pool("a", 8, 2), _pool("b", 16, 16)], _nodes("a", 2, free=1), ResourceRequest(gpu=4, pool="a")
    )
    assert e.kind == "capacity" and not e.suggest_low_priority
    assert "will not help" in e.summary
    assert e.other_pools and e.other_pools[0].startswith("b")


def test_no_single_node_fits_proposes_largest_size() -> None:
    events = [
        "2026-05-08T17:01:05Z  Warning  FailedScheduling  0/6 nodes are available: 6 Insufficient "
        "nvidia.com/gpu (requested 32, max per node 8)."
    ]
    e = explain_pending(
        events, [_pool("h100", 8, 12)], _nodes("h100", 6), ResourceRequest(gpu=32, cpu=64, memory_gi=512, pool="h100")
    )
    assert e.kind == "node_fit" and e.origin == "capacity"
    assert "No single machine" in e.summary and "8 GPUs" in e.summary
    assert e.largest_fit is not None and e.largest_fit.gpu == 8
    assert e.reasons and "GPUs" in e.reasons[0].plain


def test_fragmented_pool_is_per_node_fit() -> None:
    e = explain_pending([], [_pool("a", 16, 12)], _nodes("a", 4, free=3), ResourceRequest(gpu=4, pool="a"))
    assert e.kind == "node_fit" and "no single machine has 4 free" in e.summary


def test_kubernetes_vocabulary_translated() -> None:
    lines = [
        "0/9 nodes are available: 3 node(s) had untolerated taint {dedicated: infra}, 3 node(s) didn't match "
        "Pod's node affinity/selector, 3 Insufficient cpu. preemption: 0/9 nodes are available: 9 Preemption is "
        "not helpful for scheduling.",
        "0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims.",
    ]
    kinds = {r.kind for r in translate(lines)}
    assert {"placement", "capacity", "storage"} <= kinds
    plain = " ".join(r.plain for r in translate(lines))
    assert "taint" not in plain and "PersistentVolumeClaim" not in plain


def test_slurm_reasons_translated() -> None:
    got = {
        r.kind
        for r in translate(
            [
                "JobId=1 JobState=PENDING Reason=QOSMaxGRESPerUser",
                "JobId=2 JobState=PENDING Reason=PartitionTimeLimit",
                "JobId=3 JobState=PENDING Reason=JobHeldAdmin",
                "JobId=4 JobState=PENDING Reason=Dependency",
                "   51234  a100  ft  bob  PENDING  0:00  1 (ReqNodeNotAvail, UnavailableNodes:node-[01-04])",
                "JobId=5 JobState=PENDING Reason=Priority",
                "JobId=6 JobState=PENDING Reason=AssocGrpGRES",
            ]
        )
    }
    assert got == {"quota", "node_fit", "held", "dependency", "placement", "priority"}


def test_reasons_only_classify_from_words() -> None:
    e = explain_pending(["JobId=7 JobState=PENDING Reason=PartitionConfig"], [], [], ResourceRequest(cpu=8))
    assert e.kind == "node_fit" and "forever" in e.summary
