"""Pure routers: functions of state only, total, never raising (a raising router is skipped on resume)."""

from __future__ import annotations

from runshepherd.graph.state import SessionState, last_status, still_running

CANCELED = "FAILED_CANCELED"


def after_plan(state: SessionState) -> str:
    return "finish" if state.get("outcome") else "approve_submit"


def after_monitor(state: SessionState) -> str:
    if last_status(state) is None or still_running(state):
        return "explain_pending" if state.get("needs_pending_explanation") else "monitor"
    if last_status(state) == CANCELED:  # the person's (or the scheduler's own) cancel is final: no diagnosis, no retry
        return "finish"
    return "collect_tasks"


def after_report(state: SessionState) -> str:
    if state.get("sweep_point"):  # a sweep's point: downloads and the app are offered once, for all points
        return "finish"
    return "offer_download" if last_status(state) == "COMPLETED" else "finish"
