"""Sessions driven by the MCP server: `start_run` returns at once and the session runs on a background thread.

Every session goes through the one `SessionRunner` (same graph, checkpointer, lock and events as `orchestrate
run`), so a session started here is listed by `orchestrate sessions` and continued by `orchestrate resume`, and
the reverse. Questions are never answered here on the caller's behalf: a session that asks stops (its thread
ends) until `answer` gives one of the listed answers. `cancel` is the only other side effect, and only on request.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError
from runshepherd.names import check_id

MAX_EVENTS = 40  # recent progress events kept per session for `session` (the digest, not a transcript)

SessionState = Literal[
    "running", "waiting", "canceled", "stopped", "COMPLETED", "FAILED", "NEEDS_INPUT", "CANCELED", "unknown"
]


class QuestionView(BaseModel):
    id: str
    kind: str
    text: str
    default: str
    choices: list[str]


class SessionView(BaseModel):
    session: str
    state: SessionState = Field(
        description="running | waiting (answer the question) | canceled (its question withdrawn) | stopped | an outcome"
    )
    request: str | None = None
    workflow_ids: list[str] = Field(default_factory=list)
    question: QuestionView | None = Field(None, description="the open question; answer it with `answer`")
    outcome_reason: str | None = None
    status_artifact: str | None = None
    recent_events: list[dict[str, Any]] = Field(
        default_factory=list, description="the latest progress events this server saw (bounded)"
    )
    error: str | None = Field(None, description="why the background run stopped with an error, if it did")
    resume_hint: str | None = None
    driven_by: Literal["this server", "another process"] | None = Field(
        None, description="who drives a running session: this server, or another orchestrate process (its lock)"
    )
    note: str | None = None


class CancelResult(BaseModel):
    session: str | None = None
    workflow_id: str | None = None
    canceled: bool
    message: str


@dataclass
class _Live:
    thread: threading.Thread | None = None
    runner: Any = None
    events: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=MAX_EVENTS))
    error: str | None = None


def no_session(sid: str) -> str:
    """What `session`, `answer` and `cancel` say of an id no session has: where its ids come from (was: "no
    session 'x'" alone; this server lists no sessions, so the pointer is the call that made it)."""
    return f"no session {sid!r} — a session's id is the `session` that start_run returned"


class Sessions:
    """Background sessions of one server process (thread per active session; state lives in the checkpointer)."""

    def __init__(self, ctx: CliContext, *, cadence: float | None = None) -> None:
        self.ctx = ctx
        self.cadence = cadence
        self._live: dict[str, _Live] = {}
        self._lock = threading.Lock()

    # -- helpers ------------------------------------------------------------------------------------------------
    def _runner(self, sid: str, *, with_deps: bool = False) -> Any:
        from runshepherd.graph.context import build_deps

        deps = None
        if with_deps:
            deps = build_deps(
                self.ctx.backend, self.ctx.settings, self.ctx.state_dir, sid, yes=False, cadence=self.cadence
            )
        return self.ctx.runner(sid, deps)

    def _busy(self, sid: str) -> bool:
        live = self._live.get(sid)
        return bool(live and live.thread and live.thread.is_alive())

    def _launch(self, sid: str, first_input: dict[str, Any] | None, answers: dict[str, str] | None) -> None:
        runner = self._runner(sid, with_deps=True)
        with self._lock:
            if self._busy(sid):
                raise UsageError(f"session {sid} is already running in this server")
            live = self._live.setdefault(sid, _Live())
            live.error = None
            live.runner = runner
            live.thread = threading.Thread(
                target=self._drive, args=(sid, live, runner, first_input, answers), name=f"mcp-{sid}", daemon=True
            )
            live.thread.start()

    def close(self, timeout: float = 30.0) -> list[str]:
        """Stop every session this server drives at its next safe point (each stays resumable, from `orchestrate
        resume` or another server) and wait for them, at most ``timeout`` seconds in all. Before, the client
        going away ended the server and its session threads mid-step, and a session started a moment before
        was never stored: the id `start_run` had returned named nothing. Returns the sessions still going."""
        import time

        with self._lock:
            live = {sid: lv for sid, lv in self._live.items() if lv.thread is not None and lv.thread.is_alive()}
        for lv in live.values():
            lv.runner.stop("the MCP server is shutting down")
        deadline = time.monotonic() + timeout
        for lv in live.values():
            assert lv.thread is not None
            lv.thread.join(max(0.0, deadline - time.monotonic()))
        return [sid for sid, lv in live.items() if lv.thread is not None and lv.thread.is_alive()]

    @staticmethod
    def _drive(sid: str, live: _Live, runner: Any, first_input: Any, answers: dict[str, str] | None) -> None:
        from runshepherd.graph.runner import Emitted

        try:
            for item in runner.run(first_input, answers=answers):
                if isinstance(item, Emitted):
                    live.events.append(item.event)
        except Exception as exc:  # shown by `session`; the checkpoint before it stands, so it stays resumable
            live.error = f"{type(exc).__name__}: {exc}"

    # -- tools --------------------------------------------------------------------------------------------------
    def start(
        self,
        request: str | None,
        spec_path: str | None = None,
        set_values: list[str] | None = None,
        pool: str | None = None,
        session: str | None = None,
    ) -> SessionView:
        from pathlib import Path

        from runshepherd.cli.session import check_new_session
        from runshepherd.graph.runner import new_session_id
        from runshepherd.request_text import Entered, enter
        from runshepherd.spec import parse_set_values

        if not request and not spec_path:
            raise UsageError("say what to run (request), or give spec_path")
        spec = Path(spec_path).expanduser().resolve() if spec_path else None
        # what `orchestrate run` refuses (a long request, a question about a workflow, one outside what RunShepherd
        # does, a bad spec or --set, an unknown pool) fails here, before a session exists
        check_new_session(self.ctx, request=request, spec=spec, sets=set_values or [], session=None, pool=pool)
        values = parse_set_values(set_values or [])
        sid = check_id(session, "session id") if session else new_session_id()
        if self._runner(sid).exists():
            raise UsageError(f"session {sid} already exists; use `session` to see it, `answer` to continue it")
        entered = enter(request, left_out_of="the session, the plan and the job") if request else Entered(f"run {spec}")
        req, warning = entered.text, entered.secret_warning
        first = {
            "request": req,
            "request_not_used": entered.not_used,
            "spec_path": str(spec) if spec else None,
            "set_values": values,
            "pool": pool,
        }
        self._launch(sid, first, None)
        return SessionView(session=sid, state="running", request=req, note=warning)

    def view(self, session: str) -> SessionView:
        sid = check_id(session, "session id")
        runner = self._runner(sid)
        live = self._live.get(sid)
        snap = runner.snapshot()
        if not snap.values and not self._busy(sid):
            raise self._no_session(sid)
        v = snap.values or {}
        questions = runner.questions(snap) if snap.values else []
        here = self._busy(sid)
        elsewhere = not here and runner.driven()  # the session lock says another process holds it
        note = None
        canceled = None
        if not (here or elsewhere or v.get("outcome")) and snap.values:
            from runshepherd.cli.session import canceled_while_paused

            canceled = canceled_while_paused(self.ctx.state_dir, sid, v)
        if here or elsewhere:
            state: SessionState = "running"
            if elsewhere:
                note = (
                    f"session {sid} is being driven by another orchestrate process right now (it holds the "
                    "session lock): follow it there; `answer` and `orchestrate resume` wait until it stops"
                )
        elif canceled:  # was "waiting" with the question `cancel` had just withdrawn (`orchestrate sessions` knew)
            state, note = "canceled", f"{canceled}: its question is withdrawn; nothing more is submitted or fixed"
        elif questions:
            state = "waiting"
        elif v.get("outcome"):
            state = v["outcome"]
        elif snap.next:
            state = "stopped"
        else:
            state = "unknown"
        q = questions[0] if questions and (state == "waiting" or elsewhere) else None
        resume = None
        if state == "stopped":
            resume = f"continue it with `orchestrate resume {sid}` (or `answer` once it asks)"
        return SessionView(
            session=sid,
            state=state,
            request=v.get("request"),
            workflow_ids=list(v.get("workflow_ids") or []),
            question=QuestionView(**q.__dict__) if q is not None else None,
            outcome_reason=v.get("outcome_reason"),
            status_artifact=v.get("report_path"),
            recent_events=[_in_tool_terms(e) for e in live.events] if live else [],
            error=live.error if live else None,
            resume_hint=resume,
            driven_by="this server" if here else "another process" if elsewhere else None,
            note=note,
        )

    def answer(self, session: str, answer: str) -> SessionView:
        from runshepherd.nodes.common import parse_answer, refusal

        sid = check_id(session, "session id")
        if self._busy(sid):
            raise UsageError(f"session {sid} is running and asks nothing yet; check it with `session`")
        runner = self._runner(sid)
        if runner.driven():
            raise UsageError(f"session {sid} is being driven by another orchestrate process right now; answer it there")
        snap = runner.snapshot()
        if not snap.values:
            raise self._no_session(sid)
        questions = runner.questions(snap)
        from runshepherd.cli.session import canceled_answer, canceled_while_paused, nothing_to_answer

        if not questions and snap.values.get("outcome"):  # was "is not waiting for an answer": say how it ended
            raise UsageError(nothing_to_answer(sid, snap.values, answer))
        if not questions:
            raise UsageError(f"session {sid} is not waiting for an answer")

        why = canceled_while_paused(self.ctx.state_dir, sid, snap.values)
        if why:  # was: the answer was taken ("running", driven by this server) after the person's cancel
            self._launch(sid, None, None)  # as `resume --answer`: its question's node sees the cancel and ends it
            raise UsageError(canceled_answer(why, answer, [q.payload() for q in questions], "session"))
        answers = {}
        for q in questions:
            parsed = parse_answer(answer, q.choices, q.default) if answer.strip() else None
            if parsed is None:
                raise UsageError(f"{refusal(answer, q.choices)} (question: {q.text})")
            answers[q.id] = parsed
        self._launch(sid, None, answers)
        return self.view(sid)

    def _no_session(self, sid: str) -> UsageError:
        """No session by that id; a sweep's id is said to be one, with where its state and its plan are (`session`
        and `answer` read one session; `cancel` takes a sweep), instead of "no session"."""
        from runshepherd.sweep.status import read_record

        record = read_record(self.ctx.state_dir, sid)
        if record is None:
            return UsageError(no_session(sid))
        from runshepherd.cancel_mark import reason
        from runshepherd.sweep.cancel import canceled

        mark = canceled(self.ctx.state_dir, sid)  # was: a sweep canceled at its plan still "waits on its plan"
        waits = record.get("question") and not record.get("approved") and not record.get("declined")
        if mark is not None:
            plan = f"; it was {reason(mark)}: final, no point starts, resubmits or is fixed after it"
        elif waits and isinstance(record["question"], dict):
            plan = (
                f"; it waits on its plan ({record['question'].get('text')}): the person answers it with "
                f"`orchestrate resume {sid} --answer yes` or `--answer no`"
            )
        else:
            plan = ""
        # a canceled sweep is not offered its cancel again
        cancel = "" if mark is not None else f"; `cancel` with session {sid} cancels every point"
        return UsageError(
            f"{sid} is a sweep, not a session: `orchestrate status {sid}` shows its points (each point is session "
            f"{sid}-pN, which `session` reads once it has started){plan}{cancel}"
        )

    def _cancel_sweep(self, record: dict[str, Any]) -> CancelResult:
        """A sweep id: the same cancel as `orchestrate cancel SWEEP` (`sweep/cancel.py`), final for every point."""
        from runshepherd.sweep.cancel import cancel_sweep, refusal, told

        sid = str(record["sweep"])

        def values_of(session: str) -> dict[str, Any]:
            return dict(self._runner(session).snapshot().values or {})

        if (no := refusal(self.ctx.state_dir, record, values_of)) is not None:
            return CancelResult(session=sid, canceled=False, message=no)
        points = cancel_sweep(
            self.ctx.backend, self.ctx.state_dir, record, values_of, via="mcp cancel", approved_by="person"
        )
        return CancelResult(session=sid, canceled=True, message="\n".join(told(sid, points)))

    def _stop_planning(self, sid: str) -> CancelResult:
        """A session of this server still planning, nothing submitted: stopped at its next safe point."""
        live = self._live.get(sid)
        if live and live.runner is not None:
            live.runner.stop("canceled over MCP")
        return CancelResult(
            session=sid,
            canceled=False,
            message=f"session {sid} has submitted nothing, so there is nothing to cancel; "
            "it was stopped at its next safe point",
        )

    def cancel(self, session: str | None = None, workflow_id: str | None = None) -> CancelResult:
        """Cancel a session's live workflow (the session then ends CANCELED) or a workflow by id."""
        if (session is None) == (workflow_id is None):
            raise UsageError("cancel takes exactly one of session or workflow_id")
        if session is not None:
            sid = check_id(session, "session id")
            from runshepherd.sweep.status import read_record

            if (sweep := read_record(self.ctx.state_dir, sid)) is not None:
                return self._cancel_sweep(sweep)
            if not self._runner(sid).snapshot().values:  # nothing checkpointed yet: planning, or no such session
                if not self._busy(sid):
                    raise UsageError(no_session(sid))
                return self._stop_planning(sid)
            target = sid
        else:
            target = check_id(workflow_id or "", "workflow id")
        from runshepherd.cancel_mark import cancel, find_target

        # the same path as `orchestrate cancel` and the chat: the session marked canceled first, then its workflow
        t = find_target(self.ctx.backend, self.ctx.state_dir, target, self.ctx.settings.checkpointer)
        if t.nothing is not None:
            told = t.nothing
            if t.workflow is None and t.session and self._busy(t.session):
                return self._stop_planning(t.session)
            return CancelResult(session=t.session, workflow_id=t.workflow, canceled=False, message=told)
        told = cancel(self.ctx.backend, self.ctx.state_dir, t, via="mcp cancel", approved_by="person")
        return CancelResult(session=t.session, workflow_id=t.workflow, canceled=True, message=told)


def _in_tool_terms(event: dict[str, Any]) -> dict[str, Any]:
    """A plan's warnings are written for the command line ("--set epochs=1e9 looks unintended"): said here with this
    server's argument names, as its errors are (`wording.py`)."""
    from runshepherd.mcpserver.wording import in_tool_terms

    if not event.get("warnings"):
        return event
    return {**event, "warnings": [in_tool_terms(str(w)) for w in event["warnings"]]}
