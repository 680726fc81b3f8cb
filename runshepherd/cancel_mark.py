"""The person's cancel as a mark file, written before anything else and obeyed by whatever process drives the
session (a terminal in another window, a detached run, a resume later): final, never undone.

A sweep's mark is `<state_dir>/sweeps/<sweep>/canceled.json` (`sweep/cancel.py`); a session's, written by
any cancel of the session (`orchestrate cancel SESSION|WF`, the chat, MCP: `cancel`) whether it runs its workflow or
waits at a question that would act, is `<state_dir>/canceled/<session>.json`. `Deps.halted` reads them: the waiting
prompt withdraws its question, and no node submits, resubmits, applies a fix or asks again."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runshepherd.audit import record as audit
from runshepherd.backends.base import Status

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.backends.base import Backend

SESSION_MARKS = "canceled"
WORKFLOW_CLAIMS = "workflows"  # under SESSION_MARKS: one empty file per workflow the person's cancel reached
# the follow-ups after a completed workflow: a cancel while one waits ends the session CANCELED, nothing downloaded
# or saved (the workflow itself already ended: nothing of it to cancel)
FOLLOW_UP_QUESTIONS = frozenset({"download", "save_app"})
# questions whose answer would act (submit, resubmit, wait on a workflow, download, save): a cancel while one waits
# is final
ACTING_QUESTIONS = (
    frozenset({"submit", "missing_input", "resubmit", "no_fix", "continue_after_cap", "pending"}) | FOLLOW_UP_QUESTIONS
)


def read_mark(path: Path) -> dict[str, Any] | None:
    """A cancel mark ({at, via, approved_by}), or None when there is none."""
    try:
        return dict(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):  # a mark that exists but cannot be read still means the person canceled
        return {"at": "unknown", "via": "unknown", "approved_by": "person"}


def write_mark(
    path: Path, *, via: str, approved_by: str, audited: tuple[Path, str, dict[str, Any]] | None = None
) -> bool:
    """Write the mark atomically unless one is there; True when this call wrote it. ``audited`` (state dir, what,
    fields) is the person's cancel's audit line, recorded before the mark: a process that sees the mark and cancels
    its own workflow audits that after the person's line, never before it."""
    if path.exists():
        return False
    if audited is not None:
        audit(audited[0], audited[1], via=via, approved_by=approved_by, **audited[2])
    path.parent.mkdir(parents=True, exist_ok=True)
    mark = {"at": datetime.now(UTC).isoformat(timespec="seconds"), "via": via, "approved_by": approved_by}
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(mark), encoding="utf-8")
    tmp.replace(path)
    return True


def reason(mark: dict[str, Any]) -> str:
    """Who canceled, how and when: "canceled by you (orchestrate cancel, TIME)"."""
    who = "you" if str(mark.get("approved_by", "person")).startswith(("person", "--yes")) else mark["approved_by"]
    return f"canceled by {who} ({mark.get('via')}, {mark.get('at')})"


def session_mark_path(state_dir: Path, session: str) -> Path:
    return Path(state_dir) / SESSION_MARKS / f"{session}.json"


def session_halted(state_dir: Path, session: str) -> Callable[[], str | None]:
    """Why this session must not act any more ("session S was canceled by you (…)"), or None. A stat per call."""
    path = session_mark_path(state_dir, session)

    def check() -> str | None:
        mark = read_mark(path)
        return f"session {session} was {reason(mark)}" if mark is not None else None

    return check


def confirm_text(session: str, question: str, shown: str = "") -> str:
    """What the person confirms before a waiting session is canceled (the terminal and the chat ask the same);
    ``shown``: its live workflow and status ("; tiny-1 PENDING"), when there is one."""
    short = question if len(question) <= 80 else question[:79] + "…"
    return f"Cancel session {session} (waiting for your answer: {short}{shown})? This is final."


@dataclass(frozen=True)
class CancelTarget:
    """What a cancel of an id reaches: the session it stops (one waiting at ``kind``, or running its workflow), its
    live workflow, or a workflow no session of this state dir submitted; ``nothing`` says why there is nothing to
    cancel."""

    session: str | None
    workflow: str | None
    status: str | None  # the workflow's status when it was looked up
    kind: str | None = None  # the acting question the session waits at
    question: str = ""
    nothing: str | None = None

    @property
    def live(self) -> bool:
        return self.status is not None and not Status(self.status).terminal()

    def confirm(self) -> str:
        """What the person confirms first (the terminal and the chat ask the same)."""
        if self.session and self.kind:
            shown = f"; {self.workflow} {self.status}" if self.live else ""
            return confirm_text(self.session, self.question, shown)
        if self.session and not self.live:  # between attempts, or before its first submit: the cancel stops it
            last = f"; its last workflow {self.workflow} {self.status}" if self.workflow else ""
            return f"Cancel session {self.session} (nothing more would be submitted or fixed{last})? This is final."
        return f"Cancel {self.workflow} ({self.status})?"


