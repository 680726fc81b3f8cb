"""The status answer: status first, then what the logs show, then the seed's block. Never a made-up number."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from runshepherd.backends.base import Links, Status, TaskStatus, WorkflowStatus
from runshepherd.durations import format_elapsed

State = Literal["running", "pending", "succeeded", "failed", "stale", "unknown"]

GRAFANA_MISSING = "The Grafana resource usage link is not available for this workflow."
DASHBOARD_MISSING = "The Kubernetes dashboard link is not available for this workflow."


class TaskLine(BaseModel):
    name: str
    status: str
    exit_code: int | None = None
    failure_message: str | None = None


class LogFacts(BaseModel):
    """What the log pipeline established; every field may be unknown (None)."""

    progress: str | None = None
    metrics: dict[str, Any] | None = None
    eta_seconds: float | None = None
    last_update: datetime | None = None
    stale: bool = False
    summary: str | None = None
    error_lines: list[str] = Field(default_factory=list)
    risks: list[str] = Field(default_factory=list)
    next_step: str | None = None


class Escalation(BaseModel):
    """Something a person should know about a run, with the line or measurement that raised it."""

    label: str  # underutilized | setup_overhead | stale | repeated_exception | checkpoint_failure | metric_anomaly | …
    evidence: str


class StatusReport(BaseModel):
    """The `status --json` shape of docs/architecture.md §13.4."""

    workflow_id: str
    status: str
    state: State
    pool: str | None
    tasks: list[TaskLine]
    progress: str | None = None
    metrics: dict[str, Any] | None = None
    eta: str | None = None
    last_update: str | None = None
    resources: str | None = None
    risk: str | None = None
    links: Links
    artifact: str | None = None
    outputs: list[str] = Field(default_factory=list)
    summary: str | None = None
    error_lines: list[str] = Field(default_factory=list)
    next_step: str | None = None
    escalations: list[Escalation] = Field(default_factory=list)


def state_of(status: Status, *, stale: bool = False) -> State:
    if status is Status.COMPLETED:
        return "succeeded"
    if status.failed():
        return "failed"
    if status is Status.PENDING:
        return "pending"
    if status in (Status.RUNNING, Status.WAITING):
        return "stale" if stale else "running"
    return "unknown"


def _risk(ws: WorkflowStatus, facts: LogFacts, state: State) -> str:
    risks = list(facts.risks)
    failed = [t for t in ws.tasks if t.status.failed() and t.status is not TaskStatus.FAILED_UPSTREAM]
    if failed:
        t = failed[0]
        code = f" (exit {t.exit_code})" if t.exit_code is not None else ""
        risks.insert(0, f"task {t.name} {t.status.value}{code}")
    if state == "stale":
        risks.append("no new log output recently — the job may be stuck")
    if state in ("running", "pending") and facts.eta_seconds is None and ws.status is Status.RUNNING:
        risks.append("no ETA: the logs show no progress markers")
    return "; ".join(risks) if risks else "none seen"


def progress_text(stage: str | None, progress: dict[str, Any] | None) -> str | None:
    """ "training: epoch 3/3 (100%)" from a digest's stage and progress (a Progress dumped to a dict)."""
    if progress:
        total = f"/{progress['total']:g}" if progress.get("total") is not None else ""
        pct = f" ({progress['percent']:.0f}%)" if progress.get("percent") is not None else ""
        return f"{stage}: {progress['unit']} {progress['current']:g}{total}{pct}"
    return stage if stage and stage != "no output" else None


def build_report(
    ws: WorkflowStatus,
    facts: LogFacts | None = None,
    *,
    resources: str | None = None,
    artifact: str | None = None,
    now: datetime | None = None,
    escalations: list[Escalation] | None = None,
) -> StatusReport:
    facts = facts or LogFacts()
    escalations = escalations or []
    if escalations:
        facts = facts.model_copy(
            update={"risks": [*facts.risks, *(f"escalation {e.label}: {e.evidence}" for e in escalations)]}
        )
    state = state_of(ws.status, stale=facts.stale)
    if ws.status.terminal():  # no live progress or ETA on a run that ended: how it ended, then what it last logged
        last = facts.progress
        facts = facts.model_copy(
            update={
                "progress": f"ended {ws.status.value}" + (f" (last logged: {last})" if last else ""),
                "eta_seconds": None,
            }
        )
    return StatusReport(
        workflow_id=ws.workflow_id,
        status=ws.status.value,
        state=state,
        pool=ws.pool,
        tasks=[
            TaskLine(name=t.name, status=t.status.value, exit_code=t.exit_code, failure_message=t.failure_message)
            for t in ws.tasks
        ],
        progress=facts.progress,
        metrics=facts.metrics or None,
        eta=format_elapsed(facts.eta_seconds) if facts.eta_seconds is not None else None,
        last_update=facts.last_update.isoformat() if facts.last_update else None,
        resources=resources,
        risk=_risk(ws, facts, state),
        links=ws.links,
        artifact=artifact,
        outputs=ws.outputs,
        summary=facts.summary,
        error_lines=facts.error_lines[:50],
        next_step=facts.next_step,
        escalations=escalations,
    )


