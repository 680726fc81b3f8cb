"""Direct workflow commands: submit, status, list, logs, cancel, pools, resources, explain."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import typer
from rich.markup import escape

from runshepherd.audit import record
from runshepherd.backends.base import Priority, SpecValidator, Status, jsonable
from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.spec.document import SpecDocument


def resolve_pool(ctx: CliContext, pool: str | None, gpus: int, as_json: bool) -> tuple[str | None, str | None]:
    """``--pool auto[:GPU_TYPE]`` → a pool chosen from the backend's pools, announced with its reason; any other
    value passes through. Returns (pool, reason)."""
    from runshepherd.backends.pool_choice import choose_pool, parse_auto

    auto, gpu_type = parse_auto(pool)
    if not auto:
        return pool, None
    choice = choose_pool(ctx.backend.pools(), gpu_type, gpus)
    if not as_json:
        ctx.out.print(f"● pool      {choice.reason}", markup=False)
    return choice.pool, choice.reason


def spec_gpus(doc: SpecDocument) -> int:
    """GPUs the whole workflow asks for at once (every task's request added up)."""
    return doc.workflow.total_gpus()


def submit(ctx: CliContext, spec_path: Path, sets: list[str], pool: str | None, priority: str, as_json: bool) -> None:
    from runshepherd.spec import load_spec_file, parse_set_values

    if priority not in ("HIGH", "NORMAL", "LOW"):
        raise UsageError(f"--priority {priority!r}: use HIGH, NORMAL or LOW")
    doc = load_spec_file(spec_path, set_values=parse_set_values(sets))
    pool, why = resolve_pool(ctx, pool, spec_gpus(doc), as_json)
    sub = ctx.backend.submit(doc, pool, priority=cast(Priority, priority))  # checked just above
    record(ctx.state_dir, "submit", approved_by="person", workflow=sub.workflow_id, via="orchestrate submit")
    if as_json:
        ctx.print_json({**jsonable(sub), "spec_warnings": list(doc.warnings), "pool_choice": why})
        return
    for w in [*doc.warnings, *sub.warnings]:  # text from the spec is printed as is, never read as rich markup
        ctx.err.print(f"[yellow]warning:[/] {escape(w)}")
    ctx.out.print(f"● submitted [bold]{sub.workflow_id}[/] to pool {sub.pool}")
    if sub.overview_url:
        ctx.out.print(f"  overview: {sub.overview_url}")
    ctx.out.print(f"  next: orchestrate status {sub.workflow_id}")


def validation(ctx: CliContext, spec_path: Path, sets: list[str], pool: str | None) -> dict[str, Any]:
    """The spec's own checks, then the backend's (`osmo workflow validate`, local admission); never submits."""
    from runshepherd.spec import load_spec_file, parse_set_values

    doc = load_spec_file(spec_path, set_values=parse_set_values(sets))
    pool, why = resolve_pool(ctx, pool, spec_gpus(doc), as_json=True)  # the caller shows the reason
    backend = ctx.backend
    checked_by = backend.name if isinstance(backend, SpecValidator) else None
    warnings = list(doc.warnings) + (backend.validate(doc, pool) if isinstance(backend, SpecValidator) else [])
    if checked_by is None:
        warnings.append(
            f"the {ctx.backend.name} backend cannot check resources without submitting; "
            "only the spec itself was checked"
        )
    return {
        "spec": str(spec_path),
        "name": doc.name,
        "valid": True,
        "checked_by": checked_by,
        "warnings": warnings,
        "submitted": False,
        "pool_choice": why,
    }


def validate(ctx: CliContext, spec_path: Path, sets: list[str], pool: str | None, as_json: bool) -> None:
    result = validation(ctx, spec_path, sets, pool)
    if as_json:
        ctx.print_json(result)
        return
    if result["pool_choice"]:
        ctx.out.print(f"● pool      {result['pool_choice']}", markup=False)
    where = f" and by the {result['checked_by']} backend" if result["checked_by"] else ""
    ctx.out.print(
        f"● {spec_path}: {result['name']} is valid (checked by RunShepherd{where}); nothing was submitted",
        markup=False,
    )
    for w in result["warnings"]:
        ctx.out.print(f"  ! {w}", markup=False)


def download(ctx: CliContext, url: str, dest: Path, as_json: bool, overwrite: bool = False) -> None:
    """Copy into DEST keeping folders; a file already there is replaced only with --overwrite or a yes."""
    import sys

    from runshepherd.downloads import fetch

    target = dest.expanduser()

    def ask(clash: list[Path]) -> bool:
        if overwrite:
            return True
        if as_json or not sys.stdin.isatty():
            return False
        import typer

        return typer.confirm(
            f"{len(clash)} file(s) already in {target} would be replaced (e.g. {clash[0]}). Overwrite?"
        )

    got = fetch(ctx.backend, [url], target, overwrite=ask)
    record(ctx.state_dir, "download", approved_by="person", url=url, dest=str(target), files=len(got))
    if as_json:
        ctx.print_json({"url": url, "dest": str(target), "files": [str(p) for p in got]})
        return
    ctx.out.print(f"● downloaded {len(got)} file(s) from {url} to {target}", markup=False)


def status(ctx: CliContext, workflow_id: str, as_json: bool) -> None:
    from runshepherd.reports.build import report_for
    from runshepherd.sweep.status import read_record

    record = read_record(ctx.state_dir, workflow_id)
    if record is not None:  # `status SWEEP`: one line per point, as the chat answers "how is the sweep doing?"
        _sweep_status(ctx, record, as_json)
        return
    from runshepherd.watch.escalations import escalations_for

    report = report_for(
        ctx.backend, workflow_id, runs_dir=ctx.state_dir / "runs", settings=ctx.settings, escalate=escalations_for
    )
    if as_json:
        ctx.print_json(report.model_dump(mode="json"))
        return
    from runshepherd.reports.status import print_terminal

    print_terminal(ctx.out, report)  # terminal text; the Markdown itself is in the artifact


def _sweep_status(ctx: CliContext, record: dict[str, Any], as_json: bool) -> None:
    from runshepherd.sweep.status import point_rows, status_lines

    def values_of(sid: str) -> dict[str, Any]:
        return dict(ctx.runner(sid).snapshot().values or {})

    if as_json:
        keep = ("sweep", "spec", "max_parallel", "best", "artifact", "canceled")
        ctx.print_json({**{k: record.get(k) for k in keep}, "points": point_rows(record, values_of)})
        return
    for line in status_lines(record, values_of):
        ctx.out.print(line, markup=False)


def list_workflows(ctx: CliContext, statuses: list[str], pool: str | None, as_json: bool) -> None:
    try:
        wanted = [Status(s.upper()) for s in statuses] or None
    except ValueError as exc:
        raise UsageError(f"--status: {exc}; use one of {', '.join(s.value for s in Status)}") from None
    ctx.check_pool(pool, "--pool")
    rows = ctx.backend.list_workflows(statuses=wanted, pool=pool)
    if as_json:
        ctx.print_json({"workflows": [jsonable(r) for r in rows]})
        return
    if not rows and (wanted or pool):  # none match: never "no workflows yet" when there are others
        said = [
            *(["--status " + ",".join(s.value for s in wanted)] if wanted else []),
            *([f"--pool {pool}"] if pool else []),
        ]
        ctx.out.print(f"no workflow matches {' '.join(said)} — `orchestrate list` shows them all", markup=False)
        return
    if not rows:
        ctx.out.print("no workflows yet — submit one with `orchestrate submit SPEC`")
        return
    from runshepherd.cli.tables import Col, fitted_table
    from runshepherd.durations import format_elapsed

    order = {"RUNNING": 0, "PENDING": 1, "WAITING": 1, "COMPLETED": 3}
    rows = sorted(rows, key=lambda r: (order.get(r.status.value, 2), r.status.value))  # grouped by status
    subs = [r.submit_time.strftime("%Y-%m-%d %H:%M:%S") if r.submit_time else "-" for r in rows]
    # narrow terminals: the time loses its year and seconds, then the pool goes, then the time, then the duration
    table, _ = fitted_table(
        [
            Col("Workflow", [r.workflow_id for r in rows]),
            Col("Pool", [r.pool or "-" for r in rows], drop=2),
            Col("Status", [r.status.value for r in rows]),
            Col("Duration", [format_elapsed(r.duration) if r.duration is not None else "-" for r in rows], drop=4),
            Col("Submitted", subs, short=("Submitted", [s[5:16] for s in subs]), shorten=1, drop=3),
        ],
        ctx.out.width,
    )
    ctx.out.print(table)


def logs(
    ctx: CliContext, workflow_id: str, task: str | None, raw: bool, tail: int, as_json: bool, follow: bool = False
) -> int:
    if tail <= 0:
        raise UsageError("--tail must be a positive number of lines")
    backend = ctx.backend
    ws = backend.query(workflow_id)
    if task is not None and task not in {t.name for t in ws.tasks}:
        raise UsageError(f"workflow {workflow_id} has no task {task!r}; tasks: {', '.join(t.name for t in ws.tasks)}")
    if follow:
        from runshepherd.cli.follow import follow as follow_lines
        from runshepherd.logs import redacted_lines

        patterns = ctx.settings.logs.redaction_patterns
        return follow_lines(
            backend,
            workflow_id,
            task,
            tail=tail,
            redact=lambda lines: list(redacted_lines(lines, patterns)),
            write=lambda line: typer.echo(line),
            as_json=as_json,
        )
    if raw:
        from runshepherd.logs import redacted_lines  # raw lines are pasted from: redact them too

        patterns = ctx.settings.logs.redaction_patterns
        lines = redacted_lines(backend.logs(workflow_id, task, tail=tail, timeout=None), patterns)
        if as_json:  # written as it is read, the same text as one json.dumps of the whole document
            head = json.dumps({"workflow_id": workflow_id, "task": task})[:-1]
            sys.stdout.write(head + ', "lines": [')
            for i, line in enumerate(lines):
                sys.stdout.write((", " if i else "") + json.dumps(line))
            sys.stdout.write("]}\n")
            sys.stdout.flush()
            return 0
        out = sys.stdout  # buffered: one flush per line (typer.echo) cost ~35 µs a line on a 100,000-line tail
        for line in lines:  # shown lines: the job's text, never its escape sequences or a line break of its own
            out.write(line + "\n")
        out.flush()
        return 0
    from rich.markdown import Markdown

    from runshepherd.reports.build import digests_for

    digests = digests_for(backend, ws, task=task, settings=ctx.settings)
    if as_json:
        ctx.print_json({"workflow_id": workflow_id, "digests": digests.as_json()})
        return 0
    ctx.out.print(Markdown(digests.markdown), soft_wrap=False)  # terminal text, wrapped at words, never cropped
    return 0


def cancel(ctx: CliContext, target: str, yes: bool, as_json: bool) -> None:
    """`cancel SWEEP` (every point), `cancel SESSION` (its live workflow: a sweep's point `SWEEP-pN` alone) or
    `cancel WF`."""
    from runshepherd.sweep.status import read_record

    sweep = read_record(ctx.state_dir, target)
    if sweep is not None:
        _cancel_sweep(ctx, sweep, yes, as_json)
        return
    from runshepherd.cancel_mark import cancel as cancel_target
    from runshepherd.cancel_mark import find_target

    # a session (by its id or its workflow's) is marked canceled first, wherever it runs or waits at a question,
    # then its live workflow is canceled: one path with the chat and MCP (`cancel_mark.py`)
    t = find_target(ctx.backend, ctx.state_dir, target, ctx.settings.checkpointer)
    what = {"session": t.session, "workflow_id": t.workflow}
    if t.nothing is not None:
        _nothing(ctx, {**what, "status": t.status}, t.nothing, as_json)
        return
    if not _confirm(ctx, t.session or t.workflow or target, t.confirm(), yes):
        return
    msg = cancel_target(
        ctx.backend, ctx.state_dir, t, via="orchestrate cancel", approved_by="--yes" if yes else "person"
    )
    if as_json:
        ctx.print_json(
            {**what, "canceled": True, "withdrawn_question": t.kind, "canceled_workflow": t.live, "message": msg}
        )
    else:
        ctx.out.print("● " + msg, markup=False)


def _nothing(ctx: CliContext, what: dict[str, Any], msg: str, as_json: bool) -> None:
    if as_json:
        ctx.print_json({**what, "canceled": False, "message": msg})
    else:
        ctx.out.print(msg, markup=False)


def _confirm(ctx: CliContext, what: str, question: str, yes: bool) -> bool:
    if yes:
        return True
    import sys

    if not sys.stdin.isatty():
        raise UsageError(f"cancel {what}: confirm with --yes (no terminal to ask on)")
    if typer.confirm(question, default=False):
        return True
    ctx.out.print("not canceled")
    return False


def _cancel_sweep(ctx: CliContext, record: dict[str, Any], yes: bool, as_json: bool) -> None:
    """Every live point's workflow canceled, queued points never started, the sweep ends CANCELED (final)."""
    from runshepherd.sweep.cancel import cancel_sweep, question, refusal, summary, told
    from runshepherd.sweep.status import point_rows

    sid = str(record["sweep"])

    def values_of(session: str) -> dict[str, Any]:
        return dict(ctx.runner(session).snapshot().values or {})

    if (no := refusal(ctx.state_dir, record, values_of)) is not None:
        _nothing(ctx, {"sweep": sid}, no, as_json)
        return
    if not _confirm(ctx, sid, question(record, point_rows(record, values_of)), yes):
        return
    points = cancel_sweep(
        ctx.backend,
        ctx.state_dir,
        record,
        values_of,
        via="orchestrate cancel",
        approved_by="--yes" if yes else "person",
    )
    if as_json:
        ctx.print_json({"sweep": sid, "canceled": True, **summary(points)})
        return
    for line in told(sid, points):
        ctx.out.print(line, markup=False)


def pools(ctx: CliContext, as_json: bool) -> None:
    rows = ctx.backend.pools()
    if as_json:
        ctx.print_json({"pools": [{**jsonable(p), "effective_gpu_free": p.effective_gpu_free()} for p in rows]})
        return
    from runshepherd.cli.tables import Col, fitted_table
    from runshepherd.wording import known as n

    def gpus(head: str, short: str, values: list[str]) -> Col:
        return Col(head, values, short=(short, values), shorten=2)

    # narrow terminals: the description moves under the table, then the GPU heads shorten
    table, left_out = fitted_table(
        [
            Col("Pool", [p.name for p in rows]),
            Col("Status", [p.status for p in rows]),
            gpus("GPU quota free", "Quota free", [n(p.quota_free) for p in rows]),
            gpus("GPU total free", "GPUs free", [n(p.total_free) for p in rows]),
            gpus("GPU capacity", "GPUs", [n(p.total_capacity) for p in rows]),
            Col("Description", [p.description or "" for p in rows], drop=1),
        ],
        ctx.out.width,
    )
    ctx.out.print(table)
    if left_out:
        for p in rows:
            if p.description:
                ctx.out.print(f"{p.name}: {p.description}", markup=False)
    for p in rows:
        for note in p.notes:
            ctx.out.print(f"note ({p.name}): {note}")


def resources(ctx: CliContext, pool: str | None, as_json: bool) -> None:
    ctx.check_pool(pool, "pool")
    nodes = ctx.backend.resources(pool)
    if as_json:
        ctx.print_json({"resources": [jsonable(n) for n in nodes]})
        return
    from runshepherd.cli.tables import Col, fitted_table

    cpu = [f"{nd.cpu_free:g}/{nd.cpu_total:g}" for nd in nodes]
    memory = [f"{nd.memory_free_gi:.1f}/{nd.memory_total_gi:.1f}" for nd in nodes]
    gpu = [f"{nd.gpu_free}/{nd.gpu_total}" for nd in nodes]
    # narrow terminals: the heads shorten, then the pool moves under the table; a node's name is never cut
    table, left_out = fitted_table(
        [
            Col("Node", [nd.hostname for nd in nodes]),
            Col("Pool", [nd.pool for nd in nodes], drop=2),
            Col("CPU free/total", cpu, short=("CPU free/all", cpu), shorten=1),
            Col("Memory free/total (Gi)", memory, short=("Mem Gi free/all", memory), shorten=1),
            Col("GPU free/total", gpu, short=("GPU free/all", gpu), shorten=1),
        ],
        ctx.out.width,
    )
    ctx.out.print(table)
    if left_out:
        pools = sorted({nd.pool for nd in nodes})
        if len(pools) == 1:
            ctx.out.print(f"pool: {pools[0]}", markup=False)
        else:
            for nd in nodes:
                ctx.out.print(f"{nd.hostname}: pool {nd.pool}", markup=False)


def explain(ctx: CliContext, workflow_id: str, as_json: bool) -> None:
    from runshepherd.reports.explain import explain_workflow

    result = explain_workflow(ctx.backend, workflow_id)
    if as_json:
        ctx.print_json(result.model_dump(mode="json"))
    else:
        ctx.out.print(result.text, markup=False)


def check_access(ctx: CliContext, uri: str, access: str, as_json: bool) -> int:
    from runshepherd.backends.access import AccessChecker

    mode = access.strip().lower()
    if mode not in ("read", "write"):
        raise UsageError(f"--access {access!r}: use read or write")
    backend = ctx.backend
    if not isinstance(backend, AccessChecker):
        raise UsageError(f"the {getattr(backend, 'name', '?')} backend cannot check storage access")
    res = backend.check_access(uri, "read" if mode == "read" else "write")
    if as_json:
        ctx.print_json(res.model_dump())
    else:
        verdict = "yes" if res.ok else "no"
        ctx.out.print(f"{mode} access to {uri}: {verdict} — {res.detail}", markup=False)
        ctx.out.print(f"  checked with: {res.checked_by}", markup=False)
    return 0 if res.ok else 1
