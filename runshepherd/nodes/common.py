"""Small helpers shared by nodes: event emission, questions, snapshots. No I/O beyond what callers pass."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal

from langgraph.config import get_stream_writer
from langgraph.types import interrupt

from runshepherd.backends.base import WorkflowStatus
from runshepherd.events import Answered, BaseEvent, Message
from runshepherd.experts.base import NoticeSource
from runshepherd.graph.context import Deps
from runshepherd.graph.state import SessionState, StatusSnapshot

MAX_SNAPSHOT_TASKS = 50  # failed first; the full list is read from the backend when needed

# Obvious synonyms only: an answer the question does not list is refused, never taken as the default.
YES = {"y", "yes", "yeah", "yep", "yup", "sure", "ok", "okay", "go", "go ahead", "true", "1", "yes please", "do it"}
NO = {"n", "no", "nope", "nah", "false", "0", "no thanks", "no thank you", "don't", "do not", "skip", "not now"}


def emit(event: BaseEvent) -> None:
    """Stream a session event (see runshepherd/events.py) to whoever drives the run; a no-op outside a run."""
    try:
        writer = get_stream_writer()
    except RuntimeError:
        return
    writer(event.wire())


def say(level: Literal["info", "warning", "error"], text: str) -> None:
    """A plain message event."""
    emit(Message(level=level, text=text))


def parse_answer(raw: Any, choices: list[str], default: str) -> str | None:
    """The listed choice ``raw`` means, or None when it means none of them (the caller re-asks or refuses).

    An empty answer is the default (Enter at a prompt); yes/no synonyms only where yes/no are listed (a "no" is
    "stop" where stop is listed); otherwise a choice itself or an unambiguous start of one ("st" → stop)."""
    if isinstance(raw, dict):
        raw = raw.get("answer", raw.get("approved", default))
    if isinstance(raw, bool):
        raw = "yes" if raw else "no"
    text = " ".join(str(raw if raw is not None else "").strip().lower().strip(" .!").split())
    if not text:
        return default
    if text in choices:
        return text
    if "yes" in choices and text in YES:
        return "yes"
    if "no" in choices and text in NO:
        return "no"
    if "stop" in choices and text in NO:  # "Run X instead, or stop?" — a "no" is never a go-ahead
        return "stop"
    starts = [c for c in choices if c.startswith(text)]
    return starts[0] if len(starts) == 1 else None


def refusal(raw: Any, choices: list[str]) -> str:
    """Says which answer was refused: redacted and cut (a pasted token or 50,000 characters are never echoed)."""
    from runshepherd.logs import redact

    shown = redact(str(raw).strip()[:1000])[0]
    shown = shown if len(shown) <= 60 else shown[:59] + "…"
    return f"{shown!r} is not an answer to this question; answer one of: {', '.join(choices)}"


def ask(
    deps: Deps, kind: str, text: str, *, default: str, choices: list[str] | None = None, always_ask: bool = False
) -> str:
    """Ask the person (interrupt) unless pre-authorised. Everything before this call must be side-effect free.

    `always_ask`: --yes and the approval policy never answer it (running something other than what was asked)."""
    choices = choices or ["yes", "no"]
    pre = None if always_ask else deps.preauthorised(kind)
    if pre is not None:
        auto = default if pre == "default" else (parse_answer(pre, choices, default) or default)
        emit(Answered(kind=kind, text=text, answer=auto))
        return auto
    payload = {"kind": kind, "text": text, "default": default, "choices": choices}
    while True:  # the CLI and chat refuse unlisted answers first; this keeps any other caller just as strict
        raw = interrupt(payload)
        answer = parse_answer(raw, choices, default)
        if answer is not None:
            return answer
        payload = {**payload, "refused": refusal(raw, choices)}


def seed_llm(deps: Deps, state: Any) -> Any:
    """The expert, with the token counts of earlier processes of this session carried in (the ceiling holds)."""
    expert = deps.get_expert()
    if deps.usage is not None:
        deps.usage.seed(state.get("llm_usage"))
    return expert


def flush_llm(deps: Deps) -> dict[str, Any]:
    """Show the model path's fallback notices as warnings; return the usage to checkpoint (empty without a model)."""
    expert = deps.expert
    if isinstance(expert, NoticeSource):
        for text in expert.drain_notices():
            say("warning", text)
    if deps.usage is None or not deps.usage.by_node:
        return {}
    return {"llm_usage": deps.usage.snapshot()}


def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat() if dt else None


def snapshot(ws: WorkflowStatus) -> StatusSnapshot:
    return {
        "workflow_id": ws.workflow_id,
        "status": ws.status.value,
        "tasks": [
            {
                "name": t.name,
                "status": t.status.value,
                "exit_code": t.exit_code,
                "failure_message": (t.failure_message or "")[:300] or None,
            }
            for t in sorted(ws.tasks, key=lambda t: not t.status.failed())[:MAX_SNAPSHOT_TASKS]
        ],
        "task_count": len(ws.tasks),
        "submit_time": _iso(ws.submit_time),
        "start_time": _iso(ws.start_time),
        "end_time": _iso(ws.end_time),
        "outputs": list(ws.outputs[:100]),
        "overview": ws.links.overview,
    }


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


DRAIN_SLICE = 0.5  # every wait in a node checks for a stop request (Ctrl-C) at least this often


def pause(seconds: float, stopping: Callable[[], bool]) -> bool:
    """Sleep up to ``seconds`` in half-second slices; True as soon as ``stopping()`` says a stop was requested.

    A node that waits (a backoff, a poll interval) must answer Ctrl-C like the monitor does: the graph stops at
    the next checkpoint, which is right after the waiting node returns.
    """
    deadline = time.monotonic() + max(0.0, seconds)
    while True:
        if stopping():
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(left, DRAIN_SLICE))


def fix_budget(state: SessionState, deps: Deps) -> int:
    """How many fix attempts this session may make: the cap, plus one for each "retry" the person chose at it;
    in a sweep, no more than what the sweep-wide cap leaves (runshepherd/sweep/budget.py)."""
    own = deps.fix_cap + state.get("extra_fixes", 0)
    if deps.sweep_budget is None:
        return own
    return min(own, state.get("fix_attempts", 0) + deps.sweep_budget.fixes_left())


def infra_retry_allowed(state: SessionState, deps: Deps) -> bool:
    """One more unchanged resubmission after an infrastructure failure: the session's cap and the sweep's."""
    if state.get("infra_retries", 0) >= deps.settings.fixes.max_infra_retries:
        return False
    return deps.sweep_budget is None or deps.sweep_budget.infra_left() > 0
