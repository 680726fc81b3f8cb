"""`orchestrate explain` of a job submitted outside RunShepherd (followed with `watch 4711 --backend slurm`): there
is no workflow spec, so it says so and shows what the scheduler reported — the job's tasks, its command and output
file. Before: "sbatch-4711: 0 task(s)", while `status` and `diagnose` of the same id showed its task."""

from __future__ import annotations

from typing import Any

from runshepherd.backends.base import Status, TaskState, TaskStatus, WorkflowStatus
from runshepherd.reports.explain import explain_workflow


class _Sbatch:
    """A backend following a plain sbatch job, as the Slurm backend does: no spec, a description."""

    name = "slurm"

    def pools(self) -> list[Any]:
        return []

    def spec(self, workflow_id: str, *, template: bool = False) -> str:
        return ""

    def query(self, workflow_id: str) -> WorkflowStatus:
        task = TaskState(name="tokjob", group="tokjob", status=TaskStatus.FAILED, exit_code=1)
        return WorkflowStatus(
            workflow_id=workflow_id, name="tokjob", status=Status.FAILED, backend="slurm", tasks=[task]
        )

    def description(self, workflow_id: str) -> str | None:
        return (
            "# Slurm job 4711 submitted outside RunShepherd (plain sbatch); no workflow spec exists.\n"
            "# command: /home/me/job.sh --token hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123\n# output: /home/me/out-4711.log\n"
        )


def test_explain_of_a_plain_sbatch_job_shows_its_task_command_and_output() -> None:
    got = explain_workflow(_Sbatch(), "sbatch-4711")
    assert got.text.splitlines()[:3] == [
        "sbatch-4711: 1 task(s), submitted outside RunShepherd — there is no workflow spec",
        "- tokjob: runs `/home/me/job.sh --token [REDACTED:hf_token] (its contents are not read here)`",
        "  output: /home/me/out-4711.log",
    ], got.text
    assert [t.name for t in got.tasks] == ["tokjob"] and "hf_AbCd" not in got.model_dump_json()
