"""Literal secrets in a spec are refused, naming file, line and field, never the value.

A spec is kept whole in the session store (the checkpoint), in the backend's workflow record and on the
scheduler; a secret in it would be kept in all three. The job gets its secrets from outside the spec instead: local
and Slurm jobs inherit the environment `orchestrate` runs in, OSMO tasks name a stored credential.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import yaml

from runshepherd.logs.redact import redact_line

_KEY_ON_LINE = re.compile(r"^\s*(?:-\s+)?([\w.-]+)\s*:")
# `{{ name }}` and `$VAR` / `${VAR}` name a value kept elsewhere (a template value, a variable a shell in the job
# expands), never a secret; read as a value that is not one ("none ", the space ends it).
_REFERENCE = re.compile(r"\{\{.*?\}\}|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

INSTEAD = (
    "local and Slurm jobs inherit the environment you run `orchestrate` in; "
    "OSMO: `orchestrate credential set NAME --type GENERIC --from-env KEY=VAR` and a `credentials` entry in the task"
)


def kinds_in(text: str) -> list[str]:
    """The kinds of secret in ``text`` (``hf_token``, ``password``…), never the values."""
    counts: Counter[str] = Counter()
    redact_line(text, counts=counts)
    return sorted(counts)


def _scalars(node: yaml.Node | None, path: str = "", name: str = "") -> Iterator[tuple[int, str, str]]:
    """(rendered line, field path, `name: value` text) of every key and scalar value in the composed YAML."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = str(k.value) if isinstance(k, yaml.ScalarNode) else "?"
            sub = f"{path}.{key}" if path else key
            yield k.start_mark.line + 1, sub, key
            yield from _scalars(v, sub, key)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _scalars(item, f"{path}[{i}]", name)
    elif isinstance(node, yaml.ScalarNode) and path:
        for line in range(node.start_mark.line, node.end_mark.line + 1):
            yield line + 1, path, f"{name}: {node.value}"


def _fix(field: str) -> str:
    name = field.rsplit(".", 1)[-1]
    if ".environment." in f".{field}" and _ENV_NAME.match(name):
        return (
            f"delete the {name} entry from the spec and export {name} in the shell you run orchestrate from ({INSTEAD})"
        )
    return f"delete the value from the spec and let the job read it from an environment variable ({INSTEAD})"


def literal_secrets(
    text: str,
    rendered: str,
    *,
    template_fields: dict[int, str],
    rendered_fields: dict[int, str],
    set_values: dict[str, Any],
    defaults_line: int | None,
) -> list[tuple[int | None, str, str]]:
    """(line, field, message) for each ``--set`` value and each line of the spec holding a secret.

    The file's lines are read with their references (`{{ … }}`, `$VAR`) read as no value; what the rendering put
    in is read on the rendered lines no line of the file already shows.
    """
    out: list[tuple[int | None, str, str]] = []
    for key, value in set_values.items():
        if kinds := kinds_in(str(value)):
            out.append(
                (
                    None,
                    f"--set {key}",
                    f"is a secret ({', '.join(kinds)}) and would be written into the spec RunShepherd keeps — "
                    f"drop it from --set and give the job the secret outside the spec ({INSTEAD})",
                )
            )
    lines = text.splitlines()
    for n, line in enumerate(lines, start=1):
        if kinds := kinds_in(_REFERENCE.sub("none ", line)):
            out.append(_problem(n, line, kinds, template_fields.get(n), defaults_line))
    if out:
        return out
    seen = {ln.rstrip() for ln in lines}
    for n, line in enumerate(rendered.splitlines(), start=1):
        if line.rstrip() not in seen and (kinds := kinds_in(_REFERENCE.sub("none ", line))):
            line_no, field, msg = _problem(n, line, kinds, rendered_fields.get(n), None)
            out.append((None, field, f"after rendering its templates (line {n}), {msg}"))
    return out


def _problem(n: int, line: str, kinds: list[str], field: str | None, defaults_line: int | None) -> tuple[int, str, str]:
    comment = line.lstrip().startswith("#")
    if not field and not comment and (m := _KEY_ON_LINE.match(line)) is not None:
        field = ("default-values." if defaults_line is not None and n > defaults_line else "") + m.group(1)
    what = "a literal secret in a comment" if comment else "a literal secret"
    # "FIELD value" keeps the printed problem from reading as an assignment `HF_TOKEN: holds` to a redactor
    return (
        n,
        "" if comment else f"{field} value" if field else "",
        f"holds {what} ({', '.join(kinds)}); RunShepherd keeps the spec in its session store and on the scheduler, "
        f"so it takes no secret in it — {_fix(field or '')}",
    )


def field_lines(root: yaml.Node | None, map_line: Any) -> dict[int, str]:
    """Line of the person's file → the field on it: the one whose value holds a secret, else the first."""
    out: dict[int, str] = {}
    holds: set[int] = set()
    for line, path, text in _scalars(root):
        n = map_line(line)
        if n not in holds and kinds_in(_REFERENCE.sub("none ", text)):
            out[n] = path
            holds.add(n)
        else:
            out.setdefault(n, path)
    return out


def stored_secrets(values: dict[str, Any]) -> list[str]:
    """The kinds of literal secret a session's stored state holds in its spec, its proposed fix or its ``--set``
    values (read as the loader reads a spec: references are no value), never the values. A session checkpointed
    before specs with secrets were refused can hold one; nothing rewrites it (the scheduler and the backend's
    workflow record hold the same spec), so `orchestrate sessions` names it for the person to rotate."""
    texts = [str(values.get("spec") or ""), str((values.get("proposed_fix") or {}).get("new_spec") or "")]
    texts += [str(v) for v in (values.get("set_values") or {}).values()]
    return sorted({k for t in texts if t for k in kinds_in(_REFERENCE.sub("none ", t))})