def _metrics_text(metrics: dict[str, Any] | None) -> str:
    if not metrics:
        return "unknown"
    parts = []
    for k, v in metrics.items():
        parts.append(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}")
    return " · ".join(parts)


def _outputs_folder(urls: list[str]) -> str:
    """The folder URL every output is under (`file:///…/objects/<workflow>`), or the first one when they share none."""
    import posixpath
    from urllib.parse import urlsplit

    parts = [urlsplit(u) for u in urls]
    if len({(p.scheme, p.netloc) for p in parts}) == 1:
        try:
            common = posixpath.commonpath([posixpath.dirname(p.path) for p in parts])
        except ValueError:  # absolute and relative paths mixed
            return urls[0]
        if common not in ("", "/"):
            return f"{parts[0].scheme}://{parts[0].netloc}{common}" if parts[0].scheme else common
    return urls[0]


def render_block(r: StatusReport) -> str:
    """The seed's block, plus the two link lines (named as unavailable when missing)."""
    lines = [
        f"Run: {r.workflow_id}",
        f"State: {r.state}",
        f"Progress: {r.progress or 'unknown'}",
        f"Resources: {r.resources or 'unknown'}",
        f"Latest metrics: {_metrics_text(r.metrics)}",
        f"Last update: {r.last_update or 'unknown'}",
        f"ETA: {r.eta or 'unknown'}",
        f"Risk: {r.risk or 'unknown'}",
        f"Artifact: {r.artifact or 'none'}",
    ]
    if r.links.overview:
        lines.append(f"Overview: {r.links.overview}")
    if r.outputs:  # where `orchestrate download` takes them from: before, only `--json` had the URLs
        where = _outputs_folder(r.outputs)
        lines.append(f"Outputs: {len(r.outputs)} file(s) under {where} — orchestrate download {where} DIR")
    lines.append(f"[View resource usage in Grafana]({r.links.grafana})" if r.links.grafana else GRAFANA_MISSING)
    lines.append(f"[Open Kubernetes dashboard]({r.links.dashboard})" if r.links.dashboard else DASHBOARD_MISSING)
    return "\n".join(lines)


def render_markdown(r: StatusReport) -> str:
    """Status first, then what the logs show, the error and next step for failures, then the block."""
    return "\n\n".join([*_story(r), render_block(r)])


def print_terminal(console: Any, r: StatusReport) -> None:
    """The same report for a terminal: the Markdown rendered (no `**`, `###` or fences) and wrapped at words, then
    the block line by line and never wrapped (its links must stay whole to be clickable or copied)."""
    from rich.markdown import Markdown

    console.print(Markdown("\n\n".join(_story(r))), soft_wrap=False)
    console.print("")
    console.print(render_block(r), markup=False, soft_wrap=True)


def _story(r: StatusReport) -> list[str]:
    head = f"**{r.status}** — {r.workflow_id}" + (f" on pool {r.pool}" if r.pool else "")
    parts = [head]
    if r.summary:
        parts.append(r.summary)
    if r.error_lines and not r.summary:  # the digest already quotes the error block
        parts.append("Error:\n```\n" + "\n".join(r.error_lines[:50]) + "\n```")
    if r.next_step:
        parts.append(f"Why and what next: {r.next_step}")
    return parts


def write_artifact(r: StatusReport, runs_dir: Any, now: datetime | None = None) -> str:
    """A short status file per run that a person or another agent can read instead of raw logs."""
    from pathlib import Path

    runs = Path(runs_dir)
    runs.mkdir(parents=True, exist_ok=True)
    path = runs / f"{r.workflow_id}-status.md"
    r = r.model_copy(update={"artifact": str(path)})
    stamp = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text(f"<!-- written {stamp} by RunShepherd -->\n" + render_markdown(r) + "\n", encoding="utf-8")
    tmp.replace(path)
    return str(path)
