"""Assemble a status report from a backend: query, bounded log digests, requested resources, artifact."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runshepherd.backends.base import Backend, Status, TaskStatus, WorkflowStatus
from runshepherd.reports.status import LogFacts, StatusReport, build_report, write_artifact

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.config import Settings
    from runshepherd.logs.models import TaskDigest


@dataclass
class Digests:
    by_task: dict[str, "TaskDigest"]
    markdown: str

    def as_json(self) -> dict[str, Any]:
        return {name: d.model_dump(mode="json") for name, d in self.by_task.items()}


def digests_for(backend: Backend, ws: WorkflowStatus, *, task: str | None, settings: "Settings") -> Digests:
    """One bounded digest per task (never a follow: what exists now, up to the configured tail)."""
    from runshepherd.logs import LogConfig, digest_to_markdown, read_log

    cfg = LogConfig(**settings.logs.model_dump())
    names = [task] if task else [t.name for t in ws.tasks if t.status is not TaskStatus.FAILED_UPSTREAM]
    now = datetime.now(timezone.utc)
    out: dict[str, TaskDigest] = {}
    for name in names:
        t = ws.task(name)
        lines = backend.logs(ws.workflow_id, name, tail=settings.logs.tail_lines, timeout=None)
        out[name] = read_log(lines, task=name, now=now, status=t.status.value, config=cfg)
    return Digests(by_task=out, markdown=digest_to_markdown(list(out.values())))


def _facts(ws: WorkflowStatus, digests: Digests) -> LogFacts:
    if not digests.by_task:
        return LogFacts()
    failed = [t.name for t in ws.tasks if t.status.failed() and t.name in digests.by_task]
    running = [t.name for t in ws.tasks if t.status is TaskStatus.RUNNING and t.name in digests.by_task]
    focus_name = (failed or running or list(digests.by_task))[0]
    d = digests.by_task[focus_name]
    progress = None
    if d.progress is not None:
        p = d.progress
        total = f"/{p.total:g}" if p.total is not None else ""
        pct = f" ({p.percent:.0f}%)" if p.percent is not None else ""
        progress = f"{d.stage}: {p.unit} {p.current:g}{total}{pct}"
    elif d.stage not in ("no output",):
        progress = d.stage
    risks = [f"{focus_name}: {flag}" for flag in d.flags]
    return LogFacts(
        progress=progress,
        metrics=d.latest_metrics() or None,
        eta_seconds=d.eta_seconds if ws.status.alive() else None,
        last_update=d.last_update,
        stale=any(x.stale for x in digests.by_task.values()) and ws.status is Status.RUNNING,
        summary=digests.markdown,
        error_lines=d.error_lines if ws.status.failed() else [],
        risks=risks,
    )


def requested_resources(spec_text: str) -> str | None:
    """What the spec asked for; live usage is not something we can see, and we say so."""
    from runshepherd.spec import SpecError, load_spec_text

    try:
        wf = load_spec_text(spec_text).workflow
    except SpecError:
        return None
    parts = []
    for t in wf.all_tasks():
        r = wf.resources_for(t)
        bits = [f"cpu {r.cpu:g}" if r.cpu else None, f"memory {r.memory}" if r.memory else None,
                f"gpu {r.gpu}" if r.gpu else None]
        parts.append(f"{t.name}: " + (", ".join(b for b in bits if b) or "scheduler defaults"))
    return "requested " + "; ".join(parts) + " (live usage unknown)"


def report_for(backend: Backend, workflow_id: str, *, runs_dir: Path, settings: "Settings") -> StatusReport:
    ws = backend.query(workflow_id)
    digests = digests_for(backend, ws, task=None, settings=settings)
    report = build_report(ws, _facts(ws, digests), resources=requested_resources(backend.spec(workflow_id)))
    path = write_artifact(report, runs_dir)
    return report.model_copy(update={"artifact": path})
