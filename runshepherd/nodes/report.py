"""report: the status block for the final (or current) attempt, written as a short status artifact."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from runshepherd.events import Report
from runshepherd.graph.context import Deps, deps_of
from runshepherd.graph.state import SessionState
from runshepherd.nodes.common import emit


def write_report(state: SessionState, deps: Deps) -> str | None:
    from runshepherd.reports.build import requested_resources
    from runshepherd.reports.status import LogFacts, build_report, write_artifact

    wid = state["attempt"]["workflow_id"] if "attempt" in state else None
    if not wid:
        return None
    ws = deps.backend.query(wid)
    diag = state.get("diagnosis")
    facts = LogFacts(
        summary=state.get("digest") or None,
        progress=state.get("progress_line"),
        error_lines=list(diag["evidence"])[:50] if diag else [],
        risks=[diag["explanation"]] if diag and diag["explanation"] else [],
    )
    report = build_report(ws, facts, resources=requested_resources(deps.backend.spec(wid)))
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
