"""A plan whose task no node can hold says so without promising what the scheduler will do with it."""

from __future__ import annotations

from pathlib import Path

from runshepherd.subagents.workflow_expert.graph import check

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_a_task_no_node_can_hold_is_not_promised_a_place_in_the_queue() -> None:
    spec = (EXAMPLES / "fail-gpu.yaml").read_text()
    node = {"pool": "debug", "cpu_total": 2, "memory_total_gi": 23.5, "gpu_total": 0}
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
    node = {"pool": "debug", "cpu_total": 2, "memory_total_gi": 23.5, "gpu_total": 0}
    out = check({"spec": spec, "pool": "debug", "nodes": [node], "pools": [], "warnings": [], "refuses_unfit": True})  # type: ignore[typeddict-item]
    assert out["cannot_start"] is None
    assert any(w.endswith("it cannot start there: the scheduler refuses it at submit") for w in out["warnings"])


def test_a_task_a_node_can_hold_goes_on() -> None:
    spec = (EXAMPLES / "fail-gpu.yaml").read_text()
    node = {"pool": "debug", "cpu_total": 8, "memory_total_gi": 64, "gpu_total": 4}
    out = check({"spec": spec, "pool": "debug", "nodes": [node], "pools": [], "warnings": []})  # type: ignore[typeddict-item]
    assert out["cannot_start"] is None
