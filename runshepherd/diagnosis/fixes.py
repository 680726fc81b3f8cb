"""Turn a diagnosis into a minimal, visible spec change (a unified diff), or a precise suggestion when no safe edit exists.

Edits are made line by line at positions ruamel.yaml reports (or at literal text the rule can locate), so the rest
of the file — comments, order, quoting — is untouched. Jinja variables (``{{ var }}``) are never edited; the OSMO
tokens ``{{output}}``, ``{{input:N}}``, ``{{workflow_id}}`` and ``{{host:x}}`` are not Jinja variables. A patch
that does not validate is dropped.

A description is the bare action ("Lower the learning rate ×0.1 (--lr 50 → 5)"): whether it is proposed or was
applied is said by the framing that shows it (`wording.proposed` / `wording.applied`) and, in JSON, by a field.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from typing import Any

from runshepherd import wording
from runshepherd.backends.base import Node
from runshepherd.diagnosis.models import Diagnosis, Fix
from runshepherd.diagnosis.packages import PIP_NAMES
from runshepherd.diagnosis.pending import size_to_capacity

# binaries whose apt package has another name
APT_NAMES: dict[str, str] = {
    "pip": "python3-pip",
    "python": "python3",
    "convert": "imagemagick",
    "nvcc": "cuda-toolkit",
    "aws": "awscli",
    "ffprobe": "ffmpeg",
    "7z": "p7zip-full",
}

_OSMO_TOKEN = re.compile(r"\{\{\s*(?:outputs?|input:\d+|workflow_id|host:[\w\-]+)\s*\}\}")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}")


def pip_package(module: str) -> str:
    """The pip package that provides an import name (``cv2`` → ``opencv-python-headless``)."""
    if module in PIP_NAMES:
        return PIP_NAMES[module]
    top = module.split(".")[0]
    return PIP_NAMES.get(top, top.replace("_", "-"))


def has_jinja(text: str) -> bool:
    """True when ``text`` contains a Jinja expression other than OSMO's special tokens."""
    return bool(_JINJA.search(_OSMO_TOKEN.sub("", text)))


# ------------------------------------------------------------------------------------------- YAML access
@dataclass
class _Spec:
    text: str
    lines: list[str]
    doc: Any  # ruamel CommentedMap or None when the text is a template that does not parse
    on_host: bool = False  # its tasks run on the machine itself (local, Slurm), not in a container image

    def tasks(self) -> list[Any]:
        wf = self.doc.get("workflow") if self.doc is not None else None
        if not isinstance(wf, dict):
            return []
        out = list(wf.get("tasks") or [])
        for g in wf.get("groups") or []:
            out.extend(g.get("tasks") or [])
        return [t for t in out if isinstance(t, dict)]

    def task(self, name: str | None) -> Any:
        ts = self.tasks()
        for t in ts:
            if name is not None and t.get("name") == name:
                return t
        return ts[0] if len(ts) == 1 or name is None and ts else None

    def resource_maps(self, task_name: str | None) -> list[Any]:
        """The resource mappings that size a task: inline `resources`, else the workflow profile it names."""
        wf = self.doc.get("workflow") if self.doc is not None else None
        if not isinstance(wf, dict):
            return []
        targets = [self.task(task_name)] if task_name else self.tasks()
        out: list[Any] = []
        profiles = wf.get("resources") or {}
        for t in targets:
            if t is None:
                continue
            inline = t.get("resources")
            if isinstance(inline, dict):
                out.append(inline)
                continue
            prof = profiles.get(t.get("resource") or "default") if isinstance(profiles, dict) else None
            if isinstance(prof, dict) and all(prof is not o for o in out):
                out.append(prof)
        if not out and isinstance(profiles, dict) and isinstance(profiles.get("default"), dict):
            out.append(profiles["default"])
        return out


