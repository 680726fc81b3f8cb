"""A plan whose task no node can hold says so without promising what the scheduler will do with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runshepherd.backends.base import Node
from runshepherd.diagnosis.pending import ResourceRequest, explain_pending
from runshepherd.subagents.workflow_expert.graph import check

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _node(*, cpu: float, memory: float, gpu: int, name: str = "n1") -> dict[str, Any]:
    return Node(
        hostname=name,
        pool="debug",
        cpu_total=cpu,
        cpu_free=cpu,
        memory_total_gi=memory,
        memory_free_gi=memory,
        gpu_total=gpu,
        gpu_free=gpu,
    ).model_dump()


def test_a_task_no_node_can_hold_is_not_promised_a_place_in_the_queue() -> None:
    spec = (EXAMPLES / "fail-gpu.yaml").read_text()
    node = _node(cpu=2, memory=23.5, gpu=0)
    out = check({"spec": spec, "pool": "debug", "nodes": [node], "pools": [], "warnings": []})  # type: ignore[typeddict-item]
    said = out["cannot_start"]
    # was "— it will wait in the queue" (Slurm refuses such a job at sbatch), then a warning before a submit that
    # could never start: now the plan is not submitted, saying why and what to change
    assert said.startswith("no node in pool debug can hold one task: it asks for gpu 2 (the largest node has 0)")
    assert "is not submitted — ask for at most what one node has (gpu 0, cpu 2, memory 23.5Gi)" in said
    assert "it will wait in the queue" not in said


def test_a_scheduler_that_refuses_it_itself_gets_the_warning_only() -> None:
    """OSMO's capacity validation and Slurm's sbatch refuse such a task at submit (the fix loop answers OSMO's)."""
    spec = (EXAMPLES / "fail-gpu.yaml").read_text()
    node = _node(cpu=2, memory=23.5, gpu=0)
    out = check({"spec": spec, "pool": "debug", "nodes": [node], "pools": [], "warnings": [], "refuses_unfit": True})  # type: ignore[typeddict-item]
    assert out["cannot_start"] is None
    assert any(w.endswith("it cannot start there: the scheduler refuses it at submit") for w in out["warnings"])


def test_a_task_a_node_can_hold_goes_on() -> None:
    spec = (EXAMPLES / "fail-gpu.yaml").read_text()
    node = _node(cpu=8, memory=64, gpu=4)
    out = check({"spec": spec, "pool": "debug", "nodes": [node], "pools": [], "warnings": []})  # type: ignore[typeddict-item]
    assert out["cannot_start"] is None


def test_the_plan_and_the_pending_explanation_judge_the_fit_alike_on_a_pool_of_mixed_machines() -> None:
    """One per-node fit (`diagnosis.pending.never_fits`) for the plan's `cannot_start` and `explain_pending`. Before,
    `explain_pending` compared the task with the pool's largest machine only (most GPUs first), so a task of 2 GPUs
    and 64 CPUs that the 4-GPU, 128-CPU machine holds was said to be one "no single machine can ever hold"."""
    spec = (EXAMPLES / "fail-gpu.yaml").read_text().replace("cpu: 1\n", "cpu: 64\n")
    nodes = [_node(cpu=16, memory=256, gpu=8, name="wide"), _node(cpu=128, memory=256, gpu=4, name="deep")]
    out = check({"spec": spec, "pool": "debug", "nodes": nodes, "pools": [], "warnings": []})  # type: ignore[typeddict-item]
    assert out["cannot_start"] is None
    request = ResourceRequest(gpu=2, cpu=64, memory_gi=8, pool="debug")
    said = explain_pending([], [], [Node.model_validate(n) for n in nodes], request)
    assert said.kind != "node_fit", said.summary
    alone = explain_pending([], [], [Node.model_validate(nodes[0])], request)  # only the 8-GPU, 16-CPU machine
    assert alone.kind == "node_fit" and "it asks for 64 CPUs" in alone.summary, alone.summary
