"""What one notification carries. The fingerprint is built from facts only (workflow, status, label, evidence
line), never from model text, so the same situation is announced once however it is worded."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from pydantic import BaseModel, Field


def fingerprint_of(workflow_id: str, status: str, label: str | None, evidence: str | None) -> str:
    raw = "\x1f".join([workflow_id, status, label or "", (evidence or "").strip()])
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


class Notification(BaseModel):
    workflow_id: str
    status: str
    previous_status: str | None = None
    label: str | None = Field(None, description="diagnosis or escalation label, e.g. device_assert, underutilized")
    summary: str = ""
    fingerprint: str
    artifact: str | None = None
    at: datetime = Field(default_factory=lambda: datetime.now(UTC))

    def title(self) -> str:
        was = f" (was {self.previous_status})" if self.previous_status else ""
        what = f" — {self.label}" if self.label else ""
        return f"RunShepherd: {self.workflow_id} {self.status}{was}{what}"

    def text(self) -> str:
        lines = [self.title()]
        if self.summary:
            lines.append(self.summary)
        if self.artifact:
            lines.append(f"status: {self.artifact}")
        return "\n".join(lines)
