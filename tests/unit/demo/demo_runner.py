"""Helpers for the demo tests: run the trainer, or one task of an example spec, as a real subprocess."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from runshepherd.spec import load_spec_file
from runshepherd.spec.model import Task
from runshepherd.spec.tokens import substitute_tokens

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
TRAINER = [sys.executable, "-m", "runshepherd.demo.trainer"]


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str
    peak_rss_mib: float

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines()


def run_process(argv: Sequence[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 60) -> Run:
    """Run to completion while sampling the child's RSS every 20 ms (psutil), as a memory-limit monitor would."""
    proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0.0
    child = psutil.Process(proc.pid)
    deadline = time.monotonic() + timeout
    while proc.poll() is None:
        try:
            peak = max(peak, child.memory_info().rss / 2**20)
        except psutil.NoSuchProcess:
            break
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"{argv} did not finish within {timeout}s")
        time.sleep(0.02)
    stdout, stderr = proc.communicate()
    return Run(proc.returncode, stdout, stderr, peak)


def run_trainer(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    return run_process([*TRAINER, *args], cwd=tmp_path, env=env)


def example_task(name: str, task: int = 0) -> Task:
    return load_spec_file(EXAMPLES / name).workflow.tasks[task]


def run_example_task(
    task: Task, workdir: Path, output: Path, inputs: Sequence[Path] = (), extra_args: Sequence[str] = ()
) -> Run:
    """Run one task the way the local backend does: files materialised in its working dir, special tokens
    substituted, ``python`` resolved to this interpreter. ``extra_args`` (e.g. ``--step-delay 0``) keep tests fast."""
    workdir.mkdir(parents=True, exist_ok=True)
    output.mkdir(parents=True, exist_ok=True)

    def sub(text: str) -> str:
        return substitute_tokens(text, output=str(output), inputs=[str(p) for p in inputs], workflow_id="demo-1")

    for item in task.files:
        assert item.contents is not None, f"{task.name}: file {item.path} has no inline contents"
        (workdir / item.path).write_text(sub(item.contents), encoding="utf-8")
    command = [sub(part) for part in task.command]
    if command[0] == "python":
        command[0] = sys.executable
    return run_process([*command, *(sub(a) for a in task.args), *extra_args], cwd=workdir)
