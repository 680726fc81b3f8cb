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


def test_request_larger_than_every_node_is_never_submitted(tmp_path: Path) -> None:
    """Before: sbatch took it, it pended ('No single machine …') until --yes's default canceled it (mend27)."""
    spec = tmp_path / "too-big.yaml"
    spec.write_text(TOO_BIG)
    res = orchestrate(tmp_path, "run", "--spec", str(spec), timeout=90)
    events = json_lines(res.stdout)
    assert not [e for e in events if e["event"] in ("submitted", "question")]
    assert events[-1]["outcome"] == "FAILED" and res.returncode == 1
    assert "can hold one task: it asks for cpu 64" in events[-1]["reason"]
    assert "is not submitted — ask for at most what one node has" in events[-1]["reason"]


SLOW_POINT = """\
workflow:
  name: slowpt
  resources:
    default: {cpu: 1, memory: 64Mi}
  tasks:
  - name: slow
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["for i in $(seq 1 {{ steps }}); do echo step $i; sleep 1; done"]

default-values:
  steps: 1
"""


def _squeue_ids(env: dict[str, str]) -> set[str]:
    """Every job id Slurm still lists (pending, running or completing), from squeue itself."""
    out = subprocess.run(["squeue", "-h", "-o", "%i"], env=env, capture_output=True, text=True, timeout=30)
    return {line.strip() for line in out.stdout.splitlines() if line.strip()}


@pytest.mark.slow
def test_cancel_sweep_on_slurm_scancels_its_points_and_queued_points_never_start(tmp_path: Path) -> None:
    """Three points, two at a time, on the real Slurm: once both first points' jobs are in squeue, `orchestrate
    cancel SWEEP --yes` from another process; squeue no longer lists them, the third point is never submitted,
    and the sweep ends CANCELED (exit 1) with one submission per started point."""
    import time

    spec = tmp_path / "slowpt.yaml"
    spec.write_text(SLOW_POINT)
    env = env_for(tmp_path)
    env["SLURM_CONF"] = str(slurm_conf_or_skip())
    # a sweep id of its own, so this run's jobs are easy to tell apart in squeue (an earlier run's jobs under the
    # same id would not be adopted: each point's session nonce is part of its keys, tests/graph/test_session_keys.py)
    sid = f"sws{time.time_ns() % 10**9}"
    args = ["run", "--spec", str(spec), "--sweep", "steps=120,121,122", "--max-parallel", "2", "--session", sid]
    proc = subprocess.Popen(
        [*orchestrate_bin(), *args, "--backend", "slurm", "--yes", "--json", "--cadence", "1"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    jobs: set[str] = set()
    try:
        assert proc.stdout is not None
        seen: list[str] = []
        deadline = time.time() + 90
        for line in proc.stdout:  # until both running points are submitted
            seen.append(line)
            if sum('"event": "submitted"' in s for s in seen) == 2 or time.time() > deadline:
                break
        wids = [e["workflow_id"] for e in json_lines("".join(seen)) if e["event"] == "submitted"]
        assert len(wids) == 2, "".join(seen)[-3000:]
        jobs = {t["job_id"] for w in wids for t in slurm_record(tmp_path, w)["tasks"]}
        assert len(jobs) == 2 and jobs <= _squeue_ids(env)  # both points' jobs are in Slurm's queue now
        res = subprocess.run(
            [*orchestrate_bin(), "cancel", sid, "--yes", "--json", "--backend", "slurm"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        said = json.loads(res.stdout)
        assert res.returncode == 0 and said["canceled"] is True and said["canceled_workflows"] == 2, res.stdout
        rest, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
            if jobs:  # a failed run leaves no job of its own running on the shared Slurm
                subprocess.run(["scancel", *jobs], env=env, capture_output=True, timeout=30)
    gone = time.time() + 30
    while jobs & _squeue_ids(env) and time.time() < gone:  # scancel'd: Slurm stops listing them
        time.sleep(0.5)
    assert not jobs & _squeue_ids(env), f"still in squeue: {jobs & _squeue_ids(env)}"
    events = json_lines("".join(seen) + rest)
    done = events[-1]
    assert proc.returncode == 1 and done["event"] == "done" and done["outcome"] == "CANCELED", (done, err[-2000:])
    assert done["reason"].startswith("canceled by you (orchestrate cancel, ")
    assert {r["index"]: r["status"] for r in done["results"]} == {
        1: "FAILED_CANCELED",
        2: "FAILED_CANCELED",
        3: "NOT_STARTED",
    }, done["results"]
    assert sorted(done["workflow_ids"]) == sorted(wids)  # nothing resubmitted, the third point never submitted
    assert len([e for e in events if e["event"] == "submitted"]) == 2
    assert len(list((tmp_path / "state" / "slurm" / "workflows").iterdir())) == 2
