"""The audit log: one JSON line per side effect (submit, resubmit, cancel, download, app create) in
``<state_dir>/audit.jsonl``, with when, which session and workflow, what, and who approved it.

`approved_by` is "person" (answered a question or ran the command), "--yes" (pre-authorised on the command line),
or "policy: …" (the config's approval policy, or an automatic infrastructure retry). Lines are redacted and
appended with one write, so concurrent writers never interleave inside a line.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from runshepherd.jsonlines import append_line, complete_lines

AUDIT_FILE = "audit.jsonl"


def audit_path(state_dir: Path) -> Path:
    return Path(state_dir) / AUDIT_FILE


def record(
    state_dir: Path,
    what: str,
    *,
    approved_by: str,
    session: str | None = None,
    workflow: str | None = None,
    **details: Any,
) -> None:
    from runshepherd.logs import redact

    entry = {
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
        "session": session,
        "workflow": workflow,
        "what": what,
        "approved_by": approved_by,
        **details,
    }
    line = redact(json.dumps(entry, default=str, ensure_ascii=False))[0]
    path = audit_path(state_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    append_line(path, line, mode=0o600)


def read(state_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in complete_lines(audit_path(state_dir))]


def canceled_by(state_dir: Path, workflow_id: str) -> str | None:
    """Who canceled ``workflow_id``, how and when, from the last cancel recorded here ("by you (chat, TIME)"), or
    None when no cancel of it is recorded (never guessed). One wording for `diagnose`, `status` and a session's
    end."""
    try:
        entries = read(state_dir)
    except (OSError, ValueError):  # an unreadable audit log: say nothing about who canceled it
        return None
    mine = [e for e in entries if e.get("what") == "cancel" and e.get("workflow") == workflow_id]
    if not mine:
        return None
    e = mine[-1]
    approved = str(e.get("approved_by") or "")
    who = "by you" if approved.startswith(("person", "--yes")) else f"by RunShepherd ({approved})"
    how = e.get("via") or (f"session {e['session']}" if e.get("session") else None)
    detail = ", ".join(str(x) for x in (how, e.get("reason"), e.get("time")) if x)
    return who + (f" ({detail})" if detail else "")
