"""Jinja rendering of a spec, OSMO-style: `default-values` + `--set`, with special tokens left for the scheduler."""

from __future__ import annotations

import functools
import re
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.sandbox import SandboxedEnvironment

from runshepherd.spec.tokens import NEAR_MISSES, TOKEN_RE

_SENTINEL = "@@RS_TOKEN_{}@@"
_SENTINEL_RE = re.compile(r"@@RS_TOKEN_(\d+)@@")


MAX_LOOP_ITERATIONS = 100_000  # every `for` iteration of one render, all loops together
MAX_RENDERED_CHARS = 2_000_000  # the rendered text (the loader then applies the 1 MB spec limit)
_LOOP = "rs_bounded_loop"


class RenderLimit(Exception):
    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class BoundedEnvironment(SandboxedEnvironment):
    """jinja2's sandbox plus budgets: loop iterations, `*`/`**` result sizes, and output size.

    Every `for` loop's iterable is wrapped (in the parsed template, before compiling) by a counter shared by the
    whole render, so nested `range(100000)` loops stop after the budget instead of running for hours.
    """

    intercepted_binops = frozenset({"*", "**", "%"})

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # No compile-time folding (it would run `'x'|center(10**10)` before any limit), and every filter's
        # arguments and result are checked: widths, counts and format strings must stay within the output budget.
        self.optimized = False
        self.filters = {name: _bounded(name, f) for name, f in self.filters.items()}

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - jinja's API
        _check_args("a call", args, kwargs)
        return _check_result("a call", super().call(__context, __obj, *args, **kwargs))

    def wrap_str_format(self, value: Any) -> Any:
        fmt = super().wrap_str_format(value)
        if fmt is None:
            return None
        text = value.__self__

        @functools.wraps(fmt)
        def bounded(*args: Any, **kwargs: Any) -> Any:
            _check_args("str.format", (text, *args), kwargs)  # '{:>N}'.format(…): the width is in the string
            return fmt(*args, **kwargs)

        return bounded

    def render(self, source: str, values: dict[str, Any]) -> str:
        ast = self.parse(source)
        left = [MAX_LOOP_ITERATIONS]

        def bounded(iterable: Any, line: int) -> Any:
            for item in iterable:
                left[0] -= 1
                if left[0] < 0:
                    raise RenderLimit(
                        f"template loops ran more than {MAX_LOOP_ITERATIONS:,} iterations — loop over less", line
                    )
                yield item

        for loop in ast.find_all(nodes.For):
            loop.iter = nodes.Call(
                nodes.Name(_LOOP, "load", lineno=loop.lineno),
                [loop.iter, nodes.Const(loop.lineno)],
                [],
                None,
                None,
                lineno=loop.lineno,
            )
        template = self.from_string(ast)
        out: list[str] = []
        size = 0
        for chunk in template.generate(**values, **{_LOOP: bounded}):
            size += len(chunk)
            if size > MAX_RENDERED_CHARS:
                raise RenderLimit(f"the rendered spec is over {MAX_RENDERED_CHARS:,} characters — generate less")
            out.append(chunk)
        return "".join(out)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_RENDERED_CHARS:
                    raise RenderLimit(f"a template repeats a value to over {MAX_RENDERED_CHARS:,} items")
        if operator == "%":
            _check_args("a %-format", (left,), {})
        if operator == "**" and isinstance(left, int) and isinstance(right, int):
            if abs(left) > 1 and right * max(abs(left), 2).bit_length() > 4096:
                raise RenderLimit("a template computes a number over 4096 bits — use a smaller power")
        return super().call_binop(context, operator, left, right)


_WIDTH = re.compile(r"%[-+ #0]*(\d+)|\{[^{}]*?:[^{}]*?(\d+)[^{}]*\}")


def _check_args(what: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    for arg in (*args, *kwargs.values()):
        if isinstance(arg, int) and not isinstance(arg, bool) and arg > MAX_RENDERED_CHARS:
            raise RenderLimit(f"{what} was given {arg:,}, over the {MAX_RENDERED_CHARS:,}-character output budget")
        if isinstance(arg, str) and ("%" in arg or "{" in arg):
            for m in _WIDTH.finditer(arg[:10_000]):
                width = int(m.group(1) or m.group(2))
                if width > MAX_RENDERED_CHARS:
                    raise RenderLimit(f"{what} asks for a field {width:,} characters wide — use a smaller width")


def _check_result(what: str, value: Any) -> Any:
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_RENDERED_CHARS:
        raise RenderLimit(f"{what} produced over {MAX_RENDERED_CHARS:,} characters")
    return value


def _bounded(name: str, func: Any) -> Any:
    what = f"the `{name}` filter"

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _check_args(what, args, kwargs)
        return _check_result(what, func(*args, **kwargs))

    return wrapper


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
        # jinja2 assigns StrictUndefined.__str__ a raising function; overriding it with a method is its documented use.
        def __str__(self) -> str:  # type: ignore[override]
            name = self._undefined_name
            if name in NEAR_MISSES:
                near_misses.append(name)
                return "{{" + name + "}}"
            if lenient:
                return f"<{name}>"
            return super().__str__()

    env = BoundedEnvironment(undefined=KeepNearMiss, keep_trailing_newline=True, autoescape=False)
    try:
        rendered = env.render(protected, values)
    except RenderLimit as exc:
        raise RenderProblem(str(exc), exc.line) from None
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
