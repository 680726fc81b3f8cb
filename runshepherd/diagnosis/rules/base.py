"""The rule interface: a rule reads a :class:`Context` and returns :class:`Signal` s; the engine picks one.

A failure family declares its rules in one module (``family.py``). Most rules are declarative
:class:`PatternRule` s (regexes with a strength); families that need judgement (image pull auth vs tag,
pending quota vs capacity) add small functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from runshepherd.diagnosis.errorblock import ErrorBlock, Line, is_benign, prepare
from runshepherd.diagnosis.lazyregex import LazyRegex
from runshepherd.diagnosis.models import FixKind, Label, MetricsHints, Origin
from runshepherd.diagnosis.positive import mark_counters
from runshepherd.diagnosis.prefilter import AnyGate, Gate, Gated, Joined, gate_for, prefilter_enabled

# Where a signal came from, in the order of trust (docs/architecture.md §10, signal hierarchy). Lower sorts first.
ORDER_STATUS = -3
# a submodule named with a leading underscore (``pkg._C``, ``slora._kernels``, ``_ext.pointnet2._pointnet2``) is by
# convention a compiled extension that setup.py builds from the package's C++/CUDA sources
_PRIVATE_LEAF = re.compile(r"_(?!_)\w")


def compiled_extension(mod: str) -> bool:
    """A dotted module name whose last part names a compiled extension (a leading underscore, not a dunder)."""
    return "." in mod and _PRIVATE_LEAF.match(mod.rpartition(".")[2]) is not None


# a launcher refusing a script it was handed as a program (no "#!" line naming its interpreter: ENOEXEC), in
# slurmstepd's "execve(): train.py: Exec format error" and the container runtimes' "exec ./run.sh: exec format error"
SCRIPT_EXEC_FORMAT = r"\bexec(?:ve\(\))?:? (?P<script>\S+\.(?:py|sh|bash|zsh|pl|rb|R|jl|lua)):? exec format error\b"
ORDER_FAILURE_MESSAGE = -2
ORDER_EVENT = -1
SHORT = 64  # up to this many lines, testing each line is cheaper than joining them for one automaton pass
BROAD = 32  # a family gate admitting more lines than this is narrowed per pattern (PatternRule)


@dataclass
class Signal:
    label: Label
    origin: Origin
    strength: float
    order: int
    evidence: list[str]
    explanation: str
    fix_kind: FixKind
    fix_description: str
    secondary: bool = False
    what_would_confirm: str | None = None
    detail: dict[str, str] = field(default_factory=dict)
    # the most confidence a verdict it names may carry: a wording right less often than its strength says (measured),
    # still the strongest reading of its line
    cap: float = 1.0


@dataclass
class Context:
    """What one task (or one log file) offers the rules; raw lines are kept for verbatim evidence."""

    task: str | None
    status: str | None
    exit_code: int | None
    failure_message: str | None
    events: ErrorBlock
    log: ErrorBlock
    spec_text: str | None = None
    metrics: MetricsHints | None = None
    declared_outputs: list[str] = field(default_factory=list)
    written_outputs: list[str] | None = None
    _texts: dict[tuple[bool, bool, bool], list[tuple[int, Line]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    # every selection's lines joined once (the widest selection holds them all), and for each selection, where each
    # of those lines is in it (-1: not in it)
    _joined: Joined | None = field(default=None, init=False, repr=False, compare=False)
    _within: dict[tuple[bool, bool, bool], list[int]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _failure_line: Line | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def build(
        cls,
        *,
        task: str | None = None,
        status: str | None = None,
        exit_code: int | None = None,
        failure_message: str | None = None,
        events: list[str] | None = None,
        log_lines: list[str] | None = None,
        spec_text: str | None = None,
        metrics: MetricsHints | None = None,
        declared_outputs: list[str] | None = None,
        written_outputs: list[str] | None = None,
    ) -> Context:
        log = prepare(list(log_lines or []))
        mark_counters(log.lines)  # a program's own counter lines are progress, read over the whole log
        return cls(
            task=task,
            status=status.upper() if status else None,
            exit_code=exit_code,
            failure_message=failure_message,
            events=prepare(list(events or [])),
            log=log,
            spec_text=spec_text,
            metrics=metrics,
            declared_outputs=list(declared_outputs or []),
            written_outputs=written_outputs,
        )

    def texts(self, *, events: bool = True, log: bool = True, warnings: bool = False) -> Iterable[tuple[int, Line]]:
        """Usable (non-warning, non-code) lines with their ordering key: failure message, events, then log.

        ``warnings=True`` also yields warning-level lines, for the families whose evidence is printed as a
        warning (an empty output upload is reported as a warning, then the run "succeeds"). Every rule asks,
        so the selection is made once per context.
        """
        key = (events, log, warnings)
        if key not in self._texts:
            self._texts[key] = list(self._select(events=events, log=log, warnings=warnings))
        return self._texts[key]

    def admitted(self, gate: AnyGate, *, events: bool = True, log: bool = True, warnings: bool = False) -> list[int]:
        """Positions in :meth:`texts` of the lines ``gate`` admits, in order (the others match none of its patterns)."""
        key = (events, log, warnings)
        self.texts(events=events, log=log, warnings=warnings)
        items = self._texts[key]
        if len(items) <= SHORT:
            return [i for i, (_, ln) in enumerate(items) if gate.admits(ln.text, ln.folded)]
        self.texts(events=True, log=True, warnings=True)
        every = self._texts[(True, True, True)]
        if self._joined is None:
            self._joined = Joined([ln.text for _, ln in every], [ln.folded for _, ln in every])
        hits = gate.lines_in(self._joined)
        if len(items) == len(every):  # the widest selection itself (no other has as many lines)
            return hits
        if key not in self._within:
            at = {id(ln): k for k, (_, ln) in enumerate(items)}
            self._within[key] = [at.get(id(ln), -1) for _, ln in every]
        within = self._within[key]
        return [k for k in (within[i] for i in hits) if k >= 0]

    def texts_for(
        self, *gated: Gated, events: bool = True, log: bool = True, warnings: bool = False
    ) -> list[tuple[int, Line]]:
        """The :meth:`texts` lines one of ``gated`` may match, in order: a superset of the lines it does match (the
        caller still searches each), without a Python test per line. Every line when a regex has no gate."""
        items = list(self.texts(events=events, log=log, warnings=warnings))
        gate = _any_gate_of(gated) if prefilter_enabled() else None
        if gate is None:
            return items
        return [items[i] for i in self.admitted(gate, events=events, log=log, warnings=warnings)]

    def _select(self, *, events: bool, log: bool, warnings: bool) -> Iterable[tuple[int, Line]]:
        if self.failure_message:
            if self._failure_line is None:  # one Line for every selection (admitted finds it by identity)
                self._failure_line = prepare([self.failure_message]).lines[0]
            yield ORDER_FAILURE_MESSAGE, self._failure_line
        if events:
            for ln in self.events.lines:
                if ln.usable:
                    yield ORDER_EVENT, ln
        if log:
            for ln in self.log.lines:
                if ln.usable or (warnings and ln.warning and not ln.code and not ln.harmless and ln.text.strip()):
                    yield ln.index, ln

    def all_text(self) -> str:
        parts = (
            [self.failure_message or ""] + [ln.text for ln in self.events.lines] + [ln.text for ln in self.log.lines]
        )
        return "\n".join(parts)


class Rule(Protocol):
    @property
    def name(self) -> str: ...

    def __call__(self, ctx: Context) -> list[Signal]: ...


Explainer = str | Callable[[re.Match[str]], str]


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern[str] | LazyRegex  # compiled on first use (lazyregex.py)
    strength: float = 0.85
    secondary: bool = False
    # named groups that, when they take part in the match, set its strength (one regex for a family of wordings
    # whose strongest ones are surer than the rest)
    surer: tuple[tuple[str, float], ...] = ()
    # the verdict's confidence is at most ``cap`` unless the group ``uncapped_by`` takes part in the match (Signal.cap)
    cap: float = 1.0
    uncapped_by: str | None = None
    gate: Gate | None = field(init=False, compare=False, repr=False)
    first: AnyGate | None = field(init=False, compare=False, repr=False)  # the gate's first clause alone

    def __post_init__(self) -> None:
        object.__setattr__(self, "gate", gate_for(self.regex))  # built once, at import time
        object.__setattr__(self, "first", AnyGate.of([self.gate]) if self.gate is not None else None)

    def strength_of(self, m: re.Match[str]) -> float:
        return next((s for g, s in self.surer if m.group(g) is not None), self.strength)

    def cap_of(self, m: re.Match[str]) -> float:
        return 1.0 if self.uncapped_by is not None and m.group(self.uncapped_by) is not None else self.cap


# Ray's account of a worker that died without a reason of its own ("Worker unexpectedly exits with a connection error
# code 2. End of file. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer …
# (3) The worker is crashed unexpectedly due to SIGSEGV …"): a list of possibilities, not a statement of any one
# (host_oom reads it weakly; segfault never reads its SIGSEGV)
RAY_LISTED_CAUSES = r"potential root causes\. \(1\) The process is killed by SIGKILL by OOM killer"


def pat(
    expr: str,
    strength: float = 0.85,
    *,
    secondary: bool = False,
    flags: int = re.IGNORECASE,
    surer: dict[str, float] | None = None,
    cap: float = 1.0,
    uncapped_by: str | None = None,
) -> Pattern:
    return Pattern(LazyRegex(expr, flags), strength, secondary, tuple((surer or {}).items()), cap, uncapped_by)


@dataclass(frozen=True)
class PatternRule:
    """A failure family recognised by lines alone; each matching line yields one signal."""

    name: str
    label: Label
    origin: Origin
    fix_kind: FixKind
    explanation: Explainer
    fix_description: Explainer
    patterns: tuple[Pattern, ...]
    what_would_confirm: str | None = None
    in_events: bool = True
    in_log: bool = True
    in_warnings: bool = False
    max_hits: int = 3
    exclude: re.Pattern[str] | None = None  # lines that match it are another family's, whatever else they say
    skip_benign: bool = False  # with in_warnings: a line on the benign list is not read
    any_gate: AnyGate | None = field(init=False, compare=False, repr=False)
    excluded: Gated | None = field(init=False, compare=False, repr=False)  # ``exclude`` behind its literal gate

    def __post_init__(self) -> None:
        object.__setattr__(self, "any_gate", AnyGate.of([p.gate for p in self.patterns]))
        object.__setattr__(self, "excluded", Gated.of(self.exclude) if self.exclude is not None else None)

    def __call__(self, ctx: Context) -> list[Signal]:
        out: list[Signal] = []
        gating = prefilter_enabled()
        any_gate = self.any_gate if gating else None
        where = {"events": self.in_events, "log": self.in_log, "warnings": self.in_warnings}
        items = list(ctx.texts(**where))
        at: Sequence[int] = range(len(items)) if any_gate is None else ctx.admitted(any_gate, **where)
        # a literal as common as "loss" admits most lines of a training log: then each pattern finds its own
        # candidate lines (its first clause) once, instead of testing every pattern's gate on every line
        which: list[set[int] | None] | None = None
        if any_gate is not None and len(at) > BROAD:
            which = [None if p.first is None else set(ctx.admitted(p.first, **where)) for p in self.patterns]
        for i in at:
            order, ln = items[i]
            found = self._match(ln, gating, which, i)
            if found is not None:
                p, m = found
                out.append(
                    Signal(
                        label=self.label,
                        origin=self.origin,
                        strength=p.strength_of(m),
                        order=order if order < 0 else ln.index,
                        evidence=[ln.raw.rstrip()],
                        explanation=_render(self.explanation, m),
                        fix_kind=self.fix_kind,
                        fix_description=_render(self.fix_description, m),
                        secondary=p.secondary,
                        what_would_confirm=self.what_would_confirm,
                        detail={k: v for k, v in m.groupdict().items() if v},
                        cap=p.cap_of(m),
                    )
                )
            if len(out) >= self.max_hits:
                break
        return out

    def _match(
        self, ln: Line, gating: bool, which: list[set[int] | None] | None = None, at: int = -1
    ) -> tuple[Pattern, re.Match[str]] | None:
        """The first of the family's patterns that reads ``ln`` and its match (``which[k]``: the positions where
        pattern k's first clause is, when known; ``at``: the line's position)."""
        text, folded = ln.text, ln.folded
        if self.excluded is not None and self.excluded.search(text, folded):
            return None
        if self.skip_benign and ln.warning and is_benign(text, folded):
            return None
        for k, p in enumerate(self.patterns):
            if which is not None and (cand := which[k]) is not None and at not in cand:
                continue
            if gating and p.gate is not None and not p.gate.admits(text, folded):
                continue
            m = p.regex.search(text)
            if m is not None:
                return p, m
        return None

    def reads_from(self, ctx: Context, start: int) -> bool:
        """Whether a primary pattern reads a log line at index ``start`` or later. The signals stop at ``max_hits``
        lines, so a failure printed again further on (a wrapper's report quoting it, another rank's copy) is looked
        for here when it matters whether the family is read again."""
        gating = prefilter_enabled()
        for order, ln in ctx.texts(events=False, log=self.in_log, warnings=self.in_warnings):
            if order >= 0 and ln.index >= start and (found := self._match(ln, gating)) is not None:
                if not found[0].secondary:
                    return True
        return False


def _render(e: Explainer, m: re.Match[str]) -> str:
    return e(m) if callable(e) else e


@lru_cache(maxsize=256)
def _any_gate_of(gated: tuple[Gated, ...]) -> AnyGate | None:
    return AnyGate.of([g.gate for g in gated])


REGISTRY: list[Rule] = []


def register(rule: Rule) -> Rule:
    """Add a rule to the registry (module import time); returns it so modules can keep a name."""
    REGISTRY.append(rule)
    return rule


@dataclass(frozen=True)
class FunctionRule:
    name: str
    fn: Callable[[Context], list[Signal]]

    def __call__(self, ctx: Context) -> list[Signal]:
        return self.fn(ctx)


def function_rule(fn: Callable[[Context], list[Signal]]) -> FunctionRule:
    """A rule that needs judgement, named after its function; its family registers it (see ``family.py``)."""
    return FunctionRule(fn.__name__, fn)


def exit_evidence(ctx: Context, wanted: set[int]) -> tuple[list[str], int]:
    """Verbatim evidence for an exit code (the failure message or the log line that states it) and its order."""
    from runshepherd.diagnosis.errorblock import exit_codes

    if ctx.failure_message and set(exit_codes([ctx.failure_message])) & wanted:
        return [ctx.failure_message], ORDER_FAILURE_MESSAGE
    for ln in ctx.log.lines:
        if not wanted.isdisjoint(ln.exit_codes):
            return [ln.raw.rstrip()], ln.index
    if ctx.exit_code in wanted:
        return [f"exit_code: {ctx.exit_code}"] + ([ctx.failure_message] if ctx.failure_message else []), ORDER_STATUS
    return [], ORDER_STATUS


def codes_of(ctx: Context) -> list[int]:
    """The task's exit code when known, else the non-zero exit codes its log states."""
    if ctx.exit_code is not None:
        return [ctx.exit_code]
    return [c for ln in ctx.log.lines[-400:] for c in ln.exit_codes if c]


def raised(ctx: Context, pattern: re.Pattern[str]) -> Iterator[tuple[int, Line, re.Match[str]]]:
    """The first six exception lines of the log that ``pattern`` matches (the line stripped), in order, with the
    match: the loop of the rules that read one exception and the frame just above it."""
    lines = ctx.log.lines
    for idx in ctx.log.exceptions[:6]:
        m = pattern.match(lines[idx].text.strip())
        if m is not None:
            yield idx, lines[idx], m


def _is_frame(ln: Line) -> bool:
    return ln.text.lstrip().startswith("File ")


def line_above(ctx: Context, idx: int, within: int = 4, keep: Callable[[Line], object] = _is_frame) -> Line | None:
    """The nearest line among the ``within`` lines above line ``idx`` that ``keep`` accepts (default: a traceback
    frame, so the deepest frame that raised the exception), or None."""
    return next((ln for ln in reversed(ctx.log.lines[max(0, idx - within) : idx]) if keep(ln)), None)
