"""Jobs submitted outside RunShepherd (plain `sbatch`, arrays): what `scontrol show job -o` says about them,
as pure functions, so the backend can take them over for watching (``SlurmBackend.adopt``)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel

JOB_ID_RE = re.compile(r"^(?P<job>\d+)(?:_(?P<task>\d+))?$")
MAX_ARRAY_TASKS = 1000


class ForeignJob(BaseModel):
    """One schedulable unit: a plain job, or one array element (its own job id once Slurm has split it)."""

    name: str
    job_id: str
    partition: str | None = None
    submit_time: datetime | None = None
    stdout: str | None = None
    stderr: str | None = None
    command: str | None = None


def fields_of(line: str) -> dict[str, str]:
    """``Key=Value`` pairs of one ``scontrol show job -o`` line (values containing spaces are rare and cut)."""
    out: dict[str, str] = {}
    for token in line.split():
        key, sep, value = token.partition("=")
        if sep and key and key not in out:
            out[key] = value
    return out


def expand_tasks(task_ids: str) -> list[str]:
    """``3``, ``1-4``, ``[1-3,7]``, ``2-10%2`` → single task ids (bounded)."""
    text = task_ids.strip("[]").split("%")[0]
    out: list[str] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        if not lo.isdigit():
            continue
        end = int(hi.split(":")[0]) if hi and hi.split(":")[0].isdigit() else int(lo)
        step = int(hi.split(":")[1]) if ":" in hi else 1
        out.extend(str(i) for i in range(int(lo), end + 1, step))
        if len(out) > MAX_ARRAY_TASKS:
            return out[:MAX_ARRAY_TASKS]
    return out


def _path(template: str | None, fields: dict[str, str], task: str | None) -> str | None:
    """Slurm's filename patterns that `scontrol` may still show unresolved for pending array elements."""
    if not template or template == "(null)":
        return None
    job = fields.get("ArrayJobId") or fields.get("JobId", "")
    return (
        template.replace("%A", job)
        .replace("%a", task or "")
        .replace("%j", fields.get("JobId", ""))
        .replace("%x", fields.get("JobName", ""))
    )


def _time(text: str | None) -> datetime | None:
    if not text or text in ("Unknown", "None", "N/A"):
        return None
    try:
        return datetime.fromisoformat(text).astimezone()
    except ValueError:
        return None


def jobs_of(scontrol_text: str) -> list[ForeignJob]:
    """Every unit of a job or array from `scontrol show job -o ID` output."""
    jobs: list[ForeignJob] = []
    for line in scontrol_text.splitlines():
        f = fields_of(line)
        if "JobId" not in f:
            continue
        name = f.get("JobName") or f["JobId"]
        array = f.get("ArrayJobId")
        tasks = expand_tasks(f.get("ArrayTaskId", "")) if array else []
        common = {
            "partition": f.get("Partition"),
            "submit_time": _time(f.get("SubmitTime")),
            "command": f.get("Command"),
        }
        if not array:
            jobs.append(
                ForeignJob(
                    name=name,
                    job_id=f["JobId"],
                    stdout=_path(f.get("StdOut"), f, None),
                    stderr=_path(f.get("StdErr"), f, None),
                    **common,
                )
            )
            continue
        for t in tasks:
            # Named ARRAY_TASK whether or not Slurm has split it yet (a pending range shares the array's JobId;
            # a started element gets its own): squeue rows are matched on ArrayJobID/ArrayTaskID.
            job_id = f"{array}_{t}"
            jobs.append(
                ForeignJob(
                    name=f"{name}_{t}",
                    job_id=job_id,
                    stdout=_path(f.get("StdOut"), f, t),
                    stderr=_path(f.get("StdErr"), f, t),
                    **common,
                )
            )
    jobs.sort(key=lambda j: _sort_key(j.name))
    return jobs


def _sort_key(name: str) -> tuple[str, int]:
    base, _, n = name.rpartition("_")
    return (base, int(n)) if n.isdigit() else (name, -1)


def workflow_id_for(identity: str) -> str:
    return f"sbatch-{identity}"


def describe(job: ForeignJob) -> str:
    """The 'spec' of a job RunShepherd did not write: what it runs and where its output goes (for `explain`)."""
    lines = [f"# Slurm job {job.job_id} submitted outside RunShepherd (plain sbatch); no workflow spec exists."]
    if job.command:
        lines.append(f"# command: {job.command}")
    if job.stdout:
        lines.append(f"# output: {Path(job.stdout)}")
    return "\n".join(lines) + "\n"


def array_rows(text: str) -> dict[str, str]:
    """``squeue -O ArrayJobID:|,ArrayTaskID:|,<the usual columns>`` → ``{"ARRAY_TASK": the usual row}``; a
    still-pending range row stands for each of its elements."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        array, _, rest = line.partition("|")
        tasks, _, row = rest.partition("|")
        array = array.strip()
        if not array.isdigit():
            continue
        for t in expand_tasks(tasks.strip()):
            out[f"{array}_{t}"] = row
    return out
