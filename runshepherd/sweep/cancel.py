"""The person's cancel of a whole sweep, final like a single run's: a mark in the sweep's folder
(`<state_dir>/sweeps/<sweep>/canceled.json`) written first, then every live point's workflow canceled now.

The mark is what the points obey, in whatever process drives them (a foreground sweep in another terminal, a
detached one, the chat): a point that has not started never starts, none submits or resubmits, none applies a fix,
and a workflow submitted in the instant before the mark is canceled by its own point at its next poll. Shared by
`orchestrate cancel SWEEP`, the chat and the MCP `cancel` tool: one way to cancel a sweep."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runshepherd.backends.base import Status
from runshepherd.cancel_mark import (
    RESENT,
    cancel_once,
    read_mark,
    reason,
    session_halted,
    session_mark_path,
    write_mark,
)

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.backends.base import Backend

MARK = "canceled.json"


def canceled(state_dir: Path, sid: str) -> dict[str, Any] | None:
    """The sweep's cancel mark ({at, via, approved_by}), or None while it was not canceled."""
    return read_mark(state_dir / "sweeps" / sid / MARK)


def halted(state_dir: Path, sid: str, session: str | None = None) -> Callable[[], str | None]:
    """What a point asks before it submits, resubmits, applies a fix, asks or keeps a workflow running: why the
    person canceled the sweep ("the sweep was canceled by you (…)"), or the point's own session, or None."""
    own = session_halted(state_dir, session) if session is not None else None

    def check() -> str | None:
        mark = canceled(state_dir, sid)
        if mark is not None:
            return f"the sweep was {reason(mark)}"
        return own() if own is not None else None

    return check


def refusal(state_dir: Path, record: dict[str, Any], values_of: Callable[[str], dict[str, Any]]) -> str | None:
    """Why there is nothing to cancel (already canceled, already ended), or None when the sweep can be canceled.
    A sweep paused on a point's question is not ended: canceling it means that point is never continued."""
    sid = str(record["sweep"])
    if canceled(state_dir, sid) is not None:
        return f"sweep {sid} was already canceled; nothing to cancel"
    points = record.get("points") or []
    if record.get("results") is not None and all(
        (values_of(p["session"]).get("outcome") or "NEEDS_INPUT") != "NEEDS_INPUT" for p in points
    ):
        return f"sweep {sid} already ended; nothing to cancel"
    return None


def question(record: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """The confirmation asked before a sweep is canceled (the terminal and the chat ask the same)."""
    shown = ", ".join(f"#{r['index']} {r['status']}" for r in rows)
    return f"Cancel sweep {record['sweep']} ({len(rows)} point(s): {shown})? This is final."


@dataclass
class PointCancel:
    index: int
    point: str
    session: str
    workflow_id: str | None
    status: str  # the workflow's status when the cancel came ("not submitted" when it had none)
    canceled: bool  # this cancel asked the scheduler to cancel it


def cancel_sweep(
    backend: Backend,
    state_dir: Path,
    record: dict[str, Any],
    values_of: Callable[[str], dict[str, Any]],
    *,
    via: str,
    approved_by: str,
) -> list[PointCancel]:
    """Mark the sweep canceled, then cancel every point's live workflow (each audited). Idempotent."""
    sid = str(record["sweep"])
    before: list[tuple[dict[str, Any], str | None, str]] = []
    for p in record.get("points") or []:  # read first: once marked, a point may cancel its own workflow
        attempt = (values_of(p["session"]) or {}).get("attempt") or {}
        key = attempt.get("idempotency_key")
        # a workflow just submitted is in no checkpoint yet: the scheduler finds it by the attempt's key
        wid = attempt.get("workflow_id") or (backend.find_by_key(key) if key else None)
        before.append((p, wid, backend.query(wid).status.value if wid else "not submitted"))
    mark = state_dir / "sweeps" / sid / MARK
    write_mark(mark, via=via, approved_by=approved_by, audited=(state_dir, "cancel sweep", {"session": sid}))
    out: list[PointCancel] = []
    for p, wid, status in before:
        live = wid is not None and not Status(status).terminal()
        if wid is not None and live and not backend.query(wid).status.terminal():  # else its point already did
            cancel_once(backend, state_dir, wid, approved_by=approved_by, via=via, session=p["session"], sweep=sid)
        out.append(PointCancel(p["index"], p["point"], p["session"], wid, status, live))
    return out


def cancel_own(
    backend: Backend, state_dir: Path, session: str, workflow_id: str, why: str, sweep: str | None = None
) -> str | None:
    """A session cancels the workflow it submitted when it sees the person's cancel of its sweep or of itself
    (``why`` says which) before the door does (a workflow submitted in the instant before the mark, or a door still
    on its way): one cancel and one audit line between them (`cancel_once`), recorded as the door would (who, via
    which door, from the mark). One the cancel already reached (the shared poll may not show it yet) is left alone.
    Returns what to say when it sent again a cancel a dead process had claimed and never sent, else None."""
    if backend.query(workflow_id).status.terminal():
        return None
    swept = canceled(state_dir, sweep) if sweep else None
    mark = swept or read_mark(session_mark_path(state_dir, session)) or {}
    sent = cancel_once(
        backend,
        state_dir,
        workflow_id,
        approved_by=str(mark.get("approved_by") or "person (their cancel)"),
        via=str(mark.get("via") or why),
        session=session,
        **({"sweep": sweep} if swept else {}),
    )
    return RESENT.format(wid=workflow_id, why=why) if sent == "resent" else None


def summary(points: list[PointCancel]) -> dict[str, Any]:
    return {"points": [asdict(p) for p in points], "canceled_workflows": sum(p.canceled for p in points)}


def told(sid: str, points: list[PointCancel]) -> list[str]:
    """What the person is told after the cancel: each point's workflow and what was done to it."""
    n = sum(p.canceled for p in points)
    lines = [f"● sweep {sid} canceled: cancel requested for {n} running workflow(s)"]
    for p in points:
        did = "cancel requested" if p.canceled else f"left as it is ({p.status})"
        lines.append(f"  #{p.index} {p.point}: {p.workflow_id or 'nothing submitted'} — {did}")
    lines.append("  points not yet started never start; nothing is resubmitted or fixed")
    return lines
