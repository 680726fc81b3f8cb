"""What the Slurm backend keeps beside the jobs, in the shared folder: the submission record, each task's
last observation, and the events derived from observed changes.

The layout is the shared one of the file-backed backends (`WorkflowFiles`: ``workflows/<id>/tasks/<task>/
{work,output,log}``, ``objects/<id>/<task>/``), so task preparation and the output store are shared code too.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from runshepherd.backends.base import TaskStatus
from runshepherd.backends.files.records import WorkflowFiles, workflows_root, write_json_atomic


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TaskJob(_Model):
    name: str
    group: str
    lead: bool
    job_id: str
    mem_mb: int | None = None


class SlurmRecord(_Model):
    """Written once at submit."""

    workflow_id: str
    name: str
    pool: str
    priority: str = "NORMAL"
    idempotency_key: str | None = None
    submit_time: datetime
    tasks: list[TaskJob] = Field(default_factory=list)
    declared_outputs: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    exec_timeout: float | None = None
    queue_timeout: float | None = None
    foreign: bool = False  # submitted outside RunShepherd (plain sbatch): its output files are the user's


class Observation(_Model):
    """The last thing seen of one job; once terminal it never needs the scheduler again."""

    state: str = "PENDING"
    reason: str = "None"
    status: TaskStatus = TaskStatus.SUBMITTING
    exit_code: int | None = None
    failure_message: str | None = None
    node: str | None = None
    scheduling_start_time: datetime | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    outputs: list[str] = Field(default_factory=list)
    scheduler_lines_appended: bool = False


class Observations(_Model):
    tasks: dict[str, Observation] = Field(default_factory=dict)
    queue_timed_out: bool = False


class ExitRecord(_Model):
    """Written by the in-job runner when the command ends (the fallback when Slurm has forgotten the job)."""

    exit_code: int
    end_time: datetime
    outputs: list[str] = Field(default_factory=list)
    timed_out: bool = False  # the runner stopped the command at the spec's exec_timeout


class SlurmDir(WorkflowFiles):
    @property
    def slurm_record_path(self) -> Path:
        return self.root / "slurm.json"

    @property
    def observed_path(self) -> Path:
        return self.root / "observed.json"

    @property
    def lock_path(self) -> Path:
        return self.root / "observe.lock"

    def job_script(self, task: str) -> Path:
        return self.task_dir(task) / "job.sh"

    def prepared_path(self, task: str) -> Path:
        return self.task_dir(task) / "prepared.json"

    def exit_path(self, task: str) -> Path:
        return self.task_dir(task) / "exit.json"

    def scheduler_out(self, task: str) -> Path:
        return self.task_dir(task) / "slurm.out"

    def read_slurm_record(self) -> SlurmRecord:
        return SlurmRecord.model_validate_json(self.slurm_record_path.read_text(encoding="utf-8"))

    def read_observed(self) -> Observations:
        try:
            return Observations.model_validate_json(self.observed_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return Observations()

    def write_observed(self, obs: Observations) -> None:
        write_json_atomic(self.observed_path, obs)

    def read_exit(self, task: str) -> ExitRecord | None:
        try:
            return ExitRecord.model_validate_json(self.exit_path(task).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None


def all_slurm_dirs(root: Path) -> list[SlurmDir]:
    base = workflows_root(root)
    if not base.is_dir():
        return []
    return [SlurmDir(p) for p in base.iterdir() if (p / "slurm.json").is_file()]
