"""`orchestrate draft`: write and validate a spec for a request without submitting it.

The workflow expert drafts the job; this module then shapes the structure the request names — URL inputs and
outputs (read through `{{input:N}}`, written to `{{output}}`; OSMO moves the data, the script never fetches it), a
container image (a private registry's pull credential is an OSMO REGISTRY credential, never a YAML field), and a
topology constraint under `workflow.resources`. Values the request does not give are placeholders, listed as such.
A drafted spec with a network fetch in a task script is refused.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field

from runshepherd.errors import UsageError
from runshepherd.experts.base import draft_for
from runshepherd.spec.raw_tasks import raw_tasks

_URL = re.compile(r"\b(?:s3|gs|azure|tos|swift)://[^\s'\"<>,;)]+", re.IGNORECASE)
# an image reference, never the host part of a URL (https://example.com/x.csv is data, not an image)
_IMAGE = re.compile(
    r"(?<![\w.-]://)\b((?:[a-z0-9.-]+\.[a-z]{2,}|localhost)(?::\d+)?/[a-z0-9._/-]+(?::[\w.-]+)?)", re.IGNORECASE
)
_TOPOLOGY_KEYS = ("gpu-clique", "nvlink", "rack", "zone", "spine", "block", "hostname")
# What a task script must not do to get data: OSMO's inputs/outputs move it (and a fetch in a script is
# invisible to the scheduler's retries and credentials).
FETCH = re.compile(
    r"\b(?:curl|wget|aria2c|git\s+clone|gsutil\s+(?:-m\s+)?cp|aws\s+s3\s+(?:cp|sync)|azcopy|rclone\s+(?:copy|sync)"
    r"|huggingface-cli\s+download|pip\s+download)\b|https?://",
    re.IGNORECASE,
)
PLACEHOLDER_IN = "s3://your-bucket/inputs/"
PLACEHOLDER_OUT = "s3://your-bucket/outputs/"
PLACEHOLDER_IMAGE = "nvcr.io/your-org/your-image:your-tag"
ENTRY = "/tmp/entry.sh"


class _BlockDumper(yaml.SafeDumper):
    """Multi-line strings (entry scripts) as `|` blocks, readable as written."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _str)


class DraftCues(BaseModel):
    inputs: list[str] = Field(default_factory=list)
    outputs: list[str] = Field(default_factory=list)
    wants_input: bool = False
    wants_output: bool = False
    image: str | None = None
    private_registry: str | None = None
    topology_key: str | None = None
    wants_topology: bool = False


class DraftResult(BaseModel):
    name: str
    text: str
    placeholders: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    replaced_demo: bool = False  # the expert's bundled-demo task was replaced by the input→output skeleton


def parse_cues(request: str) -> DraftCues:
    low = request.lower()
    urls = _URL.findall(request)
    outs = [
        u
        for u in urls
        if re.search(
            rf"(?:to|into|output\w*|writ\w*|sav\w*|upload\w*)\s+(?:\S+\s+){{0,3}}{re.escape(u)}", request, re.I
        )
    ]
    ins = [u for u in urls if u not in outs]
    image = next((m for m in _IMAGE.findall(request) if not m.lower().startswith(("s3", "gs"))), None)
    registry = "nvcr.io" if "nvcr.io" in low else (image.split("/")[0] if image and "private" in low else None)
    key = next((k for k in _TOPOLOGY_KEYS if re.search(rf"\b{re.escape(k)}\b", low)), None)
    return DraftCues(
        inputs=ins,
        outputs=outs,
        wants_input=bool(ins)
        or bool(re.search(r"\b(?:url|uri|storage|bucket)\s+inputs?\b|\binputs?\s+(?:url|uri)\b", low)),
        wants_output=bool(outs)
        or bool(re.search(r"\b(?:url|uri|storage|bucket)\s+outputs?\b|\boutputs?\s+(?:url|uri)\b", low)),
        image=image if image and "." in image.split("/")[0] else None,
        private_registry=registry if ("private" in low or registry) else None,
        topology_key=key,
        wants_topology="topology" in low or key is not None and "topology" in low,
    )


def network_fetches(spec: dict[str, Any]) -> list[str]:
    """Lines of task commands, args and inline files that fetch over the network."""
    wf = spec.get("workflow") or {}
    tasks = raw_tasks(wf)
    found = []
    for t in tasks:
        texts = [*map(str, t.get("command") or []), *map(str, t.get("args") or [])]
        texts += [str(f.get("contents", "")) for f in t.get("files") or []]
        for text in texts:
            found += [f"{t.get('name')}: {ln.strip()}" for ln in text.splitlines() if FETCH.search(ln)]
    return found


