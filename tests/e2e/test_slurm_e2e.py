"""The whole graph on a real Slurm, through the installed CLI: the main job, the OOM fix loop, and a request
no node can hold (explained as "no node fits", then canceled because --yes takes the default answer)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import EXAMPLES, env_for, json_lines, orchestrate_bin

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backends" / "slurm"))
from slurm_available import slurm_conf_or_skip  # noqa: E402  (the Slurm tests' own "is Slurm here?" check)

TOO_BIG = """\
workflow:
  name: too-big
  resources:
    default: {cpu: 64, memory: 1Gi}
  tasks:
  - name: train
    image: python:3.11-slim
    command: [python, -m, runshepherd.demo.trainer]
    args: [--epochs, "1", --output-dir, "{{output}}"]
"""


def orchestrate(tmp: Path, *args: str, timeout: float = 150) -> subprocess.CompletedProcess[str]:
    env = env_for(tmp)
    env["SLURM_CONF"] = str(slurm_conf_or_skip())
    return subprocess.run(
        [*orchestrate_bin(), *args, "--backend", "slurm", "--yes", "--json", "--cadence", "1"],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def slurm_record(tmp: Path, workflow_id: str) -> dict:
    return json.loads((tmp / "state" / "slurm" / "workflows" / workflow_id / "slurm.json").read_text())


@pytest.mark.slow
def test_main_job_completes_on_slurm(tmp_path: Path) -> None:
    res = orchestrate(tmp_path, "train a small classifier")
    assert res.returncode == 0, res.stderr + res.stdout
    events = json_lines(res.stdout)
    done = events[-1]
    assert done["event"] == "done" and done["outcome"] == "COMPLETED"
    wid = done["workflow_ids"][0]
    record = slurm_record(tmp_path, wid)
    assert record["tasks"] and all(t["job_id"].isdigit() for t in record["tasks"])
    assert done["downloaded"] and any(p.endswith("model.npz") for p in done["downloaded"])


@pytest.mark.slow
def test_oom_fails_as_out_of_memory_and_the_fix_raises_mem(tmp_path: Path) -> None:
    res = orchestrate(tmp_path, "run", "--spec", str(EXAMPLES / "fail-oom.yaml"))
    assert res.returncode == 0, res.stderr + res.stdout
    events = json_lines(res.stdout)
    diagnosis = next(e for e in events if e["event"] == "diagnosis")
    assert diagnosis["label"] == "host_oom"
    assert any("OUT_OF_MEMORY" in line or "OOMKilled" in line for line in diagnosis["evidence"]), diagnosis
    done = events[-1]
    assert done["outcome"] == "COMPLETED" and done["fix_attempts"] == 1
    first, second = done["workflow_ids"][:2]
    assert [t["mem_mb"] for t in slurm_record(tmp_path, first)["tasks"]] == [256]
    assert [t["mem_mb"] for t in slurm_record(tmp_path, second)["tasks"]] == [512]


@pytest.mark.slow
def test_request_larger_than_the_node_is_explained_and_canceled(tmp_path: Path) -> None:
    spec = tmp_path / "too-big.yaml"
    spec.write_text(TOO_BIG)
    res = orchestrate(tmp_path, "run", "--spec", str(spec), timeout=90)
    events = json_lines(res.stdout)
    pending = next(e for e in events if e["event"] == "pending")
    assert pending["kind"] == "node_fit" and "No single machine" in pending["text"]
    answered = next(e for e in events if e["event"] == "answered" and e["kind"] == "pending")
    assert answered["answer"] == "cancel" and answered["automatic"]  # --yes takes the default: cancel
    assert any(e["event"] == "message" and e["text"].startswith("canceled too-big-1") for e in events)
    assert events[-1]["outcome"] == "NEEDS_INPUT" and res.returncode != 0
