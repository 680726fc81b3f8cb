"""The in-job runner on its own (no cluster needed): a command it stops at exec_timeout never reads as finished,
even when the command exits 0 on being told to stop (a shell whose ``wait`` returns once its children are gone)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TRAPS_AND_EXITS_0 = "trap 'exit 0' TERM; echo working; sleep 30 & wait"


def _workflow(tmp_path: Path, command: str, exec_timeout: float) -> Path:
    root = tmp_path / "state" / "slurm" / "wf-1"
    task_dir = root / "tasks" / "t"
    (task_dir / "work").mkdir(parents=True)
    (root / "slurm.json").write_text(json.dumps({"exec_timeout": exec_timeout}), encoding="utf-8")
    prepared = {"argv": ["sh", "-c", command], "cwd": str(task_dir / "work"), "env": {}}
    (task_dir / "prepared.json").write_text(json.dumps(prepared), encoding="utf-8")
    return root


def _run(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "runshepherd.backends.slurm.runner", str(root), "t"],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_command_that_exits_0_when_stopped_is_still_a_timeout(tmp_path: Path) -> None:
    root = _workflow(tmp_path, TRAPS_AND_EXITS_0, 1)
    done = _run(root)
    record = json.loads((root / "tasks" / "t" / "exit.json").read_text(encoding="utf-8"))
    assert record["timed_out"] is True
    assert done.returncode == 124, "Slurm must not record the stopped job as COMPLETED"
    assert "Task exceeded its exec_timeout of 1s; stopping it" in (root / "tasks" / "t" / "log").read_text()


def test_a_command_that_ends_in_time_keeps_its_own_exit_code(tmp_path: Path) -> None:
    root = _workflow(tmp_path, "echo done; exit 3", 30)
    done = _run(root)
    record = json.loads((root / "tasks" / "t" / "exit.json").read_text(encoding="utf-8"))
    assert done.returncode == 3 and record["exit_code"] == 3 and "timed_out" not in record
