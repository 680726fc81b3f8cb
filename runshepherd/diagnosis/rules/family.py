"""A failure family as one declarative unit, and the registry everything else is derived from.

A family module calls :func:`family` once: its label, default origin and fix, the patterns that recognise it,
the exit codes and scheduler statuses that point to it, when it applies (a failed, a still-running or a
completed run), how it relates to other failures (it is often the echo of an earlier error; it causes others),
and the function that turns its diagnosis into a spec edit. The engine's signal collection, the label sets per
run phase, the echo rules, the fix dispatch and the infrastructure labels the session retries are all read from
:data:`FAMILIES`; adding a family is adding a module to ``rules/`` and its name to ``rules/__init__.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from runshepherd.diagnosis.errorblock import strip_prefix
from runshepherd.diagnosis.formats.exceptions import ROWS as DOCUMENTED_EXCEPTIONS
from runshepherd.diagnosis.formats.exceptions import family_of as documented_family
from runshepherd.diagnosis.lazyregex import LazyRegex
from runshepherd.diagnosis.models import Diagnosis, FixKind, Label, Origin
from runshepherd.diagnosis.paste import uncolumned
from runshepherd.diagnosis.rules.base import (
    ORDER_STATUS,
    Context,
    Explainer,
    Pattern,
    PatternRule,
    Rule,
    Signal,
    codes_of,
    exit_evidence,
    register,
)

Phase = Literal["failed", "running", "completed"]
FixResult = tuple[str | None, str]  # (patched spec text or None, description)
Fixer = Callable[[Diagnosis, Any, Any], FixResult]  # (diagnosis, parsed spec, nodes or None)
# the fix a maintainer gives when it depends on the evidence, not only on the family: (kind, words) or None
FixChoice = tuple[FixKind, str]
FixFromEvidence = Callable[[Context, Signal], FixChoice | None]
# the family's own test that a failure it found was transient: the run shows it went away (a NaN step skipped)
Recovered = Callable[[Context, Signal], bool]
CodeText = str | Callable[[int], str]
ANY_NONZERO: frozenset[int] = frozenset()  # an ExitCodes with no codes matches every non-zero exit


@dataclass(frozen=True)
class ExitCodes:
    """Exit codes (and statuses meaning the same) that point to the family, with how strongly they do."""

    codes: frozenset[int]
    strength: float
    explanation: CodeText | None = None  # None: the family's
    fix_description: str | None = None
    what_would_confirm: str | None = None
    statuses: frozenset[str] = frozenset()  # scheduler statuses that count as one of these codes
    secondary: bool = False

    def hit(self, codes: list[int], status: str | None) -> set[int] | None:
        """The codes of this entry the task shows (an empty set when only a status matched); None if none."""
        if not self.codes:
            nonzero = {c for c in codes if c != 0}
            return nonzero or None
        found = self.codes & set(codes)
        if found:
            return set(found)
        return set() if status in self.statuses else None


def exits(
    *codes: int,
    strength: float,
    explanation: CodeText | None = None,
    fix_description: str | None = None,
    what_would_confirm: str | None = None,
    statuses: tuple[str, ...] = (),
    secondary: bool = False,
) -> ExitCodes:
    return ExitCodes(
        frozenset(codes), strength, explanation, fix_description, what_would_confirm, frozenset(statuses), secondary
    )


@dataclass(frozen=True)
class RootWords:
    """Words that, read in a failed log's root error line, point to the family when no rule named the failure.

    A weak reading of one line (the engine's backoff before "unknown"): a documented vocabulary ("out of memory",
    "permission denied", "timed out") said without the wording a family's own rules know. ``when``: the line must
    also say this (memory said of a device); ``unless``: the line must not say this.
    """

    regex: re.Pattern[str] | LazyRegex
    strength: float  # 0.5-0.65: below every family's own wording
    topic: str  # what the words speak of, for the explanation ("memory on a GPU or other device")
    when: re.Pattern[str] | LazyRegex | None = None
    unless: re.Pattern[str] | LazyRegex | None = None


def words(expr: str, strength: float, topic: str, *, when: str | None = None, unless: str | None = None) -> RootWords:
    """One entry of a family's root-line vocabulary (case-insensitive)."""
    if not 0.5 <= strength <= 0.65:
        raise ValueError(f"a root-line reading is weak: strength {strength} is outside 0.5-0.65")
    flags = re.IGNORECASE
    return RootWords(
        LazyRegex(expr, flags),
        strength,
        topic,
        LazyRegex(when, flags) if when else None,
        LazyRegex(unless, flags) if unless else None,
    )