def find_target(backend: Backend, state_dir: Path, target: str, checkpointer: str | None = None) -> CancelTarget:
    """``target`` as a session id, else as a workflow id (its session from the audited submit): the one lookup
    behind `orchestrate cancel SESSION|WF`, the chat's cancel and the MCP `cancel` tool (a sweep id is
    `sweep/cancel.py`'s)."""
    from runshepherd.graph.checkpoint import has_session
    from runshepherd.graph.runner import SessionRunner
    from runshepherd.graph.waiting import submitted_by, waiting_session

    if (w := waiting_session(state_dir, target, checkpointer)) is not None:
        status = backend.query(w.workflow_id).status.value if w.workflow_id else None
        done = session_halted(state_dir, w.session)()
        nothing = f"session {w.session} was already canceled; nothing to cancel" if done else None
        return CancelTarget(w.session, w.workflow_id, status, w.kind, w.text, nothing)

    def going(session: str) -> tuple[bool, str | None]:
        """Whether the session has not ended (between attempts it still submits, fixes and resubmits), and the
        workflow of its latest attempt: one submitted an instant ago is in no checkpoint yet (the submit node saves
        its id when it returns), so the scheduler finds it by the attempt's key, as the submit node itself does."""
        values = SessionRunner(state_dir, session, checkpointer=checkpointer).snapshot().values or {}
        alive = not values.get("outcome") and session_halted(state_dir, session)() is None
        attempt = values.get("attempt") or {}
        key = attempt.get("idempotency_key")
        return alive, attempt.get("workflow_id") or (backend.find_by_key(key) if alive and key else None)

    if has_session(state_dir, target, checkpointer):
        alive, wid = going(target)
        if not wid:
            nothing = None if alive else f"session {target} has submitted nothing, so there is nothing to cancel"
            return CancelTarget(target, None, None, nothing=nothing)
        session: str | None = target
    else:
        from runshepherd.watch.targets import resolve

        # read as `watch` reads it: a plain sbatch job's bare id (`cancel 104`) is its workflow sbatch-104 (was:
        # refused with "use sbatch-104" while `watch 104` took the same number)
        wid = resolve(backend, target)
        session = submitted_by(state_dir, wid)
        alive = False
        if session is not None and has_session(state_dir, session, checkpointer):
            alive, latest = going(session)
            alive = alive and latest == wid  # an older attempt's workflow ended; the cancel names that one
    status = backend.query(wid).status
    # was: a sweep point whose attempt had just FAILED was "already ended; nothing to cancel", then resubmitted
    ended = status.terminal() and not alive
    nothing = f"{wid} already ended ({status.value}); nothing to cancel" if ended else None
    return CancelTarget(session, wid, status.value, nothing=nothing)


def cancel(backend: Backend, state_dir: Path, t: CancelTarget, *, via: str, approved_by: str) -> str:
    """The person's cancel, the same record and words from every door (``via``: orchestrate cancel, chat, mcp
    cancel): the session is marked canceled first (audited `cancel session`), so whatever process drives it obeys
    it (a waiting question is withdrawn, nothing more is submitted or fixed) and it ends saying who canceled it,
    how and when; then its live workflow is canceled (audited `cancel`). A workflow no session submitted is only
    canceled. Returns what the person is told."""
    if t.session is None:
        assert t.workflow is not None
        backend.cancel(t.workflow)
        audit(state_dir, "cancel", approved_by=approved_by, workflow=t.workflow, via=via)
        return f"cancel requested for {t.workflow}"
    fields = {"session": t.session, "workflow": t.workflow, "question": t.kind}
    write_mark(
        session_mark_path(state_dir, t.session),
        via=via,
        approved_by=approved_by,
        audited=(state_dir, "cancel session", fields),
    )
    after = "nothing is downloaded or saved" if t.kind in FOLLOW_UP_QUESTIONS else "nothing more is submitted or fixed"
    told = f"session {t.session} canceled: " + (f"its question ({t.kind}) is withdrawn; {after}" if t.kind else after)
    if t.workflow and not t.live and t.kind in FOLLOW_UP_QUESTIONS:  # what was canceled when the workflow is named
        told += f" (its workflow {t.workflow} had already ended; its outputs stay where they are)"
    if t.live and t.workflow:  # by this call, or by the session itself that saw the mark first: one cancel either way
        sent = cancel_once(backend, state_dir, t.workflow, approved_by=approved_by, via=via, session=t.session)
        told += f"\n  cancel requested for {t.workflow}"
        if sent == "resent":
            told += "\n  " + RESENT.format(wid=t.workflow, why=f"session {t.session}")
    return told


