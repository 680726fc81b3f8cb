"""Turn one spec task into a runnable process on a POSIX host: directories, files, tokens, environment, argv.

Pure path/string work except for writing the task's files; the local supervisor or the Slurm job starts it.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from runshepherd.backends.files.records import WorkflowFiles, object_dir
from runshepherd.spec.model import Group, Input, Task
from runshepherd.spec.tokens import substitute_tokens

LOCAL_HOST = "127.0.0.1"


@dataclass(frozen=True)
class PreparedTask:
    argv: list[str]
    cwd: Path
    env: dict[str, str]
    output_dir: Path
    input_dirs: list[str]


def file_url_path(url: str) -> Path:
    parsed = urlparse(url)
    return Path(unquote(parsed.path))


def input_location(inp: Input, wf: WorkflowFiles) -> str:
    """Where `{{input:N}}` points: the upstream task's stored outputs, or a file:// path."""
    if inp.task is not None:
        if ":" in inp.task:
            other_id, other_task = inp.task.split(":", 1)
            return str(object_dir(wf.state_dir, other_id, other_task))
        return str(wf.object_dir(inp.task))
    if inp.url is not None:
        return str(file_url_path(inp.url))
    raise ValueError("dataset inputs are not supported by the local backend")


def placed_path(work: Path, path: str) -> Path:
    """Absolute spec paths live under the task's work dir (`/tmp/x.sh` → `<work>/tmp/x.sh`)."""
    return work / path.lstrip("/") if path.startswith("/") else work / path


class Rewriter:
    """Replaces every absolute `files:` path with where the file really is, in one pass and only as a whole path:
    `/tmp/k` never rewrites part of `/tmp/k2` or of a path already rewritten (`<work>/tmp/k2`)."""

    def __init__(self, mapping: dict[str, str]) -> None:
        self.mapping = mapping
        alternatives = "|".join(re.escape(p) for p in sorted(mapping, key=len, reverse=True))
        self.pattern = re.compile(rf"(?<![\w.-])(?:{alternatives})(?![\w.-])") if mapping else None

    def __call__(self, text: str) -> str:
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda m: self.mapping[m.group(0)], text)


def _python_path() -> str:
    return os.path.dirname(sys.executable)


def task_env(
    task: Task, *, workflow_id: str, output_dir: Path, subst, gpus: list[int] | None, base: dict[str, str]
) -> dict[str, str]:
    env = dict(base)
    for key, value in task.environment.items():
        env[key] = subst(value)
    env["OUTPUT_DIR"] = str(output_dir)
    env["WORKFLOW_ID"] = workflow_id
    env["PYTHONUNBUFFERED"] = "1"
    env["PATH"] = _python_path() + os.pathsep + env.get("PATH", os.defpath)
    # `pip install` inside a task lands in the task's own folder (as it would in a container), never in the
    # environment RunShepherd runs in; the folder is first on PYTHONPATH so the task can import what it installed.
    if "PIP_TARGET" not in task.environment:
        deps = output_dir.parent / "pydeps"
        env["PIP_TARGET"] = str(deps)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(deps), env.get("PYTHONPATH", "")) if p)
    env.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")
    if gpus is not None:
        visible = ",".join(str(i) for i in gpus)
        env["CUDA_VISIBLE_DEVICES"] = visible
        env["NVIDIA_VISIBLE_DEVICES"] = visible or "void"
    return env


def prepare_task(
    wf: WorkflowFiles,
    task: Task,
    group: Group,
    *,
    gpus: list[int] | None = None,
    base_env: dict[str, str] | None = None,
) -> PreparedTask:
    """Create work/output dirs, write files, substitute tokens; raises TokenError/OSError on a bad spec."""
    work = wf.work_dir(task.name)
    output = wf.output_dir(task.name)
    work.mkdir(parents=True, exist_ok=True)
    output.mkdir(parents=True, exist_ok=True)
    inputs = [input_location(inp, wf) for inp in task.inputs]
    hosts = {t.name: LOCAL_HOST for t in group.tasks}

    rewrite = Rewriter({f.path: str(placed_path(work, f.path)) for f in task.files if f.path.startswith("/")})

    def subst(text: str) -> str:
        return rewrite(
            substitute_tokens(text, output=str(output), inputs=inputs, workflow_id=wf.workflow_id, hosts=hosts)
        )

    for index, f in enumerate(task.files):
        dest = placed_path(work, f.path)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if f.localpath is not None:
            shutil.copyfile(wf.localfiles / task.name / str(index), dest)
        elif f.base64:
            dest.write_bytes(base64.b64decode(f.contents or ""))
        else:
            dest.write_text(subst(f.contents or ""), encoding="utf-8")
        dest.chmod(0o755)

    argv = [subst(part) for part in [*task.command, *task.args]]
    env = task_env(
        task,
        workflow_id=wf.workflow_id,
        output_dir=output,
        subst=subst,
        gpus=gpus,
        base=base_env if base_env is not None else dict(os.environ),
    )
    return PreparedTask(argv=argv, cwd=work, env=env, output_dir=output, input_dirs=inputs)
