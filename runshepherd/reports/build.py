"""Assemble a status report from a backend: query, bounded log digests, requested resources, artifact."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runshepherd import wording
from runshepherd.backends.base import Backend, Status, TaskStatus, TaskUsage, WorkflowStatus, usage_of
from runshepherd.reports.status import (
    Escalation,
    LogFacts,
    StatusReport,
    build_report,
    progress_text,
    write_artifact,
)

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.config import Settings
    from runshepherd.diagnosis.models import Diagnosis
    from runshepherd.logs.models import TaskDigest


@dataclass
class Digests:
    by_task: dict[str, TaskDigest]
    markdown: str

    def as_json(self) -> dict[str, Any]:
        return {name: d.model_dump(mode="json") for name, d in self.by_task.items()}


def digests_for(backend: Backend, ws: WorkflowStatus, *, task: str | None, settings: Settings) -> Digests:
    """One digest per task of what exists now (never a follow): the whole log where the backend has it."""
    from runshepherd.logs import LogConfig, digest_to_markdown
    from runshepherd.logs.tasklog import digest_task

    cfg = LogConfig(**settings.logs.model_dump())
    names = [task] if task else [t.name for t in ws.tasks if t.status is not TaskStatus.FAILED_UPSTREAM]
    now = datetime.now(UTC)
    out: dict[str, TaskDigest] = {}
    for name in names:
        t = ws.task(name)
        out[name] = digest_task(
            backend,
            ws.workflow_id,
            name,
            status=t.status.value,
            config=cfg,
            tail_lines=settings.logs.tail_lines,
            now=now,
        )
    return Digests(by_task=out, markdown=digest_to_markdown(list(out.values())))


def _facts(ws: WorkflowStatus, digests: Digests) -> LogFacts:
    if not digests.by_task:
        return LogFacts()
    failed = [t.name for t in ws.tasks if t.status.failed() and t.name in digests.by_task]
    running = [t.name for t in ws.tasks if t.status is TaskStatus.RUNNING and t.name in digests.by_task]
    focus_name = (failed or running or list(digests.by_task))[0]
    d = digests.by_task[focus_name]
    progress = progress_text(d.stage, d.progress.model_dump() if d.progress is not None else None)
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


def diagnosis_of(backend: Backend, ws: WorkflowStatus, digests: Digests) -> Diagnosis | None:
    """The leading non-healthy diagnosis of a finished or failing run from its digests, or None."""
    from runshepherd.diagnosis import DiagnosisInput, diagnose

    log_lines = {
        name: list(d.error_lines) + ([d.root_error] if d.root_error else []) for name, d in digests.by_task.items()
    }
    diags = [
        d
        for d in diagnose(
            DiagnosisInput.from_workflow(
                ws, events=backend.events(ws.workflow_id), log_lines=log_lines, spec_text=backend.spec(ws.workflow_id)
            )
        )
        if d.label != "healthy"
    ]
    return diags[0] if diags else None


def _next_step(ws: WorkflowStatus, d: Diagnosis | None) -> str | None:
    """For a failure: the diagnosis in one sentence and what to do next (the evidence is in `diagnose`)."""
    from runshepherd.logs import redact

    if d is None:
        return None
    step = d.fix.description or "look at the error above"
    return redact(
        wording.sentences(
            [
                d.explanation,
                f"Next step: {step}",
                f"`orchestrate diagnose {ws.workflow_id}` shows the evidence and the exact change",
            ],
            close=True,
        )
    )[0]


def canceled_step(ws: WorkflowStatus, state_dir: Path) -> str:
    """What a canceled run's status says next: who canceled it (from the audit log, never guessed), that a cancel
    is final, and how to run it again. A cancel is the person's word, not a failure to diagnose or wait out."""
    from runshepherd.audit import canceled_by
    from runshepherd.logs import redact

    if who := canceled_by(state_dir, ws.workflow_id):
        said = f"Canceled {who}."
    else:
        said = "Canceled outside RunShepherd: no cancel of it is recorded in this state dir's audit log."
        if ws.failure_message:
            said = wording.sentences([said, f"The scheduler says: {ws.failure_message}"], close=True)
    again = (
        " A cancel is final: nothing resubmits it and the workflow cannot be resumed. To run it again, submit the "
        "same spec as a new workflow: `orchestrate submit SPEC`, or `orchestrate run --spec SPEC` to have it "
        "watched and fixed."
    )
    return redact(said + again)[0]


