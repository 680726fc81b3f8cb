"""Issue 12: exit codes and errors as the README says, and a CLI that does not turn typos into jobs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_helpers import EXAMPLES, env_for, json_lines, orchestrate_bin, run


def _run_env(tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*orchestrate_bin(), *args],
        cwd=tmp,
        env={**env_for(tmp), **env},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("command", [["pools"], ["list"], ["resources"]])
def test_a_slurm_that_is_not_set_up_exits_4_with_one_line(tmp_path: Path, command: list[str]) -> None:
    res = _run_env(tmp_path, *command, "--backend", "slurm", SLURM_CONF=str(tmp_path / "nope" / "slurm.conf"))
    assert res.returncode == 4, res.stdout + res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "slurm.conf" in lines[0] and "does not exist" in lines[0]
    assert "scontrol: error" not in res.stderr and "no workflows yet" not in res.stdout


def test_a_pool_that_does_not_exist_is_exit_2_before_anything_is_submitted(tmp_path: Path) -> None:
    spec = str(EXAMPLES / "train-classifier.yaml")
    res = run(tmp_path, "run", "--spec", spec, "--pool", "nosuchpool", "--yes", "--json")
    assert res.returncode == 2 and "nosuchpool" in res.stderr and "its pools: local" in res.stderr
    assert not [e for e in json_lines(res.stdout) if e["event"] == "submitted"]
    assert not (tmp_path / "state" / "workflows").exists() or not any((tmp_path / "state" / "workflows").iterdir())
