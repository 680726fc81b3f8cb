"""`orchestrate explain`: what a workflow does, how it runs, what it produces — a few lines, not a YAML tour.

Works from the template as stored, even when its variables have no defaults (common on OSMO): the spec is read,
not validated, and an unset variable shows as `<name>`.
"""

from __future__ import annotations

import shlex
from typing import Any

import yaml
from pydantic import BaseModel, Field

_LOCAL = "\0localpath:"  # marks a `files:` entry whose text is a file on the submitter's disk, not in the spec
_NOTABLE_ENV = ("EPOCH", "BATCH", "LR", "LEARNING", "MODEL", "DATA", "STEP", "GPU", "SEED", "OUTPUT", "INPUT", "NUM")


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
    parameters: dict[str, Any] = Field(default_factory=dict)
    parameters_are_template_defaults: bool = Field(
        False, description="the run was submitted with other values than these: `tasks` show what ran"
    )
    notes: list[str] = Field(default_factory=list)
    text: str


def _runs(command: list[str], args: list[str], files: dict[str, str]) -> str:
    """Say what actually runs: a script file's main command beats `bash /tmp/entry.sh`."""
    line = shlex.join(command + args)
    for path, contents in files.items():
        if path in line or path.rsplit("/", 1)[-1] in line:
            if contents.startswith(_LOCAL):  # `localpath:` — copied from the submitter's disk, not in the spec
                return f"{line}  (the script {contents.removeprefix(_LOCAL)} from the submitter's disk)"
            if path.endswith(".py"):
                return f"{line}  (a {len(contents.splitlines())}-line Python script from the spec)"
            body = [
                ln.strip()
                for ln in contents.splitlines()
                if ln.strip() and not ln.strip().startswith(("#", "set ", "echo ", "mkdir "))
            ]
            main = next(
                (ln for ln in body if any(k in ln for k in ("python", "torchrun", "accelerate", "deepspeed"))), None
            )
            if main or body:
                cmd = (main or body[0]).rstrip(" \\")[:160]
                return f"{line}  (script runs: {cmd})"
    return line[:200]


def _resources(wf: dict[str, Any], task: dict[str, Any]) -> str:
    profiles = wf.get("resources") or {}
    res = dict(profiles.get(task.get("resource") or "default") or {}) if isinstance(profiles, dict) else {}
    res.update(task.get("resources") or {})
    return ", ".join(f"{k} {res[k]}" for k in ("cpu", "gpu", "memory", "storage") if res.get(k) not in (None, ""))


def _tasks(wf: dict[str, Any]) -> list[dict[str, Any]]:
    out = [t for t in wf.get("tasks") or [] if isinstance(t, dict)]
    for g in wf.get("groups") or []:
        out += [t for t in (g or {}).get("tasks") or [] if isinstance(t, dict)]
    return out


def explain_workflow(backend: Any, workflow_id: str) -> Explanation:
    """A submitted workflow: its template for the parameters, the spec it was submitted as for what runs. Before,
    a run submitted with `--set epochs=7 --set lr=0.3` was explained as running `--epochs 3 --lr 0.5`."""
    notes = [n for p in backend.pools() for n in p.notes]
    template = backend.spec(workflow_id, template=True)  # explain_spec redacts what it shows
    if not template.strip():  # a job submitted outside RunShepherd: there is no spec; before, "0 task(s)"
        return _explain_foreign(backend, workflow_id, notes)
    return explain_spec(template, workflow_id=workflow_id, backend_notes=notes, ran=backend.spec(workflow_id))


def _explain_foreign(backend: Any, workflow_id: str, notes: list[str]) -> Explanation:
    """What the scheduler says of a job RunShepherd did not write: its tasks, its command and output file when the
    backend knows them (`ForeignJobs`); what it runs inside is unknown, and said to be."""
    from runshepherd.backends.base import ForeignJobs
    from runshepherd.logs import redact

    ws = backend.query(workflow_id)
    about = backend.description(workflow_id) if isinstance(backend, ForeignJobs) else None
    said = [ln.lstrip("# ").strip() for ln in (about or "").splitlines() if ln.strip()]
    command = next((ln.removeprefix("command: ") for ln in said if ln.startswith("command: ")), None)
    runs = f"{command} (its contents are not read here)" if command else "unknown (submitted outside RunShepherd)"
    tasks = [TaskExplanation(name=t.name, image="none (runs on the node)", runs=redact(runs)[0]) for t in ws.tasks]
    lines = [f"{workflow_id}: {len(tasks)} task(s), submitted outside RunShepherd — there is no workflow spec"]
    lines += [f"- {t.name}: runs `{t.runs}`" for t in tasks]
    lines += [f"  {ln}" for ln in said if ln.startswith("output: ")]
    lines += [f"note: {n}" for n in notes]
    return Explanation(
        workflow_id=workflow_id, name=ws.name, tasks=tasks, notes=notes, text=redact("\n".join(lines))[0]
    )


