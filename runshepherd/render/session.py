"""Show a session's events on a terminal, or as JSON lines (`--json`): shared by the CLI and the chat."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console

from runshepherd import wording
from runshepherd.events import (
    Answered,
    AppSaved,
    BaseEvent,
    DiagnosisEvent,
    Done,
    Downloaded,
    FixProposed,
    LogsReaders,
    Message,
    Pending,
    Planned,
    Progress,
    QuestionEvent,
    Report,
    StatusChanged,
    Submitted,
    parse_event,
)


def done_event(values: dict[str, Any]) -> dict[str, Any]:
    """The `done` event of a finished session, from its final state: counts as recorded, nothing inferred."""
    return Done(
        outcome=values.get("outcome") or "FAILED",
        reason=values.get("outcome_reason"),
        declined=bool(values.get("declined")),
        workflow_ids=values.get("workflow_ids") or [],
        fix_attempts=values.get("fix_attempts", 0),
        unchanged_retries=values.get("unchanged_retries", 0),
        infra_retries=values.get("infra_retries", 0),
        outputs=values.get("outputs") or [],
        downloaded=values.get("downloaded") or [],
        downloaded_count=values.get("downloaded_count", len(values.get("downloaded") or [])),
        download_dir=values.get("download_dir"),
        app=values.get("app"),
        status_artifact=values.get("report_path"),
        llm_usage=values.get("llm_usage"),
    ).wire()


def done_line(session: str, done: dict[str, Any], kind: str = "session") -> str:
    """The last terminal line of a finished session; a "no" before submitting reads as the person's own stop."""
    if done.get("declined"):
        return (
            f"{kind} {session} done · {wording.sentence_start(str(done.get('reason') or 'not submitted, as you said'))}"
        )
    outcome = done.get("outcome")
    reason = f" ({done['reason']})" if done.get("reason") and outcome != "COMPLETED" else ""
    return f"{kind} {session} done · {outcome}{reason}"


def exit_code(done: dict[str, Any]) -> int:
    """§13.2: 0 completed or declined by the person, 3 paused for an answer, 1 otherwise."""
    if done.get("paused"):
        return 3
    return 0 if done.get("outcome") == "COMPLETED" or done.get("declined") else 1


def paused(renderer: Renderer, session: str, payload: dict[str, Any], kind: str = "session") -> int:
    """A session (or sweep) waits for an answer no one can give here (`--no-input`, no terminal): the question and
    the exact `orchestrate resume … --answer …` line that answers it (the paused `done` in JSON). Exit 3."""
    from runshepherd.names import quoted

    choices = payload.get("choices") or ["yes", "no"]
    line = f"orchestrate resume {quoted(session)} --answer {choices[0]}"
    if renderer.as_json:
        done = Done(outcome="NEEDS_INPUT", paused=True, resume=line, answers=choices, question=payload.get("text"))
        renderer.event(done.wire(only_set=True))
    else:
        renderer.out.print(f"? {payload.get('kind')}: {payload.get('text')}", markup=False)
        renderer.out.print(
            f"{kind} {session} paused, waiting for your answer ({', '.join(choices)}). Continue with:\n  {line}",
            markup=False,
        )
    return 3


def usage_line(usage: dict[str, Any]) -> str:
    nodes = ", ".join(f"{k} {v['input'] + v['output']}" for k, v in (usage.get("by_node") or {}).items())
    cost = f", cost {usage['cost']:g}" if usage.get("cost") else ""
    return f"model tokens: {usage.get('total_tokens', 0)} ({nodes}){cost}"