@dataclass(frozen=True)
class CauseDetail:
    """A detail block the family prints after its summary: a header line, then the line that names the cause.

    When a family of one of ``origins`` reads that detail line in its own wording (a signal of 0.8 or more), the
    family's summary in the ``within`` lines above it is the detail's echo, and yields ``by``.
    """

    header: re.Pattern[str]
    origins: frozenset[Origin]
    within: int = 6
    by: float = 0.2
    # the family's own diagnostic lines, wherever they stand (NCCL's "NCCL WARN …" under NCCL_DEBUG, which ranks print
    # before or after the summary): when a family of ``origins`` reads one in its own wording, the family's signals are
    # that cause's echo and lose ``by``
    account: re.Pattern[str] | None = None
    # families followed whatever their origin (a user-origin cause the detail names outright: NCCL's failed CUDA
    # allocation is the GPU's memory)
    labels: frozenset[str] = frozenset()

    def follows(self, s: Signal) -> bool:
        return s.origin in self.origins or s.label in self.labels


def cause_detail(
    header: str,
    *,
    origins: tuple[Origin, ...],
    within: int = 6,
    by: float = 0.2,
    account: str | None = None,
    labels: tuple[str, ...] = (),
) -> CauseDetail:
    """Declare the detail block a family prints after its summary (``header``: the line just before the detail) and,
    optionally, the prefix of its own diagnostic lines (``account``) that may name the cause earlier in the log."""
    return CauseDetail(
        re.compile(header), frozenset(origins), within, by, re.compile(account) if account else None, frozenset(labels)
    )


@dataclass(frozen=True)
class Family:
    label: Label
    origin: Origin
    fix_kind: FixKind
    explanation: Explainer
    fix_description: Explainer
    rules: tuple[Rule, ...] = ()
    exit_codes: tuple[ExitCodes, ...] = ()
    statuses: Mapping[str, float] = field(default_factory=dict)  # scheduler status → strength
    applies: frozenset[Phase] = frozenset({"failed"})
    echo: bool = False  # often the echo of an earlier error: demoted when another family's error came first
    # evidence that makes a signal of the family an echo all the same (an abort: a process ending itself on an error
    # it reported just before)
    echo_evidence: re.Pattern[str] | None = None
    causes: frozenset[str] = frozenset()  # labels a retried-in-vain failure of this family typically causes next
    fixer: Fixer | None = None
    what_would_confirm: str | None = None
    frames: re.Pattern[str] | None = None  # source paths of the deepest traceback frame that point here
    frame_functions: re.Pattern[str] | None = None  # function names of the deepest frame that point here
    exceptions: re.Pattern[str] | None = None  # exception types (with their module) that point here
    # its frames name checks that run before any work (a config's validation): not read after the run made progress
    frames_before_work: bool = False
    fix_from_evidence: FixFromEvidence | None = None  # when the right fix depends on what the log shows
    recovered: Recovered | None = None  # when a signal of the family was transient (the engine drops it)
    root_words: tuple[RootWords, ...] = ()  # its vocabulary for reading a lone root error line (the backoff)
    detail: CauseDetail | None = None  # a detail it prints after its summary names the cause (another family's)


FAMILIES: dict[str, Family] = {}


