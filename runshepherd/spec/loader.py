"""Load a workflow spec: split `default-values`, render Jinja, parse YAML, validate, and point at the line.

Every problem becomes ``file:line field: message — what to do``; a person should never see a traceback or a
pydantic error dump for a typo in their YAML.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from runshepherd.errors import RunShepherdError
from runshepherd.number_reading import implausible, read_number
from runshepherd.spec.document import SpecDocument
from runshepherd.spec.limits import (
    MAX_SPEC_BYTES,
    LimitExceeded,
    check_size,
    check_task_count,
    load_yaml,
    prescan_task_count,
    read_small_text,
    size_message,
)
from runshepherd.spec.model import WorkflowFile
from runshepherd.spec.render import RenderProblem, render_template
from runshepherd.spec.values import typed_values

_TOP_KEY_RE = re.compile(r"^([A-Za-z_][\w-]*)\s*:")
_DEFAULTS_RE = re.compile(r"^default-values\s*:")


@dataclass(frozen=True)
class SpecProblem:
    source: str
    line: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where} {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class SpecError(RunShepherdError):
    """One or more problems in a spec; ``str()`` lists each on its own line."""

    exit_code = 2

    def __init__(self, problems: list[SpecProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


# ------------------------------------------------------------------------------------------- --set values
def parse_set_values(pairs: Iterable[str], *, cast: bool = True) -> dict[str, Any]:
    """`--set K=V` as OSMO does it: numbers are cast to int/float unless ``cast`` is False (`--set-string`)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise RunShepherdError(f"--set {pair!r}: expected KEY=VALUE, e.g. --set epochs=5")
        given = read_number(value) if cast else value
        if key in out and out[key] != given:  # `--set epochs=1 --set epochs=2` silently ran with 2
            raise RunShepherdError(f"--set {key} is given twice ({out[key]!r}, then {given!r}); give it once")
        out[key] = given
    return out


# ------------------------------------------------------------------------------------------- public API
def load_spec_file(path: str | Path, set_values: dict[str, Any] | None = None) -> SpecDocument:
    p = Path(path).expanduser()
    if not p.exists():
        raise SpecError([SpecProblem(str(path), None, "", "file not found — check the path")])
    if p.is_dir():
        raise SpecError([SpecProblem(str(path), None, "", "is a folder — give the path of a workflow YAML file")])
    size = p.stat().st_size
    if size > MAX_SPEC_BYTES:  # refused before reading: a 50 MB "spec" is data, not a workflow
        raise SpecError([SpecProblem(str(path), None, "", size_message(size, "the spec"))])
    try:
        text = read_small_text(p, "a spec")  # bounded even where the size says nothing (/dev/zero, a pipe)
    except ValueError as exc:
        raise SpecError([SpecProblem(str(path), None, "", str(exc))]) from None
    return load_spec_text(text, source=p.name, set_values=set_values, base_dir=p.resolve().parent)


def load_spec_text(
    text: str,
    *,
    source: str = "<spec>",
    set_values: dict[str, Any] | None = None,
    base_dir: Path | None = None,
    secrets: str = "refuse",
) -> SpecDocument:
    """``secrets="warn"`` only for reading a spec the scheduler already holds (a job submitted elsewhere): it is
    read, never stored; every spec RunShepherd takes in refuses a literal secret (`spec/secrets.py`)."""
    if not text.strip():
        raise SpecError([SpecProblem(source, None, "", "the spec is empty — it needs a `workflow:` section")])
    _within(check_size, source, text)
    body, defaults, defaults_line = split_default_values(text, source)
    set_values = typed_values(set_values or {}, defaults, source=source, text=text)  # before rendering: exit 2
    values = {**defaults, **set_values}
    try:
        rendered, warnings = render_template(body, values)
    except RenderProblem as exc:
        raise SpecError([SpecProblem(source, exc.line, "", _render_hint(exc, text))]) from None
    _within(check_size, source, rendered, "the spec after rendering its templates")
    if unused := [k for k in set_values or {} if k not in defaults and not _uses(body, k, values, rendered)]:
        known = ", ".join(defaults) or "none"
        raise SpecError(
            [
                SpecProblem(
                    source,
                    None,
                    "",
                    f"--set {', '.join(unused)}: the spec has no template variable of that name, so the value would "
                    f"change nothing (its default-values: {known}); add it under `default-values:` and use it as "
                    "{{ " + unused[0] + " }} in the spec",
                )
            ]
        )
    # counted from libyaml's events first: building the node tree for 10,000 tasks takes seconds
    _within(check_task_count, source, prescan_task_count(rendered) or 0)
    data, root = _parse_yaml(rendered, source)
    if not isinstance(data, dict):
        raise SpecError([SpecProblem(source, 1, "", "the spec must be a mapping with a top-level `workflow:` key")])
    if "workflow" not in data:
        raise SpecError([SpecProblem(source, 1, "workflow", "missing — a spec starts with `workflow:`")])
    if defaults:
        data["default-values"] = defaults
    _within(check_task_count, source, _raw_task_count(data))  # again on the data (aliases), before validation
    try:
        model = WorkflowFile.model_validate(data)
    except ValidationError as exc:
        raise SpecError(_problems(exc, root, source, text, rendered)) from None
    warnings = list(warnings)
    for key, value in set_values.items():  # "--set epochs=1e9": said like the request's own absurd values
        if warning := implausible(key, value, f"--set {key}={value}"):
            warnings.append(warning)
    _refuse_secrets(text, source, rendered, root, set_values, defaults_line, warnings, refuse=secrets == "refuse")
    warnings.extend(_lint(model, base_dir))
    return SpecDocument(
        template_text=text,
        rendered_text=rendered,
        model=model,
        values=values,
        source=source,
        base_dir=base_dir,
        warnings=tuple(warnings),
    )


