"""The deterministic extraction both diagnosis paths read: per failed task, its status and exit codes, its events,
its error block, the error-looking line no family explains, and the candidate families the rules found.

The rule engine decides from it; the LLM path is shown the same facts (never the raw log), and may only quote
the verbatim lines listed here as evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from runshepherd.diagnosis.engine import _events_for, _logs_for, collect, root_reading
from runshepherd.diagnosis.errorblock import error_looking
from runshepherd.diagnosis.models import DiagnosisInput
from runshepherd.diagnosis.rules import Context

MAX_BLOCK_LINES = 50
MAX_CANDIDATES = 5
MAX_EVENTS = 20


@dataclass
class Candidate:
    label: str
    strength: float
    evidence: list[str]
    reading: bool = False  # only the root error line's words point to it (the backoff before "unknown")


@dataclass
class TaskExtraction:
    task: str | None
    status: str | None
    exit_code: int | None
    failure_message: str | None
    exit_codes_in_log: list[int] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    error_block: list[str] = field(default_factory=list)
    unexplained: str | None = None
    candidates: list[Candidate] = field(default_factory=list)

    def verbatim(self) -> list[str]:
        """The input lines evidence may quote."""
        return [x for x in [self.failure_message, *self.events, *self.error_block] if x]


def extract_context(ctx: Context) -> TaskExtraction:
    lines = ctx.log.lines
    best: dict[str, Candidate] = {}
    for s in collect(ctx):
        if s.secondary or s.label == "unknown":
            continue
        c = best.get(s.label)
        if c is None or s.strength > c.strength:
            best[s.label] = Candidate(s.label, round(s.strength, 2), list(s.evidence[:2]))
    candidates = sorted(best.values(), key=lambda c: -c.strength)[:MAX_CANDIDATES]
    if not candidates:
        reading = root_reading(ctx)
        if reading is not None:
            candidates = [
                Candidate(reading.label, round(reading.strength, 2), list(reading.evidence[:2]), reading=True)
            ]
    wanted: list[int] = []
    if ctx.log.root is not None:
        wanted += [ln.index for ln in ctx.log.window(before=20, after=10)]
    wanted += [ln.index for _, ln in zip(range(5), error_looking(lines), strict=False)]
    quoted = {e for c in candidates for e in c.evidence}
    wanted += [ln.index for ln in lines if ln.raw.rstrip() in quoted]
    if not wanted:
        wanted = [ln.index for ln in lines[-MAX_BLOCK_LINES:]]
    idx = sorted(set(wanted))[-MAX_BLOCK_LINES:]
    unexplained = next(error_looking(lines), None)
    return TaskExtraction(
        task=ctx.task,
        status=ctx.status,
        exit_code=ctx.exit_code,
        failure_message=ctx.failure_message,
        exit_codes_in_log=sorted({c for ln in lines for c in ln.exit_codes if c}),
        events=[ln.raw.rstrip() for ln in ctx.events.lines[-MAX_EVENTS:] if ln.raw.strip()],
        error_block=[lines[i].raw.rstrip() for i in idx if lines[i].raw.strip()],
        unexplained=unexplained.raw.rstrip() if unexplained is not None else None,
        candidates=candidates,
    )


def extract(inp: DiagnosisInput) -> list[TaskExtraction]:
    """One extraction per failed task (or one for the whole input when no task failed or none is known)."""
    failed = [t for t in inp.tasks if t.is_failed() and (t.status or "").upper() != "FAILED_UPSTREAM"]
    out = [
        extract_context(
            Context.build(
                task=t.name,
                status=t.status,
                exit_code=t.exit_code,
                failure_message=t.failure_message,
                events=_events_for(inp.events, t.name),
                log_lines=_logs_for(inp, t.name),
            )
        )
        for t in failed[:10]
    ]
    if not out:
        out.append(
            extract_context(
                Context.build(
                    status=inp.status.value if inp.status else None,
                    failure_message=inp.failure_message,
                    events=inp.events,
                    log_lines=[ln for lines in inp.log_lines.values() for ln in lines],
                )
            )
        )
    return out


def render(inp: DiagnosisInput, extractions: list[TaskExtraction]) -> tuple[str, list[str]]:
    """The extraction as text for a model, and the verbatim lines in it that evidence may quote."""
    out = [f"workflow {inp.workflow_id}: status {inp.status.value if inp.status else 'unknown'}"]
    verbatim: list[str] = []
    for x in extractions:
        name = x.task or "(whole log)"
        out.append(f"## task {name}: status {x.status or '?'}, exit code {x.exit_code}")
        if x.exit_codes_in_log:
            out.append(f"exit codes the log states: {', '.join(map(str, x.exit_codes_in_log))}")
        if x.candidates:
            out.append("candidate families from the rules (strongest first):")
            out += [
                f"- {c.label} ({c.strength:.2f}{', only a reading of the root error line' if c.reading else ''})"
                for c in x.candidates
            ]
        else:
            out.append("candidate families from the rules: none")
        if x.unexplained:
            out.append("first error-looking line (quoted in the block below)")
        out.append("verbatim lines (quote evidence from here, whole lines, unchanged):")
        lines = x.verbatim()
        out += lines
        verbatim += lines
    return "\n".join(out), verbatim