def _load(text: str, *, on_host: bool = False) -> _Spec:
    from ruamel.yaml import YAML  # imported on use: diagnosing a log never needs it

    yaml = YAML(typ="rt")
    try:
        doc = yaml.load(io.StringIO(text))
    except Exception:  # a Jinja template ({% … %}, unquoted {{ }}) is not YAML: text-level edits only
        doc = None
    return _Spec(text, text.splitlines(keepends=True), doc if isinstance(doc, dict) else None, on_host)


def _set_value(spec: _Spec, mapping: Any, key: str, new: str) -> bool:
    """Replace the scalar of ``key`` on its own line; False if it is not a plain literal there."""
    if key not in mapping:
        return False
    line_no, col = mapping.lc.value(key)
    line = spec.lines[line_no]
    old = mapping[key]
    rest = line[col:]
    m = re.match(r"""(["']?)([^"'#\s,{}\[\]]+)\1""", rest)  # flow style: `{cpu: 1, memory: 64Mi}`
    if m is None or has_jinja(str(old)) or m.group(2) != str(old):
        return False
    q = m.group(1)
    spec.lines[line_no] = line[:col] + f"{q}{new}{q}" + rest[m.end() :]
    return True


# ------------------------------------------------------------------------------------------- units
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGTP]i?)?[Bb]?\s*$")
_TO_GI = {
    None: 1 / 1024**3,
    "K": 1e3 / 1024**3,
    "Ki": 1 / 1024**2,
    "M": 1e6 / 1024**3,
    "Mi": 1 / 1024,
    "G": 1e9 / 1024**3,
    "Gi": 1.0,
    "T": 1e12 / 1024**3,
    "Ti": 1024.0,
    "P": 1e15 / 1024**3,
    "Pi": 1024.0**2,
}


def size_gi(value: Any) -> float | None:
    m = _SIZE.match(str(value))
    if not m:
        return None
    return float(m.group(1)) * _TO_GI[m.group(2)]


fmt_gi = wording.memory


_DURATION = re.compile(r"^\s*(\d+)\s*([smhd])\s*$")


def fmt_float(x: float) -> str:
    s = f"{x:.3g}"
    return s.replace("e-0", "e-").replace("e+0", "e+")


# ------------------------------------------------------------------------------------------- rules
def _diff(old: str, new: str) -> str:
    import difflib

    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), fromfile="a/spec.yaml", tofile="b/spec.yaml"
        )
    )


def _valid(old: str, new: str) -> bool:
    """The patched spec must load as well as the original did (full validator when it passes, else YAML)."""
    import yaml

    from runshepherd.spec import loader

    try:
        loader.load_spec_text(old)
        original_ok = True
    except Exception:
        original_ok = False
    if original_ok:
        try:
            loader.load_spec_text(new)
            return True
        except Exception:
            return False

    try:
        yaml.safe_load(old)
    except yaml.YAMLError:
        return not has_jinja(new) or _jinja_untouched(old, new)
    try:
        yaml.safe_load(new)
        return True
    except yaml.YAMLError:
        return False


def _jinja_untouched(old: str, new: str) -> bool:
    return _JINJA.findall(_OSMO_TOKEN.sub("", old)) == _JINJA.findall(_OSMO_TOKEN.sub("", new))


Result = tuple[str | None, str]  # (new text or None, description)


def fix_host_oom(diag: Diagnosis, spec: _Spec, nodes: list[Node] | None) -> Result:
    if diag.fix.kind == "reduce_memory":  # the evidence says too much ran at once: more memory is not the answer
        return None, diag.fix.description
    cap = None
    if nodes:
        biggest = max(n.memory_total_gi for n in nodes)
        cap = size_to_capacity(biggest, 50)
    changed: list[str] = []
    for res in spec.resource_maps(diag.task):
        cur = size_gi(res.get("memory")) if "memory" in res else None
        if cur is None:
            continue
        target = cur * 2
        if cap is not None:
            target = min(target, cap)
        if target <= cur:
            return None, (
                f"Memory is already at what the largest node allows ({res.get('memory')}); lower the batch "
                "size, data-loader workers or chunk size instead."
            )
        if _set_value(spec, res, "memory", fmt_gi(target)):
            changed.append(f"memory {res.get('memory')} → {fmt_gi(target)}")
    if not changed:
        return (
            None,
            "Raise the task's `memory` request (start by doubling it); the spec has no literal memory value "
            "to change (it is missing or a template variable).",
        )
    capped = f" (capped by the largest node, {cap}Gi usable)" if cap is not None else ""
    return "".join(spec.lines), f"Double the memory request: {', '.join(changed)}{capped}."


