"""What a backend that runs commands directly on POSIX hosts can and cannot honour, checked before anything is
written or started. Shared by the local and the Slurm backend; each passes its own `Host` wording, so a message
names the backend and the machines the person actually uses.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from runshepherd.backends.base import SubmissionRejected
from runshepherd.backends.files.records import WorkflowFiles, object_dir
from runshepherd.spec.tokens import TokenError, substitute_tokens

if TYPE_CHECKING:  # the spec model (pydantic, ~10 ms): loaded by what submits; `list`/`status` only name `Host`
    from runshepherd.spec.model import Workflow


@dataclass(frozen=True)
class Host:
    """How messages name where commands run."""

    backend: str  # "the local backend"
    where: str  # "on this host": where the commands run
    machine: str  # "this machine": where file:// inputs must exist
    runs: str  # "local runs"
    single_pool: str | None = None  # the one pool the backend has, when it has exactly one


def check_workflow(workflow: Workflow, state_dir: Path, base_dir: Path | None, host: Host) -> list[str]:
    """Raise SubmissionRejected listing every problem (each says what to change); return warnings."""
    from runshepherd.backends.files.taskprep import file_url_path

    problems: list[str] = []
    warnings: list[str] = []
    images = sorted({t.image for t in workflow.all_tasks()})
    warnings.append(
        f"{host.backend} runs commands directly {host.where}; image {', '.join(images)} is recorded but not used"
    )
    pool = host.single_pool
    if pool is not None and workflow.pool and workflow.pool != pool:
        warnings.append(f"workflow.pool {workflow.pool!r} is ignored: {host.backend} has one pool, {pool!r}")
    for group in workflow.task_groups():
        hosts = {t.name: "h" for t in group.tasks}
        for t in group.tasks:
            where = f"task {t.name!r}"
            for i, inp in enumerate(t.inputs):
                if inp.dataset is not None:
                    problems.append(
                        f"{where} input {i}: datasets are an OSMO feature — download the data and use "
                        f"`url: file:///path/to/data`, or submit to OSMO"
                    )
                elif inp.url is not None:
                    scheme = urlparse(inp.url).scheme
                    if scheme != "file":
                        problems.append(
                            f"{where} input {i}: {inp.url!r} — {host.backend} reads only file:// URLs; copy "
                            f"the data to {host.machine} and use `url: file:///path/to/data`"
                        )
                    elif not file_url_path(inp.url).exists():
                        problems.append(f"{where} input {i}: {inp.url!r} does not exist on {host.machine}")
                elif inp.task is not None and ":" in inp.task:
                    other, other_task = inp.task.split(":", 1)
                    if not object_dir(state_dir, other, other_task).exists():
                        problems.append(
                            f"{where} input {i}: no stored outputs of task {other_task!r} of workflow {other!r}"
                        )
            for i, out in enumerate(t.outputs):
                if out.url is None:
                    problems.append(
                        f"{where} output {i}: datasets are an OSMO feature — use `url:` or drop the output; "
                        f"{host.runs} keep outputs in the object store anyway"
                    )
            if t.privileged:
                problems.append(f"{where}: `privileged: true` cannot be honoured by {host.backend} — remove it")
            if t.hostNetwork:
                problems.append(f"{where}: `hostNetwork` is a Kubernetes setting — remove it for {host.runs}")
            if t.volumeMounts:
                problems.append(
                    f"{where}: volumeMounts {t.volumeMounts} are not available {host.where} — read the paths through "
                    f"`inputs: - url: file:///…` instead"
                )
            if t.credentials:
                problems.append(
                    f"{where}: credentials ({', '.join(t.credentials)}) come from OSMO's credential store — for "
                    f"{host.runs} remove them and set the variables under `environment:`"
                )
            if t.checkpoint:
                warnings.append(f"{where}: `checkpoint:` is not uploaded by {host.backend}")
            if "RESCHEDULE" in t.exitActions:
                warnings.append(f"{where}: {host.backend} does not retry; RESCHEDULE exit codes fail the task")
            for f in t.files:
                if ".." in PurePosixPath(f.path).parts:  # placed under the task's folder: `..` would leave it
                    problems.append(
                        f"{where}: file path {f.path!r} climbs out with '..' — {host.backend} writes `files:` inside "
                        f"the task's folder; use a path without '..', e.g. /tmp/{PurePosixPath(f.path).name or 'file'}"
                    )
                if f.localpath is not None:
                    src = Path(f.localpath)
                    if not src.is_absolute():
                        src = (base_dir or Path.cwd()) / src
                    if not src.is_file():
                        problems.append(f"{where}: file {f.path!r} has localpath {f.localpath!r}, which is not a file")
            texts = [*t.command, *t.args, *t.environment.values()]
            texts += [f.contents for f in t.files if f.contents is not None and not f.base64]
            for text in texts:
                try:
                    substitute_tokens(text, output="o", inputs=["i"] * len(t.inputs), workflow_id="w", hosts=hosts)
                except TokenError as err:
                    problems.append(f"{where}: {err}")
            if t.outputs:
                urls = ", ".join(o.url for o in t.outputs if o.url)
                warnings.append(
                    f"{where}: outputs declared for {urls} are kept in {host.backend}'s object store "
                    f"(file:// URLs listed on the workflow), not uploaded there"
                )
    if problems:
        raise SubmissionRejected(f"{host.backend} cannot run this spec:\n" + "\n".join(f"  - {p}" for p in problems))
    return warnings


def stage_localfiles(workflow: Workflow, wf: WorkflowFiles, base_dir: Path | None) -> None:
    """Copy `localpath` files into the record now, so the run does not depend on the caller's directory."""
    for t in workflow.all_tasks():
        for index, f in enumerate(t.files):
            if f.localpath is None:
                continue
            src = Path(f.localpath)
            if not src.is_absolute():
                src = (base_dir or Path.cwd()) / src
            dest = wf.localfiles / t.name / str(index)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