def requested_resources(
    spec_text: str, usage: list[TaskUsage] | None = None, ws: WorkflowStatus | None = None
) -> str | None:
    """Allocated vs in use, per task. In use only where the backend measures it; otherwise "unknown", never guessed."""
    from runshepherd.spec import SpecError, load_spec_text

    try:
        wf = load_spec_text(spec_text, secrets="warn").workflow  # read, never kept
    except SpecError:
        return None
    live = {u.task: u for u in usage or []}
    parts = []
    for t in wf.all_tasks():
        r = wf.resources_for(t)
        bits = [
            f"cpu {r.cpu:g}" if r.cpu else None,
            f"memory {r.memory}" if r.memory else None,
            f"gpu {r.gpu}" if r.gpu else None,
        ]
        # Allocated only once the task started; before that (or if it never did) it was only requested.
        state = ws.task(t.name) if ws is not None and t.name in {x.name for x in ws.tasks} else None
        word = "requested" if state is not None and state.start_time is None else "allocated"
        text = f"{t.name}: {word} " + (", ".join(b for b in bits if b) or "scheduler defaults")
        u = live.get(t.name)
        if usage is None:
            text += "; in use unknown (this backend does not report live usage)"
        elif u is not None:
            used = []
            if u.cpu_percent is not None:
                over = f" over {u.cpu_interval_seconds:g} s" if u.cpu_interval_seconds else ""
                used.append(f"cpu {u.cpu_percent / 100:.2f} cores{over}")
            if u.rss_bytes is not None:
                used.append(f"memory {u.rss_bytes / 1024**2:.0f}Mi")
            if r.gpu:
                used.append(
                    "GPU utilisation unknown"
                    if u.gpu_util_percent is None
                    else f"GPU {u.gpu_util_percent:.0f}%" + (" — allocated GPUs idle" if u.gpu_util_percent < 5 else "")
                )
            text += "; in use " + (", ".join(used) or "unknown")
        parts.append(text)
    return "; ".join(parts)


@dataclass
class Snapshot:
    """One look at a run: the report (artifact written), the digests it came from and the diagnosis if failed."""

    ws: WorkflowStatus
    report: StatusReport
    digests: Digests
    diagnosis: Diagnosis | None


Escalate = Callable[[Backend, WorkflowStatus, Digests], list[tuple[str, str]]]


def snapshot(
    backend: Backend, workflow_id: str, *, runs_dir: Path, settings: Settings, escalate: Escalate | None = None
) -> Snapshot:
    ws = backend.query(workflow_id)
    digests = digests_for(backend, ws, task=None, settings=settings)
    usage = usage_of(backend, workflow_id) if ws.status is Status.RUNNING else []
    spec_text = backend.spec(workflow_id)
    resources = requested_resources(spec_text, usage, ws)
    facts = _facts(ws, digests)
    if ws.status is Status.PENDING and (never := _never_starts(backend, ws, spec_text)) is not None:
        facts = facts.model_copy(update={"risks": [never, *facts.risks]})
    canceled = ws.status is Status.FAILED_CANCELED
    diag = diagnosis_of(backend, ws, digests) if ws.status.failed() and not canceled else None
    if canceled:  # runs_dir is <state_dir>/runs (architecture §12): the audit log sits beside it
        facts = facts.model_copy(update={"next_step": canceled_step(ws, runs_dir.parent)})
    elif ws.status.failed():
        facts = facts.model_copy(update={"next_step": _next_step(ws, diag)})
    escalations = [Escalation(label=k, evidence=v) for k, v in escalate(backend, ws, digests)] if escalate else []
    report = build_report(ws, facts, resources=resources, escalations=escalations)
    try:
        path: str | None = write_artifact(report, runs_dir)
    except OSError:  # a read-only or full state dir: the status is still shown, only its file is not kept
        path = None
    return Snapshot(ws=ws, report=report.model_copy(update={"artifact": path}), digests=digests, diagnosis=diag)


def _never_starts(backend: Backend, ws: WorkflowStatus, spec_text: str) -> str | None:
    """A queued run no machine of its pool can ever hold, said as the session graph says it (the per-node fit,
    `pending.never_fits`), so `status` and `watch` do not say "Risk: none seen" until the 600 s queue escalation.
    One backend read per poll: the machines of the run's pool (``spec_text`` is the spec the report already read)."""
    from runshepherd.backends.base import BackendError
    from runshepherd.diagnosis.pending import never_fits, never_fits_summary, request_of
    from runshepherd.spec import SpecError

    try:
        request = request_of(spec_text, ws.pool)
        nodes = backend.resources(ws.pool)
    except (BackendError, SpecError, OSError):  # nothing known about the pool: no claim either way
        return None
    named = {n.pool for n in nodes}
    pool = ws.pool or (next(iter(named)) if len(named) == 1 else None)  # a backend of one pool need not name it
    unfit = never_fits(request, [n for n in nodes if pool is None or n.pool == pool])
    return never_fits_summary(request, unfit, pool) if unfit is not None else None


def report_for(
    backend: Backend, workflow_id: str, *, runs_dir: Path, settings: Settings, escalate: Escalate | None = None
) -> StatusReport:
    return snapshot(backend, workflow_id, runs_dir=runs_dir, settings=settings, escalate=escalate).report
