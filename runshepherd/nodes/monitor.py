"""monitor: poll inside the node with the cadence policy, wake at once when the backend signals a change, and
return to the graph every few polls (each return is one small checkpoint). Streams transitions and progress."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from typing import Any

from langgraph.runtime import Runtime

from runshepherd.backends.base import Status, TaskStatus, WorkflowStatus, has_cheap_logs
from runshepherd.durations import format_elapsed
from runshepherd.events import Progress, StatusChanged
from runshepherd.graph.context import Deps, deps_of
from runshepherd.graph.state import MAX_TRANSITIONS, SessionState, cap, submitted_id
from runshepherd.nodes.cadence import interval, is_training
from runshepherd.nodes.common import DRAIN_SLICE, emit, say, snapshot

PROGRESS_TAIL = 300


def _transition_text(prev: str | None, ws: WorkflowStatus) -> str:
    extra = ""
    if ws.status is Status.RUNNING and ws.queued_time is not None:
        extra = f" (queued {format_elapsed(ws.queued_time)})"
    elif ws.status.terminal() and ws.duration is not None:
        extra = f" ({format_elapsed(ws.duration)})"
    return f"{prev or 'SUBMITTED'} → {ws.status.value}{extra}"


def _progress(deps: Deps, ws: WorkflowStatus) -> str | None:
    """One line of facts from the running task's log tail; None when the log shows nothing yet."""
    from runshepherd.logs import LogConfig, read_log, stage_line

    running = [t for t in ws.tasks if t.status is TaskStatus.RUNNING]
    if not running:
        return None
    task = next((t for t in running if t.lead), running[0])
    lines = itertools.islice(
        deps.backend.logs(ws.workflow_id, task.name, tail=PROGRESS_TAIL, timeout=None), PROGRESS_TAIL
    )
    d = read_log(
        lines,
        task=task.name,
        now=datetime.now(UTC),
        status=task.status.value,
        config=LogConfig(**deps.settings.logs.model_dump()),
    )
    if d.progress is None and not d.metrics:
        return None
    return (f"{task.name}: " if len(ws.tasks) > 1 else "") + stage_line(d)


def _draining(control: Any) -> bool:
    return bool(control is not None and control.drain_requested)


def _wait(deps: Deps, ws: WorkflowStatus, seconds: float, progress: str | None, control: Any = None) -> str | None:
    """Sleep until the next poll, waking at once on a change; while RUNNING refresh the progress line every
    `cadence.progress_every` seconds (reading a log tail is cheaper than a status query on every backend)."""
    # Only where reading a log tail is cheap (local files); on OSMO a log read is a streaming HTTP call.
    every = deps.settings.cadence.progress_every if has_cheap_logs(deps.backend) else 0
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return progress
        step = min(left, every) if every > 0 and ws.status is Status.RUNNING else left
        if control is not None:
            step = min(step, DRAIN_SLICE)  # a Ctrl-C (drain request) is honoured within half a second
        if deps.wait_for_change(ws.workflow_id, step) or _draining(control):
            return progress
        if every > 0 and ws.status is Status.RUNNING and time.monotonic() < deadline:
            line = _progress(deps, ws)
            if line and line != progress:
                emit(Progress(workflow_id=ws.workflow_id, text=line))
                progress = line


def _unschedulable(deps: Deps, workflow_id: str) -> bool:
    events = deps.backend.events(workflow_id)
    return any(e.reason in ("Unschedulable", "FailedScheduling") for e in events)


def monitor(state: SessionState, runtime: Runtime[Deps]) -> dict[str, Any]:
    deps = deps_of(runtime)
    wid = submitted_id(state)
    last = state.get("last_status")
    prev_status = last["status"] if last else None
    polls = state.get("polls", 0)
    unchanged = state.get("unchanged_polls", 0)
    transitions = list(state.get("transitions") or [])
    pending_since = state.get("pending_since")
    progress = state.get("progress_line")
    training = is_training(state.get("spec", ""))
    per_return = max(1, deps.settings.cadence.polls_per_checkpoint)
    ws: WorkflowStatus | None = None
    needs_explanation = False
    halting = False
    for _ in range(per_return):
        ws = deps.query(wid)
        polls += 1
        if not ws.status.terminal() and not halting and (why := deps.halt_reason()):  # sent just before the cancel
            from runshepherd.sweep.cancel import cancel_own

            halting = True
            point = state.get("sweep_point")
            sweep = point["sweep"] if point else None
            if resent := cancel_own(deps.backend, deps.state_dir, deps.session_id, wid, why, sweep):
                say("warning", resent)
        changed = ws.status.value != prev_status
        if changed:
            text = _transition_text(prev_status, ws)
            emit(StatusChanged(workflow_id=wid, from_=prev_status, to=ws.status.value, text=text))
            transitions = cap([*transitions, f"{wid}: {text}"], MAX_TRANSITIONS)
            prev_status = ws.status.value
            unchanged = 0
        else:
            unchanged += 1
        if ws.status is Status.PENDING and pending_since is None:
            pending_since = datetime.now(UTC).isoformat()
        # A printed transition is checkpointed at once (the graph saves on return): a driver killed after it
        # (SIGTERM leaves without draining) resumes from the status it showed, never from an older one.
        if ws.status.terminal() or changed:
            break
        if ws.status is Status.RUNNING and deps.progress_due(ws):
            line = _progress(deps, ws)
            if line and line != progress:
                progress = line
                emit(Progress(workflow_id=wid, text=line))
        if ws.status is Status.PENDING and pending_since is not None and not state.get("pending_explained"):
            waited = (datetime.now(UTC) - datetime.fromisoformat(pending_since)).total_seconds()
            needs_explanation = waited >= deps.settings.pending.explain_after_seconds or _unschedulable(deps, wid)
            if needs_explanation:
                break
        wait = interval(deps.settings.cadence, training=training, unchanged_polls=unchanged, override=deps.cadence)
        progress = _wait(deps, ws, wait, progress, runtime.control)
        if _draining(runtime.control):
            break
    assert ws is not None
    candidate: dict[str, Any] = {
        "last_status": snapshot(ws),
        "polls": polls,
        "unchanged_polls": unchanged,
        "transitions": transitions,
        "pending_since": pending_since,
        "outputs": list(ws.outputs[:100]),
        "progress_line": progress,
        "needs_pending_explanation": needs_explanation and ws.status is Status.PENDING,
    }
    # Write only what changed: every written key costs checkpoint bytes on each return.
    update = {k: v for k, v in candidate.items() if state.get(k) != v}
    return update