def family(
    label: Label,
    *,
    origin: Origin,
    fix_kind: FixKind,
    explanation: Explainer,
    fix_description: Explainer,
    patterns: tuple[Pattern, ...] = (),
    warning_patterns: tuple[Pattern, ...] = (),
    in_events: bool = True,
    in_log: bool = True,
    in_warnings: bool = False,
    exclude: str | None = None,
    rules: tuple[Rule, ...] = (),
    exit_codes: tuple[ExitCodes, ...] = (),
    statuses: Mapping[str, float] | None = None,
    late_rules: tuple[Rule, ...] = (),
    applies: tuple[Phase, ...] = ("failed",),
    echo: bool = False,
    echo_evidence: str | None = None,
    causes: tuple[str, ...] = (),
    fixer: Fixer | None = None,
    what_would_confirm: str | None = None,
    frames: str | None = None,
    frame_functions: str | None = None,
    exceptions: str | None = None,
    frames_before_work: bool = False,
    fix_from_evidence: FixFromEvidence | None = None,
    recovered: Recovered | None = None,
    root_words: tuple[RootWords, ...] = (),
    detail: CauseDetail | None = None,
) -> Family:
    """Declare a family and register its rules: its patterns, ``rules``, its statuses and exits, ``late_rules``.

    ``warning_patterns`` are read on warning-level lines too: causes that programs report as a warning.
    ``exclude`` names lines the patterns never read (they belong to another family whatever else they say).
    ``in_warnings`` reads the family's own ``patterns`` on warning-level lines as well, skipping lines on the benign
    list (a scheduler's verdict is often logged at warning or info level).
    ``root_words`` is the family's vocabulary for the engine's backoff before "unknown" (``diagnosis/rootline.py``).
    ``detail`` is the block it prints after its summary to name the cause (:func:`cause_detail`): another family's
    reading of that cause outranks the summary (:func:`yield_to_details`).
    """
    if label in FAMILIES:
        raise ValueError(f"failure family {label!r} is declared twice")
    own: list[Rule] = []
    rules_of = ((label, patterns, in_warnings, in_warnings), (f"{label}_warnings", warning_patterns, True, False))
    for name, pats, warnings, skip_benign in rules_of:
        if pats:
            own.append(
                PatternRule(
                    name=name,
                    label=label,
                    origin=origin,
                    fix_kind=fix_kind,
                    explanation=explanation,
                    fix_description=fix_description,
                    patterns=pats,
                    what_would_confirm=what_would_confirm,
                    in_events=in_events,
                    in_log=in_log,
                    in_warnings=warnings,
                    skip_benign=skip_benign,
                    exclude=re.compile(exclude, re.IGNORECASE) if exclude else None,
                )
            )
    fam = Family(
        label=label,
        origin=origin,
        fix_kind=fix_kind,
        explanation=explanation,
        fix_description=fix_description,
        rules=(*own, *rules, *late_rules),
        exit_codes=exit_codes,
        statuses=dict(statuses or {}),
        applies=frozenset(applies),
        echo=echo,
        echo_evidence=re.compile(echo_evidence) if echo_evidence else None,
        causes=frozenset(causes),
        fixer=fixer,
        what_would_confirm=what_would_confirm,
        frames=re.compile(frames) if frames else None,
        frame_functions=re.compile(frame_functions) if frame_functions else None,
        exceptions=re.compile(exceptions) if exceptions else None,
        frames_before_work=frames_before_work,
        fix_from_evidence=fix_from_evidence,
        recovered=recovered,
        root_words=root_words,
        detail=detail,
    )
    FAMILIES[label] = fam
    for r in (*own, *rules):
        register(r)
    if fam.frames or fam.frame_functions or fam.exceptions or any(r.label == label for r in DOCUMENTED_EXCEPTIONS):
        register(TracebackRule(fam))
    if fam.statuses or fam.exit_codes:
        register(StatusAndExitRule(fam))
    for r in late_rules:
        register(r)
    return fam


def _text(t: CodeText | None, default: Explainer, code: int) -> str:
    """An exit entry's own text (a function of the code, or fixed), else the family's fixed text."""
    if callable(t):
        return t(code)
    if t is not None:
        return t
    return default if isinstance(default, str) else f"The task failed (exit code {code})."


@dataclass(frozen=True)
class StatusAndExitRule:
    """The one rule for every family's statuses and exit codes (the strongest matching entry decides)."""

    fam: Family

    @property
    def name(self) -> str:
        return f"{self.fam.label}_status_and_exit"

    def __call__(self, ctx: Context) -> list[Signal]:
        f = self.fam
        out: list[Signal] = []
        if ctx.status is not None and ctx.status in f.statuses:
            out.append(
                Signal(
                    f.label,
                    f.origin,
                    f.statuses[ctx.status],
                    ORDER_STATUS,
                    [f"status: {ctx.status}"],
                    _text(None, f.explanation, 0),
                    f.fix_kind,
                    _text(None, f.fix_description, 0),
                )
            )
        if not f.exit_codes:
            return out
        codes = codes_of(ctx)
        hits = [(e, h) for e in f.exit_codes if (h := e.hit(codes, ctx.status)) is not None]
        if not hits:
            return out
        best, _ = max(hits, key=lambda eh: eh[0].strength)
        found = set().union(*(h for _, h in hits))
        wanted = found or set().union(*(e.codes for e, _ in hits))
        ev, order = exit_evidence(ctx, wanted)
        first = next((c for c in codes if c in found), 0)
        if not ev:
            ev = [f"exit_code: {first}"] if first else ([f"status: {ctx.status}"] if ctx.status else [])
        out.append(
            Signal(
                f.label,
                f.origin,
                best.strength,
                order,
                ev,
                _text(best.explanation, f.explanation, first),
                f.fix_kind,
                _text(best.fix_description, f.fix_description, first),
                secondary=best.secondary,
                what_would_confirm=best.what_would_confirm or f.what_would_confirm,
            )
        )
        return out