def _uses(body: str, key: str, values: dict[str, Any], rendered: str) -> bool:
    """Whether the template reads ``key``: without it, rendering fails (undefined) or gives another text."""
    if not re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", body):
        return False
    try:
        return render_template(body, {k: v for k, v in values.items() if k != key})[0] != rendered
    except RenderProblem:
        return True


# ------------------------------------------------------------------------------------------- limits
def _within(check: Any, source: str, *args: Any) -> None:
    try:
        check(*args)
    except LimitExceeded as exc:
        raise SpecError([SpecProblem(source, exc.line, "", str(exc))]) from None


def _raw_task_count(data: dict[str, Any]) -> int:
    wf = data.get("workflow")
    if not isinstance(wf, dict):
        return 0
    tasks = wf.get("tasks")
    groups = wf.get("groups")
    count = len(tasks) if isinstance(tasks, list) else 0
    if isinstance(groups, list):
        count += sum(len(g["tasks"]) for g in groups if isinstance(g, dict) and isinstance(g.get("tasks"), list))
    return count


# ------------------------------------------------------------------------------------------- secrets
def _refuse_secrets(
    text: str,
    source: str,
    rendered: str,
    root: yaml.Node | None,
    set_values: dict[str, Any],
    defaults_line: int | None,
    warnings: list[str],
    *,
    refuse: bool,
) -> None:
    from runshepherd.spec.secrets import field_lines, kinds_in, literal_secrets

    if not (kinds_in(rendered) or kinds_in(text) or any(kinds_in(str(v)) for v in set_values.values())):
        return  # the usual case, read once; the field of each line is looked up only when there is a secret
    found = literal_secrets(
        text,
        rendered,
        template_fields=field_lines(root, lambda n: _map_line(n, text, rendered)),
        rendered_fields=field_lines(root, lambda n: n),
        set_values=set_values,
        defaults_line=defaults_line,
    )
    problems = [SpecProblem(source, line, field, msg) for line, field, msg in found]
    if problems and refuse:
        raise SpecError(problems)
    warnings.extend(str(p) for p in problems)


# ------------------------------------------------------------------------------------------- default-values
def split_default_values(text: str, source: str = "<spec>") -> tuple[str, dict[str, Any], int | None]:
    """Cut the top-level `default-values:` block out before rendering (its values feed the rendering).

    Lines are blanked rather than removed so line numbers in the rest of the file stay true.
    """
    lines = text.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if _DEFAULTS_RE.match(ln)), None)
    if start is None:
        return text, {}, None
    end = start + 1
    while end < len(lines):
        ln = lines[end]
        if ln.strip() and not ln[0].isspace() and not ln.lstrip().startswith("#") and not ln.startswith("-"):
            break
        end += 1
    block = "".join(lines[start:end])
    try:
        parsed = load_yaml(block)[0] or {}
    except LimitExceeded as exc:
        line = start + (exc.line or 1)
        raise SpecError([SpecProblem(source, line, "default-values", str(exc))]) from None
    except yaml.YAMLError as exc:
        line = start + 1 + (_yaml_line(exc, block) or 0)
        raise SpecError(
            [SpecProblem(source, line, "default-values", f"is not valid YAML: {_yaml_reason(exc)}")]
        ) from None
    values = parsed.get("default-values") or {}
    if not isinstance(values, dict):
        raise SpecError(
            [SpecProblem(source, start + 1, "default-values", "must be a mapping of names to values, e.g. epochs: 3")]
        )
    blanked = lines[:start] + ["\n" if ln.endswith("\n") else "" for ln in lines[start:end]] + lines[end:]
    return "".join(blanked), values, start + 1


