"""A value given for a template variable (`--set K=V`, an app parameter, `--sweep K=V1,V2`) checked against the
type of its default before anything is submitted: `--set lr=abc` for `lr: 0.05` is bad input now (exit 2), not a
run that fails at run time. The one check every path uses (`load_spec_text` for `--set`, `sweep.points.check_keys`
for `--sweep`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import yaml

from runshepherd.number_reading import other_digits, other_digits_hint, whole

BOOL_WORDS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}
# Jinja's delimiters: a value is put into the rendered spec as text, and a point's spec (or a resubmitted one) is read
# again as a template, so `--sweep 'name={{ 7*7 }}'` ran as 49 and `{% for … %}` loops ran until the output budget
_TEMPLATE_SYNTAX = re.compile(r"\{\{|\{%|\{#")


def typed_values(
    values: dict[str, Any],
    defaults: dict[str, Any],
    *,
    source: str,
    flag: str = "--set",
    text: str | None = None,
    named: Callable[[str], str] | None = None,
    example: Callable[[str, str], str] | None = None,
    give: str = "pass",
) -> dict[str, Any]:
    """``values`` with each one checked against the type of its default (int, float, bool, str, list, mapping);
    a boolean word ("false") becomes the boolean its default is, so `{% if flag %}` reads it as the person meant.
    A key without a default, or whose default is text or null, takes any value. Every mismatch is one problem
    naming the file, the default's line, the key, what was given and what to pass instead (`SpecError`, exit 2).
    ``named``/``example``/``give`` word the key and the example another way than ``flag`` (the chat's sweep)."""
    from runshepherd.spec.loader import SpecError, SpecProblem  # the loader calls this module

    out = dict(values)
    problems: list[SpecProblem] = []
    for key, value in values.items():
        lead = named(key) if named else f"{flag} {key}"
        if isinstance(value, str) and (syntax := _TEMPLATE_SYNTAX.search(value)):
            problems.append(
                SpecProblem(
                    source,
                    _default_line(text, key) if key in defaults else None,
                    f"default-values.{key}" if key in defaults else key,
                    f"{lead}: {_shown(value)} holds template syntax ({syntax.group()!r}), which the spec would run as "
                    "a template instead of taking it as the value — give the value itself",
                )
            )
            continue
        if key not in defaults:
            continue
        default = defaults[key]
        ok, converted, wanted = _check(value, default)
        if ok:
            out[key] = converted
            continue
        like = _example(default)
        shown = example(key, like) if example else f"{flag} {key}={like}"
        digits = other_digits(value) if isinstance(value, str) else None
        problems.append(
            SpecProblem(
                source,
                _default_line(text, key),
                f"default-values.{key}",
                f"{lead} expects {wanted} like {like} (the type of its default): "
                + other_digits_hint(value, example(key, digits) if example else f"{flag} {key}={digits}")
                if digits is not None
                else f"{lead} expects {wanted} like {like} (the type of its default), got {_shown(value)} — "
                f"{give} e.g. {shown}",
            )
        )
    if problems:
        raise SpecError(problems)
    return out


def _check(value: Any, default: Any) -> tuple[bool, Any, str]:
    """(accepted, the value to use, what the default's type asks for)."""
    if default is None or isinstance(default, str):
        return True, value, "text"
    if isinstance(default, bool):  # before int: a bool is an int in Python
        if isinstance(value, bool):
            return True, value, "true or false"
        if isinstance(value, str) and value.strip().lower() in BOOL_WORDS:
            return True, BOOL_WORDS[value.strip().lower()], "true or false"
        return False, value, "true or false"
    if isinstance(default, int):  # 1e9 or 3.0 given for a whole number is that whole number (`number_reading`)
        n = whole(value)
        if n is not None and not -(2**63) <= n < 2**63:  # a session keeps its values in 64 bits (was: a crash)
            return False, value, f"a whole number within 64 bits (at most {2**63 - 1:,})"
        return n is not None, value if n is None else n, "a whole number"
    if isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        return ok, value, "a number" if ok or _finite_text(value) else "a finite number"
    if isinstance(default, (list, dict)):
        kind = list if isinstance(default, list) else dict
        wanted = "a list" if kind is list else "a mapping"
        if isinstance(value, kind):
            return True, value, wanted
        if isinstance(value, str):
            try:
                parsed = yaml.safe_load(value)
            except yaml.YAMLError:
                return False, value, wanted
            if isinstance(parsed, kind):
                return True, parsed, wanted
        return False, value, wanted
    return True, value, "a value"


def _finite_text(value: Any) -> bool:
    """False for what reads as an infinite or not-a-number float ('1e999', 'inf', nan)."""
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return True


def _example(default: Any) -> str:
    if isinstance(default, bool):
        return "true" if default else "false"
    if isinstance(default, (list, dict)):
        return yaml.safe_dump(default, default_flow_style=True, width=10_000).strip()
    return repr(default) if isinstance(default, str) else str(default)


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else str(value)
    return repr(text[:60] + ("…" if len(text) > 60 else ""))


def _default_line(text: str | None, key: str) -> int | None:
    """The line of ``key`` under the top-level `default-values:` (1-based), where the person can see its type."""
    if not text:
        return None
    lines = text.splitlines()
    start = next((i for i, ln in enumerate(lines) if re.match(r"^default-values\s*:", ln)), None)
    if start is None:
        return None
    pat = re.compile(rf"^\s+['\"]?{re.escape(key)}['\"]?\s*:")
    for i in range(start + 1, len(lines)):
        ln = lines[i]
        if ln.strip() and not ln[0].isspace() and not ln.lstrip().startswith("#"):
            break
        if pat.match(ln):
            return i + 1
    return start + 1
