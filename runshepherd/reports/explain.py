"""`orchestrate explain`: what a workflow does, how it runs, what it produces — a few lines, not a YAML tour."""

from __future__ import annotations

import shlex

from pydantic import BaseModel, Field

_NOTABLE_ENV = ("EPOCHS", "BATCH", "LR", "LEARNING", "MODEL", "DATA", "STEPS", "GPU", "SEED", "OUTPUT")


class TaskExplanation(BaseModel):
    name: str
    image: str
    runs: str
    environment: dict[str, str] = Field(default_factory=dict)
    inputs: list[str] = Field(default_factory=list)
    outputs: list[str] = Field(default_factory=list)
    resources: str = ""


class Explanation(BaseModel):
    workflow_id: str | None
    name: str
    tasks: list[TaskExplanation]
    notes: list[str] = Field(default_factory=list)
    text: str


def _runs(command: list[str], args: list[str], files: dict[str, str]) -> str:
    """Say what actually runs: a script file's first meaningful command beats `bash /tmp/entry.sh`."""
    line = shlex.join(command + args)
    for path, contents in files.items():
        if path in line or path.rsplit("/", 1)[-1] in line:
            body = [ln.strip() for ln in contents.splitlines() if ln.strip() and not ln.strip().startswith(("#", "set "))]
            main = next((ln for ln in body if any(k in ln for k in ("python", "torchrun", "accelerate", "deepspeed"))), None)
            if main or body:
                return f"{line}  (script runs: {(main or body[0])[:160]})"
    return line[:200]


def explain_spec(spec_text: str, *, workflow_id: str | None = None, backend_notes: list[str] | None = None) -> Explanation:
    from runshepherd.logs.redact import redact
    from runshepherd.spec import load_spec_text

    doc = load_spec_text(spec_text)
    wf = doc.workflow
    tasks = []
    for t in wf.all_tasks():
        env = {k: redact(v)[0] for k, v in t.environment.items() if any(n in k.upper() for n in _NOTABLE_ENV)}
        r = wf.resources_for(t)
        res = ", ".join(x for x in (f"cpu {r.cpu:g}" if r.cpu else "", f"gpu {r.gpu}" if r.gpu else "",
                                     f"memory {r.memory}" if r.memory else "") if x)
        tasks.append(
            TaskExplanation(
                name=t.name,
                image=t.image,
                runs=_runs(t.command, t.args, {f.path: f.contents or "" for f in t.files}),
                environment=env,
                inputs=[i.task and f"output of task {i.task}" or i.url or f"dataset {i.dataset.name}" for i in t.inputs if i.task or i.url or i.dataset],
                outputs=[o.url or (o.dataset.name if o.dataset else "") for o in t.outputs],
                resources=res,
            )
        )
    lines = [f"{workflow_id or wf.name}: {len(tasks)} task(s)"]
    deps = wf.group_dependencies()
    if any(deps.values()):
        lines[0] += ", run in order of their inputs"
    for te in tasks:
        lines.append(f"- {te.name}: runs `{te.runs}` in image {te.image}" + (f" ({te.resources})" if te.resources else ""))
        if te.environment:
            lines.append("  settings: " + ", ".join(f"{k}={v}" for k, v in te.environment.items()))
        if te.inputs:
            lines.append("  reads: " + ", ".join(te.inputs))
        lines.append("  produces: " + (", ".join(te.outputs) if te.outputs else "files written to {{output}} (kept by the scheduler)"))
    notes = list(backend_notes or [])
    lines += [f"note: {n}" for n in notes]
    return Explanation(workflow_id=workflow_id, name=wf.name, tasks=tasks, notes=notes, text="\n".join(lines))
