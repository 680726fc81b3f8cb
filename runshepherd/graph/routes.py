"""Pure routers: functions of state only, total, never raising (a raising router is skipped on resume)."""

from __future__ import annotations

from runshepherd.graph.state import SessionState

ALIVE = ("PENDING", "RUNNING", "WAITING")
CANCELED = "FAILED_CANCELED"


def after_plan(state: SessionState) -> str:
    return "finish" if state.get("outcome") else "approve_submit"


def after_monitor(state: SessionState) -> str:
    snap = state.get("last_status") or {}
    status = snap.get("status")
    if status is None or status in ALIVE:
        return "explain_pending" if state.get("needs_pending_explanation") else "monitor"
    if status == CANCELED:  # the person's (or the scheduler's own) cancel is final: no diagnosis, no retry
        return "finish"
    return "collect_tasks"


def after_report(state: SessionState) -> str:
    snap = state.get("last_status") or {}
    return "offer_download" if snap.get("status") == "COMPLETED" else "finish"