TRACEBACK_STRENGTH = 0.72  # above a bare exception (user_code_error, 0.66), below a family's own wording
_FRAME_PATH = re.compile(r'^\s*File "(?P<path>[^"]+)", line \d+(?:, in (?P<func>[\w<>.]+))?')


@dataclass(frozen=True)
class TracebackRule:
    """Where a traceback ends says what failed, whatever the message's wording: the exception's type and module
    (``urllib3.exceptions.ConnectTimeoutError``) and the file of the deepest frame (``transformers/training_args.py``,
    ``urllib3/connection.py``). A traceback cut off before its exception line is read from its last frame."""

    fam: Family

    @property
    def name(self) -> str:
        return f"{self.fam.label}_traceback"

    def __call__(self, ctx: Context) -> list[Signal]:
        from runshepherd.diagnosis.errorblock import exception_type

        f = self.fam
        lines = ctx.log.lines
        ends = list(ctx.log.exceptions[:6])
        if lines and not ends or (ends and _open_traceback_after(lines, ends[-1])):
            last_frame = ctx.log.last_frame
            if last_frame is not None:
                ends.append(last_frame)
        for idx in ends:
            ln = lines[idx]
            et = exception_type(ln.text)
            hit = bool(et and (documented_family(et[0]) == f.label or (f.exceptions and f.exceptions.search(et[0]))))
            frame = deepest_frame(lines, idx)
            if not hit and frame is not None and (not et or _OWN_FAMILY.get(_short(et[0]), f.label) == f.label):
                m = _FRAME_PATH.match(frame.text)
                if m and f.frames is not None:
                    hit = bool(f.frames.search(m.group("path").replace("\\", "/")))
                if m and not hit and f.frame_functions is not None and m.group("func"):
                    hit = bool(f.frame_functions.fullmatch(m.group("func")))
                if hit and f.frames_before_work and _worked_before(lines, idx):
                    hit = False  # a check of the settings runs before any work: this one came after it
            if not hit:
                continue
            evidence = [ln.raw.rstrip()] if et else []
            if frame is not None and (not et or frame.index != idx):
                evidence.append(frame.raw.rstrip())
            return [
                Signal(
                    f.label,
                    f.origin,
                    TRACEBACK_STRENGTH,
                    idx,
                    evidence,
                    plain(f.explanation),
                    f.fix_kind,
                    plain(f.fix_description),
                    what_would_confirm=f.what_would_confirm,
                )
            ]
        return []


_NO_GROUPS = re.compile("").match("")


def plain(e: Explainer) -> str:
    """A family's text with nothing taken from a matched line (a traceback's end names no path or package)."""
    if callable(e):
        assert _NO_GROUPS is not None
        return e(_NO_GROUPS)
    return e


# exceptions whose type already names their family: where they were raised does not change it (a frame of that
# same family only confirms it: an ImportError raised in a library's dependency check)
_OWN_FAMILY = {
    "ImportError": "missing_dependency",
    "ModuleNotFoundError": "missing_dependency",
    "MemoryError": "host_oom",
    "OutOfMemoryError": "gpu_oom",
    "FileNotFoundError": "file_not_found",
    "PermissionError": "permission_or_auth",
    "KeyboardInterrupt": "",
}


def _short(etype: str) -> str:
    return etype.rsplit(".", 1)[-1]


def deepest_frame(lines: list[Any], idx: int) -> Any:
    """The last ``File "…", line N`` frame at or above ``idx`` within its traceback (None if there is none)."""
    for ln in reversed(lines[max(0, idx - 40) : idx + 1]):
        if _FRAME_PATH.match(ln.text):
            return ln
        if ln.index != idx and ln.usable and not ln.text.startswith(" ") and "Traceback" not in ln.text:
            if ln.index < idx - 3:
                return None
    return None


def _worked_before(lines: list[Any], idx: int) -> bool:
    """The run made progress (two distinct progress lines: steps, losses, a moving bar) before line ``idx``."""
    from runshepherd.diagnosis.positive import is_progress

    return len({ln.text for ln in lines[:idx] if is_progress(ln)}) >= 2


def _open_traceback_after(lines: list[Any], idx: int) -> bool:
    """A traceback starts after ``idx`` and never reaches an exception line (the excerpt was cut)."""
    return any("Traceback (most recent call last)" in ln.text for ln in lines[idx + 1 :])