_BATCH_FLAG = re.compile(
    r"(?P<k>--(?:per[_-]device[_-]train[_-]batch[_-]size|train[_-]batch[_-]size|micro[_-]batch[_-]size|"
    r"batch[_-]size|global[_-]batch[_-]size|bs)|(?<![\w.-])(?:[\w.]+\.)?(?:train_)?batch_size)(?P<sep>=|\s+|[\"']?\s*,\s*[\"']?)"
    r"(?P<v>\d+)\b"
)
_BATCH_ENV = re.compile(
    r"^(?P<pre>\s*(?:-\s*)?(?:\w*_)?(?:BATCH_SIZE|BATCH|BS)\s*:\s*)(?P<q>[\"']?)(?P<v>\d+)(?P=q)\s*(?:#.*)?$"
)
_ACCUM = re.compile(
    r"(?P<k>--gradient[_-]accumulation[_-]steps|--grad[_-]accum(?:ulation)?(?:[_-]steps)?|"
    r"(?<![\w.-])(?:[\w.]+\.)?(?:accumulate_grad_batches|gradient_accumulation_steps))(?P<sep>=|\s+|[\"']?\s*,\s*[\"']?)(?P<v>\d+)\b"
)


def fix_gpu_oom(diag: Diagnosis, spec: _Spec, nodes: list[Node] | None) -> Result:
    if diag.fix.kind == "increase_memory":  # more than the whole device: a smaller batch alone will not fit
        return None, diag.fix.description
    changed: list[str] = []
    for i, line in enumerate(spec.lines):
        if line.lstrip().startswith("#"):
            continue
        m = _BATCH_ENV.match(line.rstrip("\n"))
        if m and int(m.group("v")) > 1:
            new = str(max(1, int(m.group("v")) // 2))
            spec.lines[i] = line[: m.start("v")] + new + line[m.end("v") :]
            changed.append(f"{m.group('pre').strip().rstrip(':').lstrip('- ')} {m.group('v')} → {new}")
            continue

        def halve(mm: re.Match[str]) -> str:
            v = int(mm.group("v"))
            if v <= 1:
                return mm.group(0)
            changed.append(f"{mm.group('k')} {v} → {v // 2}")
            return f"{mm.group('k')}{mm.group('sep')}{v // 2}"

        spec.lines[i] = _BATCH_FLAG.sub(halve, line)
    if not changed:
        return None, (
            "The spec exposes no batch size to change. Lower the batch size in the code, or enable "
            "gradient accumulation / activation checkpointing, or request GPUs with more memory."
        )
    accum: list[str] = []
    for i, line in enumerate(spec.lines):

        def double(mm: re.Match[str]) -> str:
            accum.append(f"{mm.group('k')} {mm.group('v')} → {int(mm.group('v')) * 2}")
            return f"{mm.group('k')}{mm.group('sep')}{int(mm.group('v')) * 2}"

        spec.lines[i] = _ACCUM.sub(double, line)
    keep = (
        (", with gradient accumulation doubled to keep the effective batch (" + ", ".join(accum) + ")")
        if accum
        else "; add gradient accumulation if the effective batch size matters"
    )
    return "".join(spec.lines), f"Halve the batch size ({', '.join(changed)}){keep}."


_LR_FLAG = re.compile(
    r"(?P<k>--(?:lr|learning[_-]rate|base[_-]lr|max[_-]lr|peak[_-]lr)|(?<![\w.-])(?:[\w.]+\.)?(?:lr|learning_rate))"
    r"(?P<sep>=|\s+|[\"']?\s*,\s*[\"']?)(?P<v>\d*\.?\d+(?:[eE][-+]?\d+)?)(?![\w.])"
)
_LR_TEMPLATED = re.compile(
    r"--(?:lr|learning[_-]rate|base[_-]lr|max[_-]lr|peak[_-]lr)[\"']?(?:=|\s*,\s*|\s+)(?:-\s*)?[\"']?"
    r"\{\{\s*(?P<var>\w+)\s*\}\}"
)
_LR_ENV = re.compile(
    r"^(?P<pre>\s*(?:-\s*)?(?:\w*_)?(?:LR|LEARNING_RATE)\s*:\s*)(?P<q>[\"']?)(?P<v>\d*\.?\d+(?:[eE][-+]?\d+)?)(?P=q)\s*(?:#.*)?$"
)


def fix_nan(diag: Diagnosis, spec: _Spec, nodes: list[Node] | None) -> Result:
    changed: list[str] = []
    for i, line in enumerate(spec.lines):
        if line.lstrip().startswith("#"):
            continue
        m = _LR_ENV.match(line.rstrip("\n"))
        if m:
            new = fmt_float(float(m.group("v")) * 0.1)
            spec.lines[i] = line[: m.start("v")] + new + line[m.end("v") :]
            changed.append(f"{m.group('pre').strip().rstrip(':').lstrip('- ')} {m.group('v')} → {new}")
            continue

        def tenth(mm: re.Match[str]) -> str:
            new = fmt_float(float(mm.group("v")) * 0.1)
            changed.append(f"{mm.group('k')} {mm.group('v')} → {new}")
            return f"{mm.group('k')}{mm.group('sep')}{new}"

        spec.lines[i] = _LR_FLAG.sub(tenth, line)
    if not changed:
        if m := _LR_TEMPLATED.search(spec.text):  # the value comes from `--set` or default-values, not the text
            return None, (
                f"Lower the learning rate ×0.1 by resubmitting with a smaller `--set {m.group('var')}=…` (the spec "
                f"takes it as the template variable {m.group('var')}), add gradient clipping, and check the data "
                "for empty or corrupted samples."
            )
        return None, (
            "Lower the learning rate ×0.1 in the code (the spec sets none), add gradient clipping, and check the "
            "data for empty or corrupted samples."
        )
    return (
        "".join(spec.lines),
        f"Lower the learning rate ×0.1 ({', '.join(changed)}); also consider gradient clipping and checking the data.",
    )


def fix_timeout(diag: Diagnosis, spec: _Spec, nodes: list[Node] | None) -> Result:
    wf = spec.doc.get("workflow") if spec.doc is not None else None
    to = wf.get("timeout") if isinstance(wf, dict) else None
    if isinstance(to, dict) and "exec_timeout" in to:
        m = _DURATION.match(str(to["exec_timeout"]))
        if m:
            new = f"{int(m.group(1)) * 2}{m.group(2)}"
            if _set_value(spec, to, "exec_timeout", new):
                return "".join(spec.lines), (
                    f"Double the time limit (exec_timeout {to['exec_timeout']} → {new}); "
                    "also save checkpoints so a stopped run can resume."
                )
    return None, (
        "Raise the time limit (`timeout.exec_timeout`, format like 4h) — the spec has no literal value "
        "to double — and save checkpoints regularly so the run can resume."
    )


_MOD = re.compile(r"No module named '?(?P<m>[\w.]+)'?")
_BIN = re.compile(
    r"(?P<b>[\w.+\-/]+): command not found|(?:sh|bash): (?:\d+: |line \d+: )?(?P<b2>[\w.+\-/]+): not found"
    r"|exec: \"?(?P<b3>[\w.+\-/]+)\"?: executable file not found"
)


def fix_dependency(diag: Diagnosis, spec: _Spec, nodes: list[Node] | None) -> Result:
    text = "\n".join(diag.evidence)
    mm, bm = _MOD.search(text), _BIN.search(text)
    if mm:
        pkg = pip_package(mm.group("m"))
        step, what = f"pip install --no-cache-dir {pkg}", f"the Python package '{pkg}' (import '{mm.group('m')}')"
    elif bm:
        b = (bm.group("b") or bm.group("b2") or bm.group("b3")).rsplit("/", 1)[-1]
        apt = APT_NAMES.get(b, b)
        if spec.on_host:  # installing it would change the person's machine or the cluster's nodes: they decide
            return None, (
                f"Install the program '{b}' on the machine the tasks run on (e.g. `apt-get install -y {apt}` as an "
                "administrator, or `module load` on a cluster), or correct the command name, then resubmit. Not "
                "applied automatically: installing system packages would change that machine."
            )
        step, what = f"apt-get update && apt-get install -y {apt}", f"the program '{b}'"
    elif spec.on_host:
        return None, "Install the missing program or package where the tasks run, or correct its name, then resubmit."
    else:
        return None, "Install the missing program or package at the start of the script, or use an image that has it."
    new = _insert_script_step(spec, diag.task, step)
    if new is None:
        return None, (
            f"Install {what} before the main command (add `{step}` at the top of the entry script), or use "
            "a container image that already includes it."
        )
    return new, f"Install {what} at the start of the entry script (`{step}`); or bake it into the image."


def _insert_script_step(spec: _Spec, task: str | None, step: str) -> str | None:
    """Insert ``step`` after the shebang/`set` lines of the task's entry script (a `files:` block), or into `bash -c`."""
    if spec.doc is not None:
        from ruamel.yaml.comments import CommentedMap  # imported on use, like the loader

        t = spec.task(task)
        if t is not None:
            for f in t.get("files") or []:
                if isinstance(f, CommentedMap) and (
                    "contents" in f
                    and str(f.get("path", "")).endswith((".sh", ".bash"))
                    or str(f.get("contents", "")).startswith("#!")
                ):
                    line_no, _ = f.lc.value("contents")
                    return _insert_after_header(spec, line_no + 1, step)
            cmd = list(t.get("command") or [])
            if len(cmd) >= 3 and cmd[0] in ("bash", "sh", "/bin/bash", "/bin/sh") and cmd[1] in ("-c", "-lc", "-ec"):
                seq = t["command"]
                line_no, col = seq.lc.item(2)
                line = spec.lines[line_no]
                old = str(cmd[2])
                first = old.splitlines()[0] if old else ""
                pos = line.find(first, col)
                if first and pos >= 0:
                    spec.lines[line_no] = line[:pos] + step + " && " + line[pos:]
                    return "".join(spec.lines)
        return None
    # a template that does not parse: only a literal shebang inside a `contents: |` block is safe to find
    for i, line in enumerate(spec.lines):
        if re.match(r"\s*contents:\s*\|", line):
            return _insert_after_header(spec, i + 1, step)
    return None


def _insert_after_header(spec: _Spec, start: int, step: str) -> str | None:
    if start >= len(spec.lines):
        return None
    first = spec.lines[start]
    indent = first[: len(first) - len(first.lstrip())]
    i = start
    while i < len(spec.lines) and re.match(re.escape(indent) + r"(#!|set -|set\s+-)", spec.lines[i]):
        i += 1
    spec.lines.insert(i, f"{indent}{step}\n")
    return "".join(spec.lines)


def fix_outputs(diag: Diagnosis, spec: _Spec, nodes: list[Node] | None) -> Result:
    typo = re.compile(r"\{\{\s*outputs\s*\}\}")
    if not typo.search(spec.text):
        return None, (
            "The spec already writes to {{output}}; check that the script really saves its files under "
            "that folder (not a local path) and that an output URL is declared."
        )
    lines = [ln if ln.lstrip().startswith("#") else typo.sub("{{output}}", ln) for ln in spec.lines]  # not comments
    return "".join(lines), "Replace `{{outputs}}` with `{{output}}` (the folder OSMO uploads)."


_ROW = re.compile(r"^\s*(gpu|cpu|memory|storage)\s+(\S+)\s+(\S+)\s*$", re.IGNORECASE)


def _node_capacity(diag: Diagnosis, nodes: list[Node] | None) -> dict[str, float]:
    cap: dict[str, float] = {}
    for line in diag.evidence:
        m = _ROW.match(line.split("] ", 1)[-1] if "] " in line else line)
        if m:
            v = size_gi(m.group(3)) if m.group(1).lower() in ("memory", "storage") else float(m.group(3))
            if v is not None:
                cap[m.group(1).lower()] = v
    if not cap and nodes:
        n = max(nodes, key=lambda x: (x.gpu_total, x.cpu_total, x.memory_total_gi))
        cap = {"gpu": n.gpu_total, "cpu": n.cpu_total, "memory": n.memory_total_gi}
        if n.storage_total_gi:
            cap["storage"] = n.storage_total_gi
    return cap


def fix_sizing(diag: Diagnosis, spec: _Spec, nodes: list[Node] | None) -> Result:
    """OSMO §1.6: size hard-coded resources to one node, scaled by requested/node GPUs; never touch Jinja."""
    cap = _node_capacity(diag, nodes)
    if not cap:
        return None, "Lower the hard-coded `resources` to fit one node of the pool (check `osmo resource list`)."
    changed: list[str] = []
    for res in spec.resource_maps(diag.task):
        req_gpu = res.get("gpu")
        gpu = int(req_gpu) if isinstance(req_gpu, int) or str(req_gpu).isdigit() else None
        node_gpu = int(cap.get("gpu") or 0)
        if gpu is not None and node_gpu and gpu > node_gpu:
            gpu = node_gpu - (node_gpu % 2)
            if _set_value(spec, res, "gpu", str(gpu)):
                changed.append(f"gpu {req_gpu} → {gpu}")
        share = (gpu / node_gpu) if gpu and node_gpu else 1.0
        for key, threshold, unit in (("cpu", 30, False), ("memory", 50, True), ("storage", 50, True)):
            if key not in cap or key not in res:
                continue
            new_val = max(1, math.floor(size_to_capacity(cap[key], threshold) * share))
            old = res[key]
            new_txt = fmt_gi(new_val) if unit else str(new_val)
            if str(old) != new_txt and _set_value(spec, res, key, new_txt):
                changed.append(f"{key} {old} → {new_txt}")
    if not changed:
        return None, "The resources to shrink are template variables or missing; set them with --set to fit one node."
    return "".join(spec.lines), (
        "Size the resources to one node with OSMO's rule (90% of the node, scaled by "
        f"requested/node GPUs): {', '.join(changed)}."
    )


_MAX_PER_NODE = re.compile(r"requested (\d+), max per node (\d+)")


def fix_unschedulable(diag: Diagnosis, spec: _Spec, nodes: list[Node] | None) -> Result:
    m = next((mm for line in diag.evidence if (mm := _MAX_PER_NODE.search(line))), None)
    if nodes or m:
        node_list = list(nodes or [])
        if not node_list and m:
            per = int(m.group(2))
            node_list = [
                Node(
                    hostname="largest",
                    pool="",
                    cpu_total=0,
                    cpu_free=0,
                    memory_total_gi=0,
                    memory_free_gi=0,
                    gpu_total=per,
                    gpu_free=per,
                )
            ]
        biggest = max(node_list, key=lambda n: (n.gpu_total, n.cpu_total, n.memory_total_gi))
        changed: list[str] = []
        for res in spec.resource_maps(diag.task):
            g = res.get("gpu")
            if isinstance(g, int) and biggest.gpu_total and g > biggest.gpu_total:
                new_g = biggest.gpu_total - (biggest.gpu_total % 2)
                share = new_g / g
                if _set_value(spec, res, "gpu", str(new_g)):
                    changed.append(f"gpu {g} → {new_g}")
                for key, unit in (("cpu", False), ("memory", True)):
                    old = res.get(key)
                    val = size_gi(old) if unit else (float(old) if isinstance(old, (int, float)) else None)
                    if val is None:
                        continue
                    cap = (biggest.memory_total_gi if unit else biggest.cpu_total) or None
                    new = math.floor(val * share)
                    if cap:
                        new = min(new, size_to_capacity(cap, 50 if unit else 30))
                    txt = fmt_gi(new) if unit else str(max(1, new))
                    if _set_value(spec, res, key, txt):
                        changed.append(f"{key} {old} → {txt}")
        if changed:
            return "".join(spec.lines), (
                f"Ask for the largest size one machine has ({', '.join(changed)}): no single machine can "
                "hold the task, so the work per task shrinks accordingly — or split it over several tasks."
            )
    return None, diag.fix.description or "Ask for fewer resources, wait, or use another pool."


_UNRECOGNIZED = re.compile(r"error: unrecognized arguments: (?P<args>.+)$")


def fix_usage(diag: Diagnosis, spec: _Spec, nodes: list[Node] | None) -> Result:
    """Drop the options the program said it does not recognise from the task's `args` (nothing else changes)."""
    found = next((m for e in diag.evidence if (m := _UNRECOGNIZED.search(e))), None)
    if found is None or spec.doc is None:
        return None, diag.fix.description
    unknown = found.group("args").split()
    task = spec.task(diag.task)
    args = list(task.get("args") or []) if task is not None else []
    if not unknown or not args:
        return None, diag.fix.description
    want = list(args)
    for tok in unknown:
        if tok in want:
            want.remove(tok)
    if want == args:
        return None, diag.fix.description
    seq = task["args"]
    lines = list(spec.lines)
    start = seq.lc.line
    if getattr(seq.fa, "_flow_style", False):  # `args: [a, b, c]` on one line: cut the items textually
        line = lines[start]
        for tok in unknown:
            line = re.sub(r",\s*(['\"]?)" + re.escape(tok) + r"\1(?=\s*[,\]])", "", line, count=1)
        lines[start] = line
    else:  # block style: one `- item` per line
        drop = {seq.lc.item(i)[0] for i, v in enumerate(args) if str(v) in unknown}
        lines = [ln for i, ln in enumerate(lines) if i not in drop]
    new = "".join(lines)
    check = _load(new).task(diag.task)
    if check is None or [str(a) for a in check.get("args") or []] != [str(a) for a in want]:
        return None, diag.fix.description
    return new, f"Remove the option(s) the program does not accept from `args`: {' '.join(unknown)}."


def fix_validation(diag: Diagnosis, spec: _Spec, nodes: list[Node] | None) -> Result:
    """A request bigger than any node is resized to fit; options the program does not know are dropped from
    `args`; other refusals name the field to fix (no edit)."""
    if diag.origin == "capacity":
        return fix_sizing(diag, spec, nodes)
    if any(_UNRECOGNIZED.search(e) for e in diag.evidence):
        return fix_usage(diag, spec, nodes)
    return None, diag.fix.description


def propose_fix(diag: Diagnosis, spec_text: str, *, nodes: list[Node] | None = None, on_host: bool = False) -> Fix:
    """The diagnosis' fix with a unified-diff patch of ``spec_text`` when a safe, validated edit exists.

    ``on_host``: the backend runs tasks on the machine itself (`runs_on_host`): a system package install is then
    a proposal for the person, never a patch."""
    from runshepherd.diagnosis.rules import fixer_for  # the families name their fixers (they import this module)

    kind = diag.fix.kind
    fn = fixer_for(diag.label)
    if fn is None or not spec_text:
        return Fix(kind=kind, description=diag.fix.description, patch=None)
    spec = _load(spec_text, on_host=on_host)
    new, description = fn(diag, spec, nodes)
    if new is None or new == spec_text:
        return Fix(kind=kind, description=description or diag.fix.description, patch=None)
    if not _jinja_untouched(spec_text, new) or not _valid(spec_text, new):
        return Fix(
            kind=kind,
            description=description.rstrip(" .") + " (not applied automatically: the edited spec did not validate).",
            patch=None,
        )
    return Fix(kind=kind, description=description, patch=_diff(spec_text, new))
