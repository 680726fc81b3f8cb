"""The read-only tools of the MCP server as plain typed functions over a `CliContext` (no MCP imports here).

Each returns the digest a command's `--json` prints, as a pydantic model so the MCP tool has an output schema.
None of them submits, resubmits, downloads or cancels: those happen only in `sessions.py`, through `answer` on a
session's own question or an explicit `cancel`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from runshepherd.backends.base import Pool, Status, WorkflowSummary
from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError
from runshepherd.logs.models import TaskDigest
from runshepherd.names import check_id
from runshepherd.reports.explain import Explanation
from runshepherd.reports.status import StatusReport

MAX_RAW_TAIL = 2000  # raw lines one `logs` call may return (after redaction)


class WorkflowList(BaseModel):
    workflows: list[WorkflowSummary]


class StatusResult(BaseModel):
    report: StatusReport
    markdown: str = Field(description="status first, what the logs show, then the status block")
    artifact: str | None = Field(None, description="the status file, also readable as resource runshepherd://status/ID")


class LogsResult(BaseModel):
    workflow_id: str
    task: str | None
    digests: dict[str, TaskDigest] = Field(description="per task: stage, progress, metrics, error block")
    markdown: str
    raw_tail: list[str] | None = Field(None, description="the last `tail` raw lines, redacted; only when asked")


class DiagnosisItem(BaseModel):
    diagnosis: dict[str, Any] = Field(description="label, origin, confidence, explanation, evidence, fix")
    what_would_confirm: str | None = None


class DiagnoseResult(BaseModel):
    workflow_id: str
    diagnoses: list[DiagnosisItem]


class ValidateResult(BaseModel):
    spec: str
    name: str
    valid: bool
    checked_by: str | None
    warnings: list[str]
    submitted: bool = False
    pool_choice: str | None = Field(None, description="why this pool, when pool was auto[:GPU_TYPE]")


class PoolRow(BaseModel):
    pool: Pool
    effective_gpu_free: int | None = Field(None, description="min(quota free, total free); None when unknown")


class PoolsResult(BaseModel):
    pools: list[PoolRow]


def list_workflows(ctx: CliContext, statuses: list[str] | None = None, pool: str | None = None) -> WorkflowList:
    try:
        wanted = [Status(s.upper()) for s in statuses or []] or None
    except ValueError as exc:
        raise UsageError(f"status: {exc}; use one of {', '.join(s.value for s in Status)}") from None
    ctx.check_pool(pool, "pool")  # a pool the backend does not have lists nothing: said, as `list --pool` says it
    return WorkflowList(workflows=ctx.backend.list_workflows(statuses=wanted, pool=pool))


def status(ctx: CliContext, workflow_id: str) -> StatusResult:
    from runshepherd.reports.build import report_for
    from runshepherd.reports.status import render_markdown

    check_id(workflow_id, "workflow id")
    report = report_for(ctx.backend, workflow_id, runs_dir=ctx.state_dir / "runs", settings=ctx.settings)
    return StatusResult(report=report, markdown=render_markdown(report), artifact=report.artifact)


def logs(ctx: CliContext, workflow_id: str, task: str | None = None, tail: int | None = None) -> LogsResult:
    """The digest; raw lines only for an explicit ``tail`` (1..MAX_RAW_TAIL), redacted like `logs --raw`."""
    from runshepherd.logs import redacted_lines
    from runshepherd.reports.build import digests_for

    check_id(workflow_id, "workflow id")
    if tail is not None and not 0 < tail <= MAX_RAW_TAIL:
        raise UsageError(f"tail must be between 1 and {MAX_RAW_TAIL} lines (got {tail})")
    ws = ctx.backend.query(workflow_id)
    names = [t.name for t in ws.tasks]
    if task is not None and task not in names:
        raise UsageError(f"workflow {workflow_id} has no task {task!r}; tasks: {', '.join(names)}")
    digests = digests_for(ctx.backend, ws, task=task, settings=ctx.settings)
    raw = None
    if tail is not None:
        lines = ctx.backend.logs(workflow_id, task, tail=tail, timeout=None)
        raw = list(redacted_lines(lines, ctx.settings.logs.redaction_patterns))[-tail:]
    return LogsResult(
        workflow_id=workflow_id, task=task, digests=digests.by_task, markdown=digests.markdown, raw_tail=raw
    )


def diagnose(ctx: CliContext, workflow_id: str) -> DiagnoseResult:
    from runshepherd.cli.diagnose import workflow_diagnoses

    check_id(workflow_id, "workflow id")
    items = [DiagnosisItem(diagnosis=d, what_would_confirm=c) for d, c in workflow_diagnoses(ctx, workflow_id)]
    return DiagnoseResult(workflow_id=workflow_id, diagnoses=items)


def explain(ctx: CliContext, workflow_id: str) -> Explanation:
    from runshepherd.reports.explain import explain_workflow

    check_id(workflow_id, "workflow id")
    return explain_workflow(ctx.backend, workflow_id)


def validate(
    ctx: CliContext, spec_path: str, set_values: list[str] | None = None, pool: str | None = None
) -> ValidateResult:
    from runshepherd.cli.workflows import validation

    # load_spec_file says what is wrong with the path (missing, a folder, a device like /dev/zero), as the CLI does
    return ValidateResult(**validation(ctx, Path(spec_path).expanduser(), set_values or [], pool))


def pools(ctx: CliContext) -> PoolsResult:
    return PoolsResult(pools=[PoolRow(pool=p, effective_gpu_free=p.effective_gpu_free()) for p in ctx.backend.pools()])


def status_artifact(ctx: CliContext, workflow_id: str) -> str:
    """The run's status file (runs/<id>-status.md); written now from a fresh look when there is none yet."""
    check_id(workflow_id, "workflow id")
    path = ctx.state_dir / "runs" / f"{workflow_id}-status.md"
    if not path.is_file():
        status(ctx, workflow_id)
    return path.read_text(encoding="utf-8")