# ------------------------------------------------------------------------------ what the rest derives
def labels_for(phase: Phase) -> set[str]:
    """The labels that can be a verdict on a run in this phase (a running run: only what blocks or spoils it)."""
    return {label for label, f in FAMILIES.items() if phase in f.applies}


def echo_labels() -> set[str]:
    return {label for label, f in FAMILIES.items() if f.echo}


def echoes_by_evidence(s: Signal) -> bool:
    """Whether a signal's own evidence marks it as the echo of an earlier error (``Family.echo_evidence``)."""
    f = FAMILIES.get(s.label)
    if f is None or f.echo_evidence is None:
        return False
    # the evidence is the raw line: read it without a logger's, launcher's or paste's prefix ("2024-… Aborted …",
    # "worker-1  | Aborted (core dumped)")
    return any(f.echo_evidence.search(e) or f.echo_evidence.search(strip_prefix(uncolumned(e))) for e in s.evidence)


def yield_to_details(signals: list[Signal], lines: list[Any]) -> list[Signal]:
    """A family's summary yields to the cause its own detail block names (``Family.detail``): when a family of the
    declared origins reads the line after the block's header in its own wording (0.8 or more, primary), the
    declaring family's signals in the ``within`` lines above that line are its echo and lose ``by``."""
    out = signals
    for f in FAMILIES.values():
        d = f.detail
        if d is None:
            continue
        named = [
            i + 1
            for i, ln in enumerate(lines[:-1])
            if d.header.match(ln.text)
            and any(
                s.order == i + 1 and s.label != f.label and d.follows(s) and not s.secondary and s.strength >= 0.8
                for s in out
            )
        ]
        if named:
            out = [
                replace(s, strength=s.strength - d.by)
                if s.label == f.label and any(n - d.within <= s.order < n for n in named)
                else s
                for s in out
            ]
        # the account's lines are looked for only where another family already read a cause (a few signals, not
        # every line of the log)
        if d.account is not None and any(
            s.label != f.label
            and d.follows(s)
            and not s.secondary
            and s.strength >= 0.8
            and 0 <= s.order < len(lines)
            and d.account.search(lines[s.order].text)
            for s in out
        ):
            out = [replace(s, strength=s.strength - d.by) if s.label == f.label else s for s in out]
    return out


def caused_by(label: str) -> frozenset[str]:
    f = FAMILIES.get(label)
    return f.causes if f else frozenset()


def infra_labels() -> set[str]:
    """Labels whose failures are the platform's: the session resubmits them unchanged (its own retry budget)."""
    return {label for label, f in FAMILIES.items() if f.origin == "infra"}


def fix_for(ctx: Context, s: Signal) -> FixChoice:
    """The fix for the chosen signal: its family's evidence-dependent choice when it makes one, else the signal's."""
    f = FAMILIES.get(s.label)
    choice = f.fix_from_evidence(ctx, s) if f is not None and f.fix_from_evidence is not None else None
    return choice or (s.fix_kind, s.fix_description)


def first_match(ctx: Context, s: Signal, regex: re.Pattern[str]) -> re.Match[str] | None:
    """The first match of ``regex`` in the signal's evidence, else anywhere in the task's text (any level: the
    deciding detail is often an INFO or WARN line, such as NCCL's trace of the failing transport)."""
    for e in s.evidence:
        m = regex.search(e)
        if m:
            return m
    return regex.search(ctx.all_text())


def fixes_by_evidence(*rules: tuple[re.Pattern[str], FixKind, str], evidence_only: bool = False) -> FixFromEvidence:
    """A family's evidence-dependent fix, declared as ordered (pattern, kind, words): the first pattern found in
    the chosen signal's evidence (or, unless ``evidence_only``, anywhere in the task's text) decides."""

    def choose(ctx: Context, s: Signal) -> FixChoice | None:
        for regex, kind, words in rules:
            hit = any(regex.search(e) for e in s.evidence) if evidence_only else first_match(ctx, s, regex)
            if hit:
                return kind, words
        return None

    return choose


def recovered(ctx: Context, s: Signal) -> bool:
    """The signal's family says the failure was transient: the log shows the run got over it."""
    f = FAMILIES.get(s.label)
    return f is not None and f.recovered is not None and f.recovered(ctx, s)


def fixer_for(label: str) -> Fixer | None:
    f = FAMILIES.get(label)
    return f.fixer if f else None
