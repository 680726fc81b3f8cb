"""`orchestrate watch`: follow any run the backend knows (started here or not) to its end, in the foreground or
handed to a background monitor (`--detach`), with `--list` and `--stop ID` for the background ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError
from runshepherd.watch import registry


def _targets(ctx: CliContext, ids: list[str], runs_file: Path | None) -> list[tuple[str, str, list[str]]]:
    """(backend name, identity, extra notify targets) per run to watch."""
    out: list[tuple[str, str, list[str]]] = [(str(ctx.settings.backend), i, []) for i in ids]
    if runs_file is not None:
        from runshepherd.watch.runsfile import load_runs

        for r in load_runs(runs_file):
            out.append((r.backend or ctx.settings.backend, r.identity, list(r.notify)))
    if not out:
        raise UsageError("say what to watch: orchestrate watch WORKFLOW_OR_JOB_ID, or --runs runs.yaml")
    return out


def _ctx_for(ctx: CliContext, backend: str) -> CliContext:
    if backend == ctx.settings.backend:
        return ctx
    return CliContext(settings=ctx.settings.model_copy(update={"backend": backend}))


def watch(
    ctx: CliContext,
    ids: list[str],
    *,
    runs_file: Path | None,
    detach: bool,
    notify: list[str],
    cadence: float | None,
    config: Path | None,
    as_json: bool,
) -> int:
    from runshepherd.notify import parse_targets
    from runshepherd.watch.targets import resolve

    parse_targets([*ctx.settings.notify, *notify], ctx.settings.smtp)  # a bad target is an error now, not later
    resolved = []
    for backend_name, identity, extra in _targets(ctx, ids, runs_file):
        sub = _ctx_for(ctx, backend_name)
        resolved.append((sub, resolve(sub.backend, identity), [*notify, *extra]))
    if detach:
        rows = [_detach(sub, wid, extra, cadence, config) for sub, wid, extra in resolved]
        if as_json:
            ctx.print_json({"detached": rows})
        else:
            for r in rows:
                verb = "already watched" if r.get("already") else "watching"
                ctx.out.print(
                    f"● {verb} {r['workflow_id']} in the background (pid {r['pid']}); status file: {r['artifact']}\n"
                    f"  see `orchestrate watch --list`, stop with `orchestrate watch --stop {r['workflow_id']}`",
                    markup=False,
                )
        return 0
    return _foreground(ctx, resolved, cadence, as_json)


def _foreground(
    ctx: CliContext, resolved: list[tuple[CliContext, str, list[str]]], cadence: float | None, as_json: bool
) -> int:
    from runshepherd.reports.status import print_terminal
    from runshepherd.watch.monitor import Observation, RunMonitor, watch_all
    from runshepherd.watch.session import build_monitor

    monitors = [
        build_monitor(sub.settings, wid, notify=extra, cadence=cadence, backend=sub.backend)
        for sub, wid, extra in resolved
    ]

    progress: dict[str, str | None] = {}

    def seen(obs: Observation) -> None:
        moved = obs.progress != progress.get(obs.workflow_id)
        progress[obs.workflow_id] = obs.progress
        if not (obs.changed or obs.terminal or obs.auth_blocked or moved):
            return  # nothing new: a week-long run does not print a line per poll
        if as_json:
            ctx.print_json(
                {
                    "workflow_id": obs.workflow_id,
                    "status": obs.status,
                    "previous_status": obs.previous_status,
                    "label": obs.label,
                    "escalations": obs.escalations,
                    "artifact": obs.artifact,
                    "summary": obs.summary,
                    "progress": obs.progress,
                    "auth_blocked": obs.auth_blocked,
                }
            )
        elif obs.changed or obs.terminal or obs.auth_blocked:
            stamp = datetime.now(UTC).strftime("%H:%M:%S")
            ctx.out.print(f"── {stamp} {obs.workflow_id}: {obs.status}", markup=False)
            if obs.report is not None:  # terminal text, like `orchestrate status` (the Markdown is in the artifact)
                print_terminal(ctx.out, obs.report)
            else:
                ctx.out.print(obs.markdown, markup=False)
        else:
            stamp = datetime.now(UTC).strftime("%H:%M:%S")
            ctx.out.print(f"── {stamp} {obs.workflow_id}: {obs.status} · {obs.progress}", markup=False)

    def failed(m: RunMonitor, exc: Exception) -> None:
        ctx.err.print(f"warning: {m.workflow_id}: {exc} (will retry)", markup=False)

    try:
        watch_all(monitors, on_observation=seen, on_error=failed)
    finally:
        for m in monitors:
            if m.notifier is not None:
                m.notifier.close(timeout=30)
                _say_notified(ctx, m.notifier, as_json)
    return _outcome_code(monitors)


def _say_notified(ctx: CliContext, notifier: Any, as_json: bool) -> None:
    """What the notifications did, once they are done: sent, given up, or not sent again to a target an earlier
    monitor already told (the person asked to be told; silence would leave them guessing)."""
    console = ctx.err if as_json else ctx.out
    for target, note in notifier.sent:
        console.print(f"● notified {target}: {_fact(note)}", markup=False)
    for target, note in notifier.skipped:
        console.print(
            f"● not notified again: {target} was already told {_fact(note)} by an earlier monitor", markup=False
        )
    for line in notifier.undelivered_lines():
        console.print(f"warning: {line}", markup=False)


def _fact(note: Any) -> str:
    return f"{note.workflow_id} {note.status}" + (f" ({note.label})" if note.label else "")


def _outcome_code(monitors: list[Any]) -> int:
    """The watched outcome, as README's exit codes say: 4 when the scheduler's auth blocked a monitor, 1 when any
    watched run ended failed (a cancel included, as `run` counts it), 0 when every one completed."""
    from runshepherd.backends.base import Status

    if any(m.auth_blocked for m in monitors):
        return 4
    failed = [m for m in monitors if m.last_status in Status.__members__ and Status(m.last_status).failed()]
    return 1 if failed else 0


def _detach(
    ctx: CliContext, workflow_id: str, notify: list[str], cadence: float | None, config: Path | None
) -> dict[str, Any]:
    state_dir = ctx.state_dir
    existing = registry.read(state_dir, workflow_id)
    if existing is not None and registry.alive(existing):
        return {**registry.as_row(existing), "already": True}
    logs = registry.watch_dir(state_dir)
    logs.mkdir(parents=True, exist_ok=True)
    log_path = logs / f"{registry.record_path(state_dir, workflow_id).stem}.log"
    argv = [sys.executable, "-m", "runshepherd.watch.daemon", workflow_id, "--state-dir", str(state_dir)]
    argv += ["--backend", ctx.settings.backend]
    if config is not None:
        argv += ["--config", str(config)]
    if cadence is not None:
        argv += ["--cadence", str(cadence)]
    env = os.environ.copy()
    if notify:  # through the environment: argv is visible to others (ps) and a webhook URL carries its token
        env["RUNSHEPHERD_NOTIFY"] = json.dumps([*ctx.settings.notify, *notify])
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own session: closing the terminal does not stop it
            env=env,
            cwd=str(state_dir) if state_dir.is_dir() else None,
        )
    import psutil

    try:
        created: float | None = psutil.Process(proc.pid).create_time()
    except psutil.Error:
        created = None
    rec = registry.WatchRecord(
        workflow_id=workflow_id,
        backend=ctx.settings.backend,
        pid=proc.pid,
        started_at=datetime.now(UTC),
        artifact=str(state_dir / "runs" / f"{workflow_id}-status.md"),
        notify=notify,
        log=str(log_path),
        create_time=created,
    )
    registry.write(state_dir, rec)
    return registry.as_row(rec)


def list_watches(ctx: CliContext, as_json: bool) -> int:
    rows = [registry.as_row(r) for r in registry.all_records(ctx.state_dir)]
    if as_json:
        ctx.print_json({"watches": rows})
        return 0
    if not rows:
        ctx.out.print("no background monitors — start one with `orchestrate watch ID --detach`")
        return 0
    from runshepherd.cli.tables import Col, fitted_table

    # like `list` and `pools`: one line per run at any width; a status file's path is never cut — at narrow widths
    # it moves under the table, then the backend goes
    table, left_out = fitted_table(
        [
            Col("Run", [r["workflow_id"] for r in rows]),
            Col("Backend", [r["backend"] for r in rows], drop=2),
            Col(
                "Monitor",
                [f"running (pid {r['pid']})" if r["running"] else f"ended: {r['ended'] or 'exited'}" for r in rows],
            ),
            Col("Status", [r["status"] or "-" for r in rows]),
            Col("Label", [r["label"] or "-" for r in rows]),
            Col("Artifact", [r["artifact"] or "-" for r in rows], drop=1),
        ],
        ctx.out.width,
    )
    ctx.out.print(table)
    if left_out:
        for r in rows:
            if r["artifact"]:
                ctx.out.print(f"{r['workflow_id']}: {r['artifact']}", markup=False, soft_wrap=True)
    return 0


def stop_watch(ctx: CliContext, workflow_id: str, as_json: bool) -> int:
    rec = registry.read(ctx.state_dir, workflow_id)
    if rec is None:
        raise UsageError(f"no background monitor for {workflow_id!r} — `orchestrate watch --list` shows them")
    was_running = registry.alive(rec)
    registry.stop(ctx.state_dir, workflow_id)
    deadline = time.monotonic() + 10
    while was_running and time.monotonic() < deadline:
        now = registry.read(ctx.state_dir, workflow_id)
        if now is None or not registry.alive(now):
            break
        time.sleep(0.1)
    if as_json:
        ctx.print_json({"workflow_id": workflow_id, "stopped": was_running})
    elif was_running:
        ctx.out.print(f"● stopped the monitor of {workflow_id} (the run itself is untouched)", markup=False)
    else:
        ctx.out.print(f"the monitor of {workflow_id} had already ended ({rec.ended or 'exited'})", markup=False)
    return 0
