"""How a sweep is doing: its record (`<state_dir>/sweeps/<sweep>/sweep.json`, written when it starts and again
with the comparison when it ends) and each point's session as checkpointed. Read-only; no backend call."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

RECORD = "sweep.json"


def write_record(state_dir: Path, sid: str, record: dict[str, Any]) -> Path:
    path = state_dir / "sweeps" / sid / RECORD
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, indent=1, default=str), encoding="utf-8")
    tmp.replace(path)
    return path


def read_record(state_dir: Path, sid: str) -> dict[str, Any] | None:
    """The record of sweep ``sid`` (an id, never a path), or None when there is no such sweep."""
    from runshepherd.names import is_id

    path = state_dir / "sweeps" / sid / RECORD
    if not is_id(sid) or not path.is_file():
        return None
    try:
        return _with_cancel(state_dir, dict(json.loads(path.read_text(encoding="utf-8"))))
    except (OSError, ValueError):
        return None


def _with_cancel(state_dir: Path, record: dict[str, Any]) -> dict[str, Any]:
    """The record with the person's cancel (`sweep/cancel.py`'s mark) under ``canceled`` when there is one."""
    from runshepherd.sweep.cancel import canceled

    mark = canceled(state_dir, str(record.get("sweep")))
    return {**record, "canceled": mark} if mark is not None else record


def latest_record(state_dir: Path) -> dict[str, Any] | None:
    """The most recently started sweep of this state dir, or None."""
    paths = sorted((state_dir / "sweeps").glob(f"*/{RECORD}"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in paths:
        try:
            return _with_cancel(state_dir, dict(json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, ValueError):
            continue
    return None


def point_rows(record: dict[str, Any], values_of: Callable[[str], dict[str, Any]]) -> list[dict[str, Any]]:
    """Each point as its session's checkpoint has it: status, workflow, attempt, progress (no backend call)."""
    rows = []
    for p in record.get("points") or []:
        v = values_of(p["session"]) or {}
        waiting = (
            "not started (canceled)"
            if record.get("canceled")
            else "not submitted"
            if record.get("declined")
            else "waiting to start"
        )
        status = (v.get("last_status") or {}).get("status") or (waiting if not v else "submitting")
        if (
            v.get("outcome")
            and v["outcome"] != "COMPLETED"
            and not (
                v["outcome"] == "CANCELED" and status.startswith("FAILED")  # the workflow's own end state says more
            )
        ):
            status = v["outcome"]
        rows.append(
            {
                "index": p["index"],
                "point": p["point"],
                "session": p["session"],
                "status": status,
                "workflow_id": (v.get("attempt") or {}).get("workflow_id"),
                "attempt": (v.get("attempt") or {}).get("n") or 0,
                "progress": v.get("progress_line") if status == "RUNNING" else None,
            }
        )
    return rows


def status_lines(record: dict[str, Any], values_of: Callable[[str], dict[str, Any]]) -> list[str]:
    """One line per point from its session's checkpoint (status, workflow, attempt, progress), then the best."""
    points = record.get("points") or []
    lines: list[str] = []
    counts: dict[str, int] = {}
    for r in point_rows(record, values_of):
        counts[r["status"]] = counts.get(r["status"], 0) + 1
        extra = f" · {r['progress']}" if r["progress"] else ""
        wid = r["workflow_id"] or "not submitted"
        lines.append(f"#{r['index']} {r['point']}: {r['status']}, {wid} (attempt {r['attempt']}){extra}")
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
    head = f"sweep {record.get('sweep')} ({record.get('spec')}): {len(points)} point(s) — {summary or 'none started'}"
    if record.get("declined"):
        head += "\nnot submitted, as you said (its plan was answered no)"
    elif record.get("approved") is False and not record.get("canceled"):
        head += (
            f"\nits plan waits for your answer: orchestrate resume {record.get('sweep')} --answer yes "
            "(no: nothing is submitted)"
        )
    if record.get("canceled"):
        from runshepherd.sweep.cancel import reason

        head += f"\n{reason(record['canceled'])}: final — no point starts, resubmits or is fixed after it"
    tail = []
    if record.get("best"):
        from runshepherd.sweep.results import tied

        b = record["best"]
        fixed = " (it ran with a fix, not with these values)" if b.get("fixed") else ""
        tail.append(f"best: #{b['index']} ({b['point']}) by {b['metric']} = {b['value']:.4g}{tied(b)}{fixed}")
    if record.get("artifact"):
        tail.append(f"comparison: {record['artifact']}")
    return [head, *lines, *tail]
