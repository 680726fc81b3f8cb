"""The batch script sbatch is given for one task: a pure function of what the backend decided, so the exact text
is snapshot-tested without a cluster, and a person can read (or resubmit) ``tasks/<task>/job.sh`` as it ran.

Every sbatch option is a ``#SBATCH`` directive in the script rather than a command-line flag: the script is then
the whole record of what was asked of Slurm. The body only runs the in-job runner
(``runshepherd.backends.slurm.runner``), which starts the prepared command and records how it ended.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from runshepherd.backends.slurm.jobs import JobTag, dependency_arg, resource_args, time_limit_minutes
from runshepherd.spec.model import ResourceSpec

_NICE = {"LOW": ["--nice=1000"], "NORMAL": [], "HIGH": []}
_PLAIN = re.compile(r"[^\s\"'\\#]*")  # what sbatch reads in a directive without quoting


class BatchJob(BaseModel):
    """Everything the script depends on; nothing is read from the environment or the clock."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    workflow_id: str
    task: str
    idempotency_key: str | None = None
    partition: str
    workflow_dir: Path = Field(description="the workflow's folder in the shared dir (the runner's first argument)")
    work_dir: Path = Field(description="the task's working directory (--chdir)")
    scheduler_out: Path = Field(description="where Slurm writes the job's own output (--output)")
    resources: ResourceSpec
    priority: str = "NORMAL"
    after_ok: list[str] = Field(default_factory=list, description="job ids of upstream tasks (inputs)")
    hold: bool = Field(False, description="submitted held; a group's jobs are released together")
    exec_seconds: int | None = None
    python: str = Field(description="the interpreter that runs the in-job runner")
    package_parent: Path = Field(description="the folder holding the runshepherd package, put on PYTHONPATH")


def sbatch_options(job: BatchJob) -> list[str]:
    """The sbatch options for one task, in a fixed order."""
    tag = JobTag(workflow_id=job.workflow_id, task=job.task, key=job.idempotency_key)
    options = [
        f"--job-name={job.workflow_id}.{job.task}",
        f"--comment={tag.comment()}",
        f"--partition={job.partition}",
        f"--output={str(job.scheduler_out).replace('%', '%%')}",  # `%` starts a Slurm filename pattern
        f"--chdir={job.work_dir}",
        "--ntasks=1",
        *resource_args(job.resources),
        *_NICE.get(job.priority, []),
        *dependency_arg(job.after_ok),
    ]
    if job.hold:
        options.append("--hold")
    if job.exec_seconds:
        options.append(f"--time={time_limit_minutes(job.exec_seconds)}")
    return options


def directive(option: str) -> str:
    """One ``#SBATCH`` line; sbatch splits directives at whitespace and treats ``#`` as a comment, so an option
    holding either is double-quoted with ``\\`` and ``"`` escaped (sbatch's own directive syntax)."""
    if _PLAIN.fullmatch(option):
        return f"#SBATCH {option}"
    escaped = option.replace("\\", "\\\\").replace('"', '\\"')
    return f'#SBATCH "{escaped}"'


def batch_script(job: BatchJob) -> str:
    """The text of ``job.sh`` for one task."""
    runner = [job.python, "-m", "runshepherd.backends.slurm.runner", str(job.workflow_dir), job.task]
    lines = [
        "#!/bin/sh",
        *(directive(o) for o in sbatch_options(job)),
        "# written by RunShepherd's Slurm backend: run the prepared task and record how it ended",
        f"export PYTHONPATH={shlex.quote(str(job.package_parent))}${{PYTHONPATH:+:$PYTHONPATH}}",
        "exec " + " ".join(shlex.quote(part) for part in runner),
    ]
    return "\n".join(lines) + "\n"
