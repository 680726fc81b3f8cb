"""A plan whose task no node can hold says so without promising what the scheduler will do with it."""

from __future__ import annotations

from pathlib import Path

from runshepherd.subagents.workflow_expert.graph import check

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_a_task_no_node_can_hold_is_not_promised_a_place_in_the_queue() -> None:
    spec = (EXAMPLES / "fail-gpu.yaml").read_text()
    node = {"pool": "debug", "cpu_total": 2, "memory_total_gi": 23.5, "gpu_total": 0}
    out = check({"spec": spec, "pool": "debug", "nodes": [node], "pools": [], "warnings": []})  # type: ignore[typeddict-item]
    said = [w for w in out["warnings"] if w.startswith("no node in pool debug can fit one task")]
    # was "— it will wait in the queue": Slurm refuses such a job at sbatch ("Invalid generic resource")
    assert said and "it will wait in the queue" not in said[0] and "or the scheduler refuses it" in said[0], out
