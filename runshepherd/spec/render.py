"""Jinja rendering of a spec, OSMO-style: `default-values` + `--set`, with special tokens left for the scheduler."""

from __future__ import annotations

import re
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from runshepherd.spec.tokens import NEAR_MISSES, TOKEN_RE

_SENTINEL = "@@RS_TOKEN_{}@@"
_SENTINEL_RE = re.compile(r"@@RS_TOKEN_(\d+)@@")


class RenderProblem(Exception):
    def __init__(self, message: str, line: int | None, undefined: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.undefined = undefined


def render_template(text: str, values: dict[str, Any], *, lenient: bool = False) -> tuple[str, list[str]]:
    """Render Jinja in ``text``; return the rendered text and warnings (e.g. a `{{outputs}}` typo kept literal).

    Undefined variables are errors (as on OSMO), except names that look like a mistyped special token: those are
    left as written so the job runs and the typo can be diagnosed, and a warning says what was probably meant.
    ``lenient`` (for reading, never for submitting) shows any undefined variable as ``<name>``.
    """
    if "{{" not in text and "{%" not in text:
        return text, []
    tokens: list[str] = []

    def protect(m: re.Match[str]) -> str:
        tokens.append(m.group(0))
        return _SENTINEL.format(len(tokens) - 1)

    protected = TOKEN_RE.sub(protect, text)
    near_misses: list[str] = []

    class KeepNearMiss(jinja2.StrictUndefined):
        def __str__(self) -> str:
            name = self._undefined_name
            if name in NEAR_MISSES:
                near_misses.append(name)
                return "{{" + name + "}}"
            if lenient:
                return f"<{name}>"
            return super().__str__()

    env = SandboxedEnvironment(undefined=KeepNearMiss, keep_trailing_newline=True, autoescape=False)
    try:
        rendered = env.from_string(protected).render(**values)
    except jinja2.TemplateSyntaxError as exc:
        raise RenderProblem(f"template syntax error: {exc.message}", exc.lineno) from None
    except jinja2.UndefinedError as exc:
        name = _undefined_name(str(exc))
        line = _first_use(text, name) if name else None
        raise RenderProblem(f"template variable {name!r} is not defined", line, undefined=name) from None
    except jinja2.TemplateError as exc:
        raise RenderProblem(f"template error: {exc}", None) from None
    rendered = _SENTINEL_RE.sub(lambda m: tokens[int(m.group(1))], rendered)
    warnings = [
        f"{{{{{name}}}}} is not a special token and was left as written — did you mean {NEAR_MISSES[name]}?"
        for name in dict.fromkeys(near_misses)
    ]
    return rendered, warnings


def _undefined_name(message: str) -> str | None:
    m = re.search(r"'([^']+)' is undefined", message)
    return m.group(1) if m else None


def _first_use(text: str, name: str) -> int | None:
    pat = re.compile(r"\{[{%][^}]*\b" + re.escape(name) + r"\b")
    for i, line in enumerate(text.splitlines(), start=1):
        if pat.search(line):
            return i
    return None