def _render_hint(exc: RenderProblem, text: str) -> str:
    msg = exc.message
    if exc.undefined:
        nested = re.search(r"^[ \t]+default-values\s*:", text, re.M)
        if nested:
            line = text[: nested.start()].count("\n") + 1
            msg += (
                f" — `default-values:` (line {line}) is indented under `workflow:`; "
                "move it to the top level (no indentation) so its values are used"
            )
        else:
            msg += f" — pass --set {exc.undefined}=VALUE or add it under a top-level `default-values:`"
    return msg


# ------------------------------------------------------------------------------------------- YAML
def _yaml_line(exc: yaml.YAMLError, text: str) -> int | None:
    """The 0-based line YAML stopped at: its mark, or for a character it refused to read, where that character is."""
    if isinstance(exc, yaml.reader.ReaderError):
        return text.count("\n", 0, exc.position) if isinstance(exc.position, int) else None
    mark = getattr(exc, "problem_mark", None)
    return mark.line if mark else None


def _yaml_reason(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.reader.ReaderError) and isinstance(exc.character, int):  # PyYAML gives its code
        code = exc.character
        escape = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
        return (
            f"the file holds the character #x{code:04x}, which YAML does not allow in a file — remove it, or "
            f'inside a double-quoted value write it as the escape "{escape}"; is this really a text spec?'
        )
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    hint = ""
    if problem and "mapping values are not allowed" in problem:
        hint = " — a value containing ': ' needs quotes, or the indentation is off"
    elif problem and re.search(r"'\\t'|\btab\b", problem):
        hint = " — YAML indentation must use spaces, not tabs"
    elif context and "flow mapping" in context:
        hint = " — a value starting with '{' must be quoted"
    return f"{problem}{(' (' + context + ')') if context else ''}{hint}"


def _parse_yaml(rendered: str, source: str) -> tuple[Any, yaml.Node | None]:
    try:
        data, root = load_yaml(rendered)
    except LimitExceeded as exc:
        raise SpecError([SpecProblem(source, exc.line, "", str(exc))]) from None
    except yaml.YAMLError as exc:
        at = _yaml_line(exc, rendered)
        line = at + 1 if at is not None else None
        raise SpecError([SpecProblem(source, line, "", f"YAML syntax error: {_yaml_reason(exc)}")]) from None
    return data, root


def _node_at(root: yaml.Node | None, loc: tuple[Any, ...]) -> tuple[yaml.Node | None, yaml.Node | None]:
    """Walk the composed YAML along a pydantic error location; return (value node, key node) found deepest."""
    node, key_node = root, None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = None
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == str(part):
                    nxt, key_node = v, k
                    break
            if nxt is None:
                return node, key_node
            node = nxt
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if part >= len(node.value):
                return node, key_node
            node, key_node = node.value[part], None
        else:
            return node, key_node
    return node, key_node


