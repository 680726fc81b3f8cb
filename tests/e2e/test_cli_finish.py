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


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["version"], "did you mean `orchestrate --version`"),
        (["stauts", "x"], "did you mean `orchestrate status`"),
        (["   "], "the request is empty"),
        (["run", "   "], "say what to run"),
        (["classifier"], "one word is not a request"),
    ],
)
def test_typos_and_empty_requests_never_plan_a_job(tmp_path: Path, args: list[str], said: str) -> None:
    res = run(tmp_path, *args)
    assert res.returncode == 2 and said in res.stderr, res.stdout + res.stderr
    assert "plan" not in res.stdout and "Submit" not in res.stdout
    assert not (tmp_path / "state" / "sessions.sqlite").exists()


def test_version_completion_and_help_on_every_option(tmp_path: Path) -> None:
    from importlib.metadata import version

    import typer

    from runshepherd.cli.main import app

    res = run(tmp_path, "--version")
    assert res.returncode == 0 and version("runshepherd") in res.stdout
    comp = _run_env(tmp_path, _ORCHESTRATE_COMPLETE="complete_bash", COMP_WORDS="orchestrate sta", COMP_CWORD="1")
    assert comp.returncode == 0 and "status" in comp.stdout.split()
    listed = run(tmp_path, "--help").stdout
    assert "--install-completion" in listed

    missing = []

    def walk(cmd: object, path: str) -> None:
        for p in getattr(cmd, "params", []):
            if type(p).__name__.endswith("Option") and not getattr(p, "help", None):
                missing.append(f"{path} {p.opts[0]}")
        for name, sub in getattr(cmd, "commands", {}).items():
            walk(sub, f"{path} {name}")

    walk(typer.main.get_group(app), "orchestrate")
    assert missing == []


def test_wording_counts_and_memory() -> None:
    from runshepherd.wording import count, memory

    assert count(1, "GPU") == "1 GPU" and count(2, "GPU") == "2 GPUs" and count(1.0, "CPU") == "1 CPU"
    assert memory(0.4) == "409Mi" and memory(0.0001) == "1Mi" and memory(23.5) == "23Gi"


TICKS = """\
workflow:
  name: ticks
  resources:
    default: {cpu: 1, memory: 128Mi}
  tasks:
  - name: count
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["for i in 1 2 3 4 5 6; do echo tick-$i; sleep 0.5; done"]
"""


def test_logs_follow_prints_each_line_once_and_ends_with_the_workflow(tmp_path: Path) -> None:
    spec = tmp_path / "ticks.yaml"
    spec.write_text(TICKS)
    wid = json_lines(run(tmp_path, "submit", str(spec), "--json").stdout)[0]["workflow_id"]
    res = run(tmp_path, "logs", wid, "-f", timeout=90)
    assert res.returncode == 0, res.stderr
    ticks = [ln for ln in res.stdout.splitlines() if ln.rstrip().endswith(tuple(f"tick-{i}" for i in range(1, 7)))]
    assert [t.rsplit("tick-", 1)[1] for t in ticks] == ["1", "2", "3", "4", "5", "6"], res.stdout