# A claim not acknowledged for this long, whose claimer cannot be seen (another host, or a claim from before claims
# said who made them), is taken as lost: a live claimer sends its cancel within seconds.
CLAIM_STALE_SECONDS = 60.0


def _claim_state(claim: Path) -> dict[str, Any]:
    try:
        return dict(json.loads(claim.read_text(encoding="utf-8") or "{}"))
    except (OSError, ValueError):
        return {}


def _claim_lost(claim: Path, seen: dict[str, Any]) -> bool:
    """Whether a claim the scheduler never acknowledged was left by a process that ended before it sent the
    cancel (same host: its pid is gone), or is older than `CLAIM_STALE_SECONDS` with no claimer to look at."""
    import socket

    pid = seen.get("pid")
    if isinstance(pid, int) and seen.get("host") == socket.gethostname():
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        return False
    try:
        import time

        return time.time() - claim.stat().st_mtime > CLAIM_STALE_SECONDS
    except OSError:
        return False


def _write_claim(claim: Path, data: dict[str, Any]) -> None:
    tmp = claim.with_name(claim.name + ".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    tmp.replace(claim)


def _take_over(claim: Path, mine: dict[str, Any]) -> bool:
    """Take over a lost claim, atomically: the look (is it sent? is its claimer gone?) and the write happen under
    one lock, so of two doors that look at the same moment only the first resends; the second then sees a live
    claimer (this process) and leaves it. Without the lock both could read "lost" and both resend.

    The lock is the claim file's own (flock, per open file, so two threads exclude each other too), not a
    `<claim>.lock` beside it that was never removed (one per taken-over claim piled up in the state dir, and
    removing it is unsafe while another door waits on it). The take-over's last step replaces the claim; a door
    that waited on the old file then reads the new one by its path, and sees a live claimer."""
    import fcntl

    try:
        fd = os.open(claim, os.O_RDONLY)
    except FileNotFoundError:  # its maker's cancel failed and withdrew the claim: nothing was lost
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        seen = _claim_state(claim)
        if seen.get("sent") or not _claim_lost(claim, seen):
            return False
        _write_claim(claim, mine)  # taken over: the next one to look sees a live claimer
        return True
    finally:
        os.close(fd)  # releases the lock


def cancel_once(
    backend: Backend,
    state_dir: Path,
    workflow_id: str,
    *,
    approved_by: str,
    via: str,
    session: str | None = None,
    **details: Any,
) -> str | None:
    """The scheduler's cancel of a workflow the person's cancel reached, made and audited once whoever gets there
    first: the door after writing the mark, or the session that saw the mark in between (`sweep.cancel.cancel_own`).
    Both did it before, so one cancel left two `cancel` audit lines. The first to create the workflow's claim file
    cancels and then records that the scheduler took it (``sent``); "sent" when this call did. A cancel the
    scheduler refused leaves no claim (it raises, as before).

    A claim the scheduler never acknowledged, left by a process that died between the claim and the call (a kill,
    a crash), was a lost cancel: the workflow ran on and nobody sent it again. Now whoever comes next — the resumed
    session's monitor, another `orchestrate cancel` — sends it again (a cancel is idempotent on every backend) and
    gets "resent", which it says; the audit line says `resent: true`."""
    import socket

    claim = Path(state_dir) / SESSION_MARKS / WORKFLOW_CLAIMS / workflow_id
    claim.parent.mkdir(parents=True, exist_ok=True)
    mine = {"pid": os.getpid(), "host": socket.gethostname(), "at": datetime.now(UTC).isoformat(timespec="seconds")}
    resent = False
    try:
        fd = os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        if not _take_over(claim, mine):
            return None
        resent = True
    else:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(mine))
    try:
        backend.cancel(workflow_id)
    except BaseException:
        claim.unlink(missing_ok=True)
        raise
    _write_claim(claim, {**mine, "sent": True})
    extra = {"resent": True} if resent else {}
    audit(
        state_dir, "cancel", approved_by=approved_by, session=session, workflow=workflow_id, via=via, **details, **extra
    )
    return "resent" if resent else "sent"


RESENT = (
    # what is known: nobody confirmed it sent, and its maker is gone (a dead pid) or silent past CLAIM_STALE_SECONDS;
    # not that the scheduler never got it (the maker may have died just after sending)
    "the cancel of {wid} ({why}) had been claimed but was never confirmed sent (the process making it ended, or "
    "was not heard from for over a minute): sent again now"
)


def withdrawn(why: str) -> str:
    """What a waiting prompt says when the cancel reaches it: canceled from elsewhere, by whom, and what follows."""
    return (
        f"{why[:1].upper()}{why[1:]} from elsewhere while this question waited: the question is withdrawn; "
        "nothing more is submitted or fixed"
    )