def _entry_script(has_input: bool, command: str | None) -> str:
    lines = ["set -euo pipefail"]
    if has_input:
        lines += [
            "# OSMO downloads the first input here before the task starts:",
            'ls -la "{{input:0}}"',
        ]
    lines += ["# Everything written under {{output}} is uploaded when the task ends.", 'mkdir -p "{{output}}"']
    if command:
        lines.append(command)
    elif has_input:
        lines.append('cp -r "{{input:0}}/." "{{output}}/"  # placeholder step: replace with your processing')
    else:
        lines.append('echo "replace with your processing" > "{{output}}/README"  # placeholder step')
    return "\n".join(lines) + "\n"


def shape(spec_text: str, cues: DraftCues) -> DraftResult:
    """Apply the request's structure to the expert's draft (its first task carries inputs and outputs)."""
    spec = yaml.safe_load(spec_text)
    wf = spec["workflow"]
    placeholders: list[str] = []
    notes: list[str] = []
    tasks = wf.get("tasks") or [t for g in wf.get("groups") or [] for t in g.get("tasks") or []]
    task = tasks[0]
    if str(wf.get("name", "")).startswith("draft-") and len(str(wf["name"])) > 6:
        wf["name"] = str(wf["name"])[6:]
    if cues.wants_input:
        urls = cues.inputs or [PLACEHOLDER_IN]
        task["inputs"] = [{"url": u} for u in urls]
        if not cues.inputs:
            placeholders.append(f"input URL {PLACEHOLDER_IN}")
    if cues.wants_output:
        urls = cues.outputs or [PLACEHOLDER_OUT]
        task["outputs"] = [{"url": u} for u in urls]
        if not cues.outputs:
            placeholders.append(f"output URL {PLACEHOLDER_OUT}")
    demo = "runshepherd.demo.trainer" in " ".join(map(str, task.get("command") or []))
    if cues.wants_input or cues.wants_output or cues.image or cues.private_registry:
        if demo:  # the bundled demo is not in a user's image: a skeleton that moves input to output instead
            task["command"] = ["bash", ENTRY]
            task.pop("args", None)
            task["files"] = [{"path": ENTRY, "contents": _entry_script(cues.wants_input, None)}]
            task["name"] = "main"
            placeholders.append(f"the processing step in {ENTRY} (it copies the input to the output)")
    if cues.image or cues.private_registry:
        task["image"] = cues.image or (
            PLACEHOLDER_IMAGE if cues.private_registry == "nvcr.io" else f"{cues.private_registry}/your-image:tag"
        )
        if not cues.image:
            placeholders.append(f"image {task['image']}")
    if cues.private_registry:
        notes.append(
            f"private image on {cues.private_registry}: pulls need a REGISTRY credential on the scheduler — "
            f"`orchestrate credential set NAME --type REGISTRY --registry {cues.private_registry}` "
            "(never a field in this YAML)"
        )
    if cues.wants_topology:
        key = cues.topology_key or "rack"
        profile = wf.setdefault("resources", {}).setdefault("default", {})
        profile["topology"] = [{"key": key, "group": "default", "requirementType": "required"}]
        if not cues.topology_key:
            placeholders.append("topology key 'rack' (use a key your pool defines: `orchestrate pools --json`)")
        notes.append(f"topology: every task on the same {key} (required), under workflow.resources.default")
    fetches = network_fetches(spec)
    if fetches:
        raise UsageError(
            "the drafted spec fetches data over the network inside a task ("
            + "; ".join(fetches[:3])
            + ") — declare the data as `inputs: - url: …` and read it from {{input:0}} instead"
        )
    text = yaml.dump(spec, Dumper=_BlockDumper, sort_keys=False, width=120)
    replaced = demo and task.get("command") == ["bash", ENTRY]
    return DraftResult(name=str(wf["name"]), text=text, placeholders=placeholders, notes=notes, replaced_demo=replaced)


def draft(request: str, expert: Any, cwd: Path, *, not_used: list[str]) -> DraftResult:
    """The expert's draft of a request as it came through the door (`request_text.enter`), shaped and validated
    (our strict model); nothing is submitted."""
    from runshepherd.spec import load_spec_text

    base = draft_for(expert, request, cwd=cwd, not_used=not_used)
    result = shape(base.spec_text, parse_cues(request))
    base_dir = Path(base.base_dir) if base.base_dir else None
    doc = load_spec_text(result.text, source="the drafted spec", base_dir=base_dir)
    missing = [m for m in base.missing if not (result.replaced_demo and "demo" in m)]  # about a task now gone
    notes = [n for n in base.notes if not (result.replaced_demo and "demo" in n)]
    result.notes = [*notes, *(f"not honoured: {m}" for m in missing), *result.notes, *doc.warnings]
    return result
