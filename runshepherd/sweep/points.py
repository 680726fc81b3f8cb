"""The points of a sweep: `--sweep KEY=V1,V2` (repeatable, cartesian product) and `--repeat N`, and each point's
concrete spec. Pure functions: no backend, no session."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from runshepherd.errors import UsageError
from runshepherd.number_reading import read_number
from runshepherd.spec.loader import split_default_values
from runshepherd.spec.render import RenderProblem, render_template
from runshepherd.spec.values import BOOL_WORDS, typed_values

MAX_POINTS = 200  # a sweep bigger than this is a typo more often than a plan; say so before anything is submitted
SEED_KEYS = ("seed", "random_seed")


@dataclass(frozen=True)
class SweepTerms:
    """How bad sweep input is put to the person: in flags on the command line, in words in the chat, so the
    chat never tells anyone to pass `--sweep` or `--repeat` (one message per problem, two ways to say it)."""

    key: Callable[[str], str]  # the swept key at the head of an error: "--sweep lr" / "lr"
    sweep: Callable[[str, str], str]  # sweeping KEY over "V1,V2": "--sweep lr=V1,V2" / "'sweep lr over V1, V2'"
    repeat: Callable[[str], str]  # every point N times: "--repeat N" / "'repeat N times'"
    give: str  # the verb before an example: "pass" / "say"


CLI_TERMS = SweepTerms(
    key=lambda k: f"--sweep {k}",
    sweep=lambda k, v: f"--sweep {k}={v}",
    repeat=lambda n: f"--repeat {n}",
    give="pass",
)
CHAT_TERMS = SweepTerms(
    key=lambda k: k,
    sweep=lambda k, v: f"'sweep {k} over {v.replace(',', ', ')}'",
    repeat=lambda n: f"'repeat {n} times'",
    give="say",
)


def _cast(text: str) -> Any:
    """'3' → 3, '1e-3' → 0.001, 'true' → True, anything else stays text: numbers as `--set` reads them
    (`number_reading.read_number`: '1e999' and '٣' stay what was typed, so an error quotes them)."""
    value = read_number(text)
    if isinstance(value, str) and value.strip().lower() in BOOL_WORDS:
        return BOOL_WORDS[value.strip().lower()]
    return value


def parse_sweeps(items: Iterable[str], terms: SweepTerms = CLI_TERMS) -> dict[str, list[Any]]:
    """`KEY=V1,V2,…` per item → {KEY: [V1, V2, …]}; a key given twice, an empty value or no '=' is bad input."""
    out: dict[str, list[Any]] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        values = [v.strip() for v in raw.split(",")]
        if not sep or not key or not raw.strip() or any(not v for v in values):
            raise UsageError(f"--sweep {item!r}: write KEY=V1,V2[,…], e.g. --sweep lr=1e-3,3e-4")
        if key in out:
            raise UsageError(f"{terms.key(key)} is given twice; list all its values once: {terms.sweep(key, 'V1,V2')}")
        _no_secret(key, values, terms)
        out[key] = _distinct(key, values, terms)
    return out


def _no_secret(key: str, texts: list[str], terms: SweepTerms) -> None:
    """A swept value is written into each point's spec, which RunShepherd keeps (as `--set` would): a secret among
    them is refused before any point's spec is written (it was written to disk, then refused naming that file)."""
    from runshepherd.spec.secrets import INSTEAD, kinds_in

    for n, text in enumerate(texts, start=1):
        if kinds := kinds_in(text):
            raise UsageError(
                f"{terms.key(key)}: value {n} is a secret ({', '.join(kinds)}) and would be written into the specs "
                f"RunShepherd keeps — leave it out of the sweep and give the job the secret outside the spec "
                f"({INSTEAD})"
            )