def explain_spec(
    spec_text: str, *, workflow_id: str | None = None, backend_notes: list[str] | None = None, ran: str | None = None
) -> Explanation:
    """Explain the spec as stored (never pre-redacted: a redacted value can break its YAML quoting); every value
    shown is redacted here, so no caller prints a literal secret. ``ran``: the spec as the run was submitted;
    when the template's defaults do not give it, what runs is read from it and the defaults are said to be only
    the template's."""
    from runshepherd.logs import redact
    from runshepherd.spec.loader import split_default_values
    from runshepherd.spec.render import render_template

    body, defaults, _ = split_default_values(spec_text)
    rendered, _ = render_template(body, defaults, lenient=True)
    data = yaml.safe_load(rendered) or {}
    as_ran = yaml.safe_load(split_default_values(ran)[0]) if ran is not None else None
    overridden = isinstance(as_ran, dict) and as_ran != data
    if overridden:
        data = as_ran
    wf = data.get("workflow") or {}
    tasks = []
    for t in _tasks(wf):
        env = {
            str(k): redact(str(v))[0]
            for k, v in (t.get("environment") or {}).items()
            if any(n in str(k).upper() for n in _NOTABLE_ENV)
        }
        files = {
            str(f.get("path", "")): str(
                f.get("contents") or (f"{_LOCAL}{f['localpath']}" if f.get("localpath") else "")
            )
            for f in t.get("files") or []
            if isinstance(f, dict)
        }
        inputs = []
        for i in t.get("inputs") or []:
            if isinstance(i, dict):
                inputs.append(f"output of task {i['task']}" if i.get("task") else str(i.get("url") or i.get("dataset")))
        outputs = [str(o.get("url") or o.get("dataset")) for o in t.get("outputs") or [] if isinstance(o, dict)]
        tasks.append(
            TaskExplanation(
                name=str(t.get("name")),
                image=str(t.get("image")),
                runs=redact(
                    _runs([str(c) for c in t.get("command") or []], [str(a) for a in t.get("args") or []], files)
                )[0],
                environment=env,
                inputs=[redact(i)[0] for i in inputs],
                outputs=[redact(o)[0] for o in outputs],
                resources=_resources(wf, t),
            )
        )
    name = str(wf.get("name") or workflow_id or "workflow")
    lines = [f"{workflow_id or name}: {len(tasks)} task(s)"]
    for te in tasks:
        lines.append(
            f"- {te.name}: runs `{te.runs}` in image {te.image}" + (f" ({te.resources})" if te.resources else "")
        )
        if te.environment:
            lines.append("  settings: " + ", ".join(f"{k}={v}" for k, v in te.environment.items()))
        if te.inputs:
            lines.append("  reads: " + ", ".join(te.inputs))
        lines.append(
            "  produces: "
            + (", ".join(te.outputs) if te.outputs else "files written to {{output}} (kept by the scheduler)")
        )
    defaults = {k: redact(v)[0] if isinstance(v, str) else v for k, v in defaults.items()}
    if defaults:
        said = ", ".join(f"{k}={v}" for k, v in defaults.items())
        lines.append(
            f"template defaults: {said} (this run was submitted with other values: its command above is what ran)"
            if overridden
            else f"parameters: {said}"
        )
    notes = list(backend_notes or [])
    lines += [f"note: {n}" for n in notes]
    return Explanation(
        workflow_id=workflow_id,
        name=name,
        tasks=tasks,
        parameters=defaults,
        parameters_are_template_defaults=overridden,
        notes=notes,
        text=redact("\n".join(lines))[0],
    )
