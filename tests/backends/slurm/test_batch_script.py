"""The batch script is a pure function of the backend's decisions: its exact text is checked in.

When the script changes on purpose, regenerate the snapshot with
``RUNSHEPHERD_UPDATE_SNAPSHOTS=1 pytest tests/backends/slurm/test_batch_script.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from runshepherd.backends.slurm.jobs import JobTag
from runshepherd.backends.slurm.script import BatchJob, batch_script, directive
from runshepherd.spec.model import ResourceSpec

SNAPSHOTS = Path(__file__).parent / "snapshots"


def _job(**changes: object) -> BatchJob:
    base = BatchJob(
        workflow_id="train-7",
        task="worker",
        idempotency_key="sess-1/attempt 2",
        partition="debug",
        workflow_dir=Path("/scratch/slurm/workflows/train-7"),
        work_dir=Path("/scratch/slurm/workflows/train-7/tasks/worker/work"),
        scheduler_out=Path("/scratch/slurm/workflows/train-7/tasks/worker/slurm.out"),
        resources=ResourceSpec(cpu=1.5, memory="3Gi", gpu=2),
        priority="LOW",
        after_ok=["41", "42"],
        hold=True,
        exec_seconds=3601,
        python="/opt/venv/bin/python",
        package_parent=Path("/opt/runshepherd"),
    )
    return base.model_copy(update=changes)


def _check(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("RUNSHEPHERD_UPDATE_SNAPSHOTS"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"batch script changed; see {path} (module docstring)"


def test_the_script_for_a_gpu_task_with_upstreams_matches_the_snapshot() -> None:
    _check("gpu_task_with_upstreams.sh", batch_script(_job()))


def test_a_plain_task_asks_only_what_it_needs() -> None:
    text = batch_script(
        _job(
            resources=ResourceSpec(),
            priority="NORMAL",
            after_ok=[],
            hold=False,
            exec_seconds=None,
            idempotency_key=None,
        )
    )
    _check("plain_task.sh", text)
    assert "--dependency" not in text and "--hold" not in text and "--time" not in text and "--gres" not in text


def test_paths_with_spaces_quotes_and_percent_signs_survive() -> None:
    odd = Path("/scratch/my runs/it's #1/50%")
    text = batch_script(
        _job(workflow_dir=odd, work_dir=odd / "work", scheduler_out=odd / "slurm.out", python="/opt/my venv/python")
    )
    _check("odd_paths.sh", text)
    assert '#SBATCH "--output=/scratch/my runs/it\'s #1/50%%/slurm.out"' in text
    assert (
        "exec '/opt/my venv/python' -m runshepherd.backends.slurm.runner '/scratch/my runs/it'\"'\"'s #1/50%'" in text
    )


@pytest.mark.parametrize(
    ("option", "line"),
    [
        ("--ntasks=1", "#SBATCH --ntasks=1"),
        ("--chdir=/a b", '#SBATCH "--chdir=/a b"'),
        ('--comment=say "hi"', '#SBATCH "--comment=say \\"hi\\""'),
        ("--chdir=/x#y", '#SBATCH "--chdir=/x#y"'),
        ("--chdir=C:\\t", '#SBATCH "--chdir=C:\\\\t"'),
    ],
)
def test_directives_quote_what_sbatch_would_split(option: str, line: str) -> None:
    assert directive(option) == line


def test_the_comment_tags_the_job_so_another_process_can_find_it() -> None:
    comment = next(line for line in batch_script(_job()).splitlines() if "--comment=" in line)
    value = comment.split("--comment=", 1)[1].strip('"')
    assert JobTag.parse(value) == JobTag(workflow_id="train-7", task="worker", key="sess-1/attempt 2")