def _distinct(key: str, texts: list[str], terms: SweepTerms = CLI_TERMS) -> list[Any]:
    """The cast values of one `--sweep KEY=…`; a value given twice (`0.1,0.1`, or `0.1,1e-1`) is bad input: the
    sweep would run one point where the person counted two."""
    first: dict[tuple[type, Any], str] = {}  # by type too: 1 and true are different values
    repeated: tuple[str, str] | None = None
    for text in texts:
        value = _cast(text)
        if (type(value), value) in first:
            repeated = repeated or (first[(type(value), value)], text)
        else:
            first[(type(value), value)] = text
    if repeated is None:
        return [_cast(t) for t in texts]
    was, again = repeated
    same = repr(again) if was == again else f"{again!r} (the same value as {was!r})"
    raise UsageError(
        f"{terms.key(key)}: {same} is given twice, so the sweep would run it once; list each value once "
        f"({terms.sweep(key, ','.join(first.values()))}), or add {terms.repeat('N')} to run every point N times"
    )


def expand(
    sweeps: dict[str, list[Any]], repeat: int = 1, *, seed_key: str | None = None, terms: SweepTerms = CLI_TERMS
) -> list[dict[str, Any]]:
    """Every point: the cartesian product of the swept values, each repeated ``repeat`` times. A repeat sets
    ``seed_key`` to 0..repeat-1 when the spec has one (distinct seeds), else repeats the values unchanged."""
    if repeat < 1:
        raise UsageError(f"{terms.repeat(str(repeat))}: the number of times must be 1 or more")
    if repeat > 1 and seed_key is not None and seed_key in sweeps:  # the repeat's seeds replaced the ones given
        n = len(sweeps[seed_key])
        raise UsageError(
            f"{terms.repeat(str(repeat))} sets {seed_key} itself (0..{repeat - 1}), so it cannot also be swept "
            f"({terms.sweep(seed_key, '…')}): give the seeds ({terms.sweep(seed_key, f'V1,…,V{n * repeat}')}) or "
            f"{terms.repeat(str(n * repeat))}"
        )
    keys = list(sweeps)
    points: list[dict[str, Any]] = []
    for combo in itertools.product(*(sweeps[k] for k in keys)):
        for r in range(repeat):
            point = dict(zip(keys, combo, strict=True))
            if repeat > 1 and seed_key is not None:
                point[seed_key] = r
            points.append(point)
    if len(points) > MAX_POINTS:
        raise UsageError(f"the sweep has {len(points)} points; at most {MAX_POINTS} in one session")
    return points


def spec_keys(text: str, source: str) -> dict[str, Any]:
    """The spec's `default-values` (what a sweep may vary)."""
    return split_default_values(text, source)[1]


def check_keys(
    sweeps: dict[str, list[Any]],
    defaults: dict[str, Any],
    source: str,
    text: str | None = None,
    terms: SweepTerms = CLI_TERMS,
) -> None:
    """A swept key the spec does not template is bad input: sweeping it would run the same job N times. A swept
    value of the wrong type for its default (`--sweep lr=0.1,abc`) is bad input too, before anything is written."""
    unknown = [k for k in sweeps if k not in defaults]
    if unknown:
        known = ", ".join(defaults) or "none"
        raise UsageError(
            f"{source}: {terms.key(', '.join(unknown))}: not a key of the spec's default-values (its keys: {known}); "
            "add it under `default-values:` and use it as {{ " + unknown[0] + " }} in the spec"
        )
    for key, values in sweeps.items():
        for value in values:
            typed_values(
                {key: value}, defaults, source=source, text=text, named=terms.key, example=terms.sweep, give=terms.give
            )


def point_spec(text: str, source: str, values: dict[str, Any]) -> str:
    """The point's concrete spec: the template rendered with its default-values, then ``values`` (the point and
    any `--set`). Concrete, so a fix (e.g. lr ×0.1) edits the number this point actually ran with."""
    body, defaults, _ = split_default_values(text, source)
    values = typed_values(values, defaults, source=source, text=text)  # "false" → False, as `--set` reads it
    try:
        rendered, _warnings = render_template(body, {**defaults, **values})
    except RenderProblem as exc:
        where = f" line {exc.line}" if exc.line else ""
        raise UsageError(f"{source}{where}: {exc.message}") from None
    return rendered


def label(values: dict[str, Any]) -> str:
    """'lr=0.05 seed=1' — how a point is named in questions, tables and folder names."""
    return " ".join(f"{k}={v}" for k, v in values.items()) or "(defaults)"
