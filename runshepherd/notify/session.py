"""Notifications from a session (`orchestrate run`/`resume`): its workflow's state changes, diagnoses,
questions waiting for the person, and the end — the same payload and dedup as the watch monitor."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runshepherd.config import Settings
from runshepherd.notify.channels import parse_targets
from runshepherd.notify.dispatch import Notifier
from runshepherd.notify.payload import Notification, fingerprint_of


class SessionNotifier:
    def __init__(self, settings: Settings, session: str) -> None:
        self.session = session
        self.runs_dir = settings.resolved_state_dir() / "runs"
        sent = settings.resolved_state_dir() / "watch" / f"session-{session}.sent"
        self.notifier = Notifier(parse_targets(settings.notify, settings.smtp), sent_path=sent)
        self.workflow_id: str | None = None
        self.status: str | None = None

    def _artifact(self) -> str | None:
        if self.workflow_id is None:
            return None
        path = self.runs_dir / f"{self.workflow_id}-status.md"
        return str(path) if Path(path).is_file() else None

    def _send(self, status: str, label: str | None, summary: str, evidence: str | None, previous: str | None) -> None:
        wid = self.workflow_id or f"session-{self.session}"
        self.notifier.notify(
            Notification(
                workflow_id=wid,
                status=status,
                previous_status=previous,
                label=label,
                summary=f"session {self.session}: {summary}",
                fingerprint=fingerprint_of(wid, status, label, evidence),
                artifact=self._artifact(),
            )
        )

    def on_event(self, ev: dict[str, Any]) -> None:
        kind = ev.get("event")
        if kind == "submitted":
            self.workflow_id, self.status = ev.get("workflow_id"), None
        elif kind == "status":
            to, was = ev.get("to"), ev.get("from")
            self.workflow_id = ev.get("workflow_id") or self.workflow_id
            if to and to != was:
                self.status = to
                label = "completed" if to == "COMPLETED" else None
                self._send(to, label, str(ev.get("text") or to), None, was)
        elif kind == "diagnosis":
            evidence = (ev.get("evidence") or [None])[0]
            label = ev.get("label")
            self._send(
                self.status or "FAILED", label, f"diagnosis {label}: {ev.get('explanation', '')}", evidence, None
            )
        elif kind == "question":
            text = str(ev.get("text") or "")
            self._send(
                self.status or "WAITING",
                "needs_input",
                f"waiting for your answer: {text} — orchestrate resume {self.session} --answer …",
                f"{ev.get('kind')}:{text}",
                None,
            )
        elif kind == "done" and not ev.get("paused"):  # a pause was announced by its question
            outcome = str(ev.get("outcome"))
            reason = ev.get("reason")
            label = "needs_input" if outcome == "NEEDS_INPUT" else "session_done"
            self._send(outcome, label, f"done · {outcome}" + (f" ({reason})" if reason else ""), None, None)

    def close(self) -> None:
        self.notifier.close(timeout=30)