@dataclass
class Renderer:
    session: str
    as_json: bool
    out: Console
    seen_questions: set[str] = field(default_factory=set)
    notifier: Any = None  # SessionNotifier when `notify:` targets are configured

    def notify(self, ev: dict[str, Any]) -> None:
        if self.notifier is not None:
            self.notifier.on_event(ev)

    def event(self, ev: dict[str, Any]) -> None:
        """One streamed event: a JSON line as it came (plus ``session``), or its terminal line by type."""
        self.notify(ev)
        if self.as_json:
            sys.stdout.write(json.dumps({**ev, "session": self.session}, default=str) + "\n")
            sys.stdout.flush()
            return
        typed = parse_event(ev)
        show = _LINES.get(type(typed)) if typed is not None else None
        style = _STYLES.get(type(typed)) if typed is not None else None
        if isinstance(typed, StatusChanged) and (typed.to.startswith("FAILED") or typed.to == "COMPLETED"):
            style = "bold red" if typed.to.startswith("FAILED") else "bold green"
        for line in show(typed) if show is not None else []:
            # Strings stay one line each; rendered Markdown wraps at words (soft wrap would crop it at the width).
            self.out.print(line, markup=False, style=style, soft_wrap=isinstance(line, str))

    def question(self, qid: str, payload: dict[str, Any]) -> None:
        if qid in self.seen_questions:
            return
        self.seen_questions.add(qid)
        ev = QuestionEvent(
            id=qid,
            kind=str(payload.get("kind")),
            text=str(payload.get("text")),
            default=str(payload.get("default")),
            choices=list(payload.get("choices") or []),
        ).wire()
        if self.as_json:
            self.event(ev)
        else:
            self.notify(ev)

    def done(self, values: dict[str, Any]) -> str:
        """Show the end of a session (the `done` event in JSON); returns its outcome."""
        done = done_event(values)
        outcome = str(done["outcome"])
        if self.as_json:
            self.event(done)
        else:
            self.notify(done)
            style = "bold green" if outcome == "COMPLETED" else "bold red" if outcome == "FAILED" else "bold yellow"
            self.out.print(done_line(self.session, done), markup=False, style="bold" if done["declined"] else style)
            if done["status_artifact"]:
                self.out.print(f"status: {done['status_artifact']}", markup=False)
            if done["llm_usage"]:
                self.out.print(usage_line(done["llm_usage"]), markup=False)
        return outcome


def _planned(e: Planned) -> Iterator[str]:
    yield f"● plan      {e.message}"
    yield from (f"  ! {w}" for w in e.warnings)
    yield from (f"  ? missing: {m}" for m in e.missing)


def _pending(e: Pending) -> Iterator[str]:
    yield f"● pending   {e.text}"
    yield from (f"  - {s}" for s in e.suggestions)


def _diagnosis(e: DiagnosisEvent) -> Iterator[str]:
    yield f"● diagnosis {e.label} ({e.origin}): {e.explanation}"
    yield from (f"    │ {line}" for line in e.evidence)


def _fix(e: FixProposed) -> Iterator[str]:
    yield f"● fix       {wording.proposed(e.explanation)}"
    if e.diff:
        yield e.diff.rstrip()


# Colour on a terminal (rich drops it on a pipe); events not listed print in the default colour.
_STYLES: dict[type[BaseEvent], str] = {
    Planned: "bold",
    Submitted: "cyan",
    StatusChanged: "blue",
    DiagnosisEvent: "yellow",
    FixProposed: "magenta",
    Downloaded: "green",
    AppSaved: "green",
    Message: "dim",
}


def _report(e: Report) -> list[Any]:
    """The digest as terminal text (the Markdown is in the artifact). rich's Markdown (markdown-it, ~0.1 s to
    import) loads here, not in every command that imports this module (`sessions`, `cancel`, `--json` runs)."""
    from rich.markdown import Markdown

    return [Markdown(e.digest)] if e.digest else []


# How each event reads on a terminal (one entry per event type; events without one print nothing there).
_LINES: dict[type[BaseEvent], Callable[[Any], Iterable[Any]]] = {
    Planned: _planned,
    Submitted: lambda e: [
        f"● submitted {e.workflow_id} (attempt {e.attempt})" + (" (found the earlier submission)" if e.reused else "")
    ],
    StatusChanged: lambda e: [f"● status    {e.text}"],
    Progress: lambda e: [f"● progress  {e.text}"],
    Pending: _pending,
    LogsReaders: lambda e: [f"● logs      {e.tasks} task(s) read by {e.readers} reader(s)"],
    DiagnosisEvent: _diagnosis,
    FixProposed: _fix,
    Answered: lambda e: [
        f"? {e.kind:<9} {(e.text.splitlines() or [''])[0]} → {e.answer} "
        + ("(pre-answered)" if e.automatic else "(your answer, given once)")
    ],
    Report: _report,
    Downloaded: lambda e: [f"● download  {e.files} file(s) → {e.dest}"],
    AppSaved: lambda e: [f"● app       saved {e.name} v{e.version}"],
    Message: lambda e: [f"  {e.level}: {e.text}"],
}