def _field_path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _clean_loc(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    # Drop pydantic's union/function tags ("str", "function-after[...]") that are not YAML keys.
    return tuple(
        p for p in loc if isinstance(p, int) or not re.match(r"^(function-|str$|int$|float$|dict\[|list\[)", str(p))
    )


def _suggest(unknown: str, loc: tuple[Any, ...]) -> str:
    from runshepherd.spec import model as m

    parents: dict[str, type[BaseModel]] = {
        "workflow": m.Workflow,
        "tasks": m.Task,
        "groups": m.Group,
        "resources": m.ResourceSpec,
        "timeout": m.Timeout,
        "files": m.File,
        "inputs": m.Input,
        "outputs": m.Output,
    }
    names = [p for p in loc if isinstance(p, str)]
    cls: type[BaseModel] | None = None
    for name in reversed(names[:-1]):
        cls = parents.get(name)
        if cls is not None:
            break
    if cls is None and len(names) == 1:
        cls = m.WorkflowFile
    if cls is None:
        return ""
    fields = [f.alias or n for n, f in cls.model_fields.items()]
    close = difflib.get_close_matches(unknown, fields, n=1, cutoff=0.6)
    if close:
        return f" — did you mean `{close[0]}`?"
    return f" — allowed here: {', '.join(sorted(fields))}"


def _problems(exc: ValidationError, root: yaml.Node | None, source: str, text: str, rendered: str) -> list[SpecProblem]:
    problems: list[SpecProblem] = []
    seen: set[tuple[str, str]] = set()
    for err in exc.errors(include_url=False):
        loc = _clean_loc(tuple(err["loc"]))
        node, key_node = _node_at(root, loc)
        mark_node = key_node if err["type"] == "extra_forbidden" and key_node is not None else node
        line = _map_line(mark_node.start_mark.line + 1, text, rendered) if mark_node is not None else None
        field = _field_path(loc)
        msg = err.get("msg", "invalid")
        kind = err["type"]
        if kind == "extra_forbidden":
            msg = f"unknown field{_suggest(str(loc[-1]), loc)}"
            if loc == ("workflow", "default-values"):
                msg = "`default-values:` belongs at the top level, not under `workflow:` — remove its indentation"
        elif kind == "missing":
            msg = "required field is missing"
        elif kind == "value_error":
            msg = msg.removeprefix("Value error, ")
        elif kind in {"list_type", "dict_type"}:
            msg = f"must be a {'list' if kind == 'list_type' else 'mapping'}, got {type(err.get('input')).__name__}"
        elif kind == "string_type":
            got = err.get("input")
            shape = "mapping" if isinstance(got, dict) else "list" if isinstance(got, list) else type(got).__name__
            msg = f"must be a plain value, got a {shape} {got!r}"
            if loc and loc[-1] == "url":
                msg += " — write the URL directly, e.g. `url: s3://bucket/path/`"
        elif kind.endswith("_type") or kind.endswith("_parsing"):
            msg = f"{msg} (got {err.get('input')!r})"
        key = (field, msg)
        if key in seen:
            continue
        seen.add(key)
        problems.append(SpecProblem(source, line, field, msg))
    return problems


def _map_line(rendered_line: int, text: str, rendered: str) -> int:
    """Rendered line → line in the file the person edits. Jinja blocks can shift lines; find the same text."""
    t_lines, r_lines = text.splitlines(), rendered.splitlines()
    if len(t_lines) == len(r_lines):
        return rendered_line
    if 0 < rendered_line <= len(r_lines):
        target = r_lines[rendered_line - 1].rstrip()
        hits = [i + 1 for i, ln in enumerate(t_lines) if ln.rstrip() == target]
        if hits:
            return min(hits, key=lambda i: abs(i - rendered_line))
    return rendered_line


# ------------------------------------------------------------------------------------------- lint
def _lint(model: WorkflowFile, base_dir: Path | None) -> list[str]:
    """Problems that do not stop a submission but will bite later; the plan message shows them."""
    from runshepherd.spec.tokens import TOKEN_RE

    warnings: list[str] = []
    wf = model.workflow
    for task in wf.all_tasks():
        blob = " ".join(
            task.command + task.args + [f.contents or "" for f in task.files] + list(task.environment.values())
        )
        for m in TOKEN_RE.finditer(blob):
            if m.group(2) is not None and int(m.group(2)) >= len(task.inputs):
                warnings.append(
                    f"task {task.name!r} uses {m.group(0)} but has {len(task.inputs)} input(s); inputs count from 0"
                )
        for f in task.files:
            if f.localpath and base_dir is not None and not (base_dir / f.localpath).exists():
                warnings.append(f"task {task.name!r}: localpath {f.localpath!r} does not exist next to the spec")
            elif f.localpath and base_dir is not None and not _inside(base_dir / f.localpath, base_dir):
                warnings.append(  # a shared spec must not quietly ship ~/.ssh/id_rsa or ~/.aws/credentials
                    f"task {task.name!r}: localpath {f.localpath!r} is outside the spec's folder — that file is "
                    "copied into the job; check it is one you mean to send"
                )
    return warnings


def _inside(path: Path, folder: Path) -> bool:
    """Does ``path`` (symlinks followed) lie inside ``folder``?"""
    return path.resolve().is_relative_to(folder.resolve())
