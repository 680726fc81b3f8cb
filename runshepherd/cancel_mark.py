"""The person's cancel as a mark file, written before anything else and obeyed by whatever process drives the
session (a terminal in another window, a detached run, a resume later): final, never undone.

A sweep's mark is `<state_dir>/sweeps/<sweep>/canceled.json` (`sweep/cancel.py`); a session's, written by
`orchestrate cancel SESSION` while the session waits at a question that would act (submit, resubmit, a fix, wait
or cancel a pending workflow), is `<state_dir>/canceled/<session>.json`. `Deps.halted` reads them: the waiting
prompt withdraws its question, and no node submits, resubmits, applies a fix or asks again."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runshepherd.audit import record as audit

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.backends.base import Backend

SESSION_MARKS = "canceled"
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


def write_mark(path: Path, *, via: str, approved_by: str) -> bool:
    """Write the mark atomically unless one is there; True when this call wrote it."""
    if path.exists():
        return False
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


def cancel_waiting_session(
    backend: Backend,
    state_dir: Path,
    session: str,
    kind: str | None,
    *,
    via: str,
    approved_by: str,
    workflow: str | None = None,
    live: bool = False,
) -> str:
    """Mark a session waiting at question ``kind`` (None: one whose workflow runs, canceled in the chat that drives
    it) canceled (audited `cancel session`), then cancel its ``live``
    workflow (audited `cancel`): its question is withdrawn wherever it waits, and nothing more is submitted or
    fixed. One way for `orchestrate cancel SESSION|WF`, the chat and the MCP `cancel` tool (`graph/waiting.py` finds
    the session); returns what the person is told."""
    if write_mark(session_mark_path(state_dir, session), via=via, approved_by=approved_by):
        audit(
            state_dir,
            "cancel session",
            approved_by=approved_by,
            session=session,
            workflow=workflow,
            via=via,
            question=kind,
        )
    after = "nothing is downloaded or saved" if kind in FOLLOW_UP_QUESTIONS else "nothing more is submitted or fixed"
    told = f"session {session} canceled: " + (f"its question ({kind}) is withdrawn; {after}" if kind else after)
    if workflow and not live and kind in FOLLOW_UP_QUESTIONS:  # what was canceled when the workflow is named
        told += f" (its workflow {workflow} had already ended; its outputs stay where they are)"
    if live and workflow:
        backend.cancel(workflow)
        audit(state_dir, "cancel", approved_by=approved_by, session=session, workflow=workflow, via=via)
        told += f"\n  cancel requested for {workflow}"
    return told


def withdrawn(why: str) -> str:
    """What a waiting prompt says when the cancel reaches it: canceled from elsewhere, by whom, and what follows."""
    return (
        f"{why[:1].upper()}{why[1:]} from elsewhere while this question waited: the question is withdrawn; "
        "nothing more is submitted or fixed"
    )
