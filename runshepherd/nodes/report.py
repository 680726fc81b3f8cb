"""report: the status block for the final (or current) attempt, written as a short status artifact."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from runshepherd.events import Report
from runshepherd.graph.context import Deps, deps_of
from runshepherd.graph.state import SessionState
from runshepherd.nodes.common import emit


def write_report(state: SessionState, deps: Deps) -> str | None:
    from datetime import datetime

    from runshepherd.reports.build import requested_resources
    from runshepherd.reports.status import LogFacts, build_report, progress_text, write_artifact

    wid = state["attempt"]["workflow_id"] if "attempt" in state else None
    if not wid:
        return None
    ws = deps.backend.query(wid)
    diag = state.get("diagnosis")
    # One source of truth: the last digest (the same one the summary quotes), never a progress line from earlier.
    by_task = state.get("digest_facts") or {}
    failed = [t.name for t in ws.tasks if t.status.failed() and t.name in by_task]
    focus = by_task.get((failed or list(by_task) or [""])[0]) or {}
    stamp = focus.get("last_update")
    facts = LogFacts(
        summary=state.get("digest") or None,
        progress=progress_text(focus.get("stage"), focus.get("progress")),
        metrics=focus.get("metrics") or None,
        last_update=datetime.fromisoformat(stamp) if stamp else None,
        error_lines=list(diag["evidence"])[:50] if diag else [],
        risks=[diag["explanation"]] if diag and diag["explanation"] else [],
    )
    report = build_report(ws, facts, resources=requested_resources(deps.backend.spec(wid), ws=ws))
    return write_artifact(report, deps.state_dir / "runs")


def report(state: SessionState, runtime: Runtime[Deps]) -> dict[str, Any]:
    deps = deps_of(runtime)
    path = write_report(state, deps)
    emit(
        Report(
            workflow_id=state["attempt"]["workflow_id"] if "attempt" in state else None,
            artifact=path,
            digest=state.get("digest"),
        )
    )
    return {"report_path": path}
