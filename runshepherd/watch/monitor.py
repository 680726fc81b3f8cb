"""One run's monitor: poll on the cadence policy, rewrite ``runs/<id>-status.md`` each poll, notify on a
state change or a new escalation, stop at a terminal state or when the scheduler's auth is blocked.

The monitor never raises for a transient backend failure (it backs off and tries again); it stops on
``AuthRequired`` (the seed's circuit breaker: one explicit login is needed, retrying cannot help).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from runshepherd import wording
from runshepherd.backends.base import AuthRequired, BackendUnavailable, Status
from runshepherd.config import Settings
from runshepherd.nodes.cadence import interval, is_training
from runshepherd.notify import Notification, Notifier, fingerprint_of
from runshepherd.reports.build import Escalate, Snapshot, snapshot
from runshepherd.reports.status import StatusReport

Listener = Callable[["Observation"], None]


@dataclass
class Observation:
    """What one poll established (what a listener prints, what a notification carries)."""

    workflow_id: str
    status: str
    previous_status: str | None
    label: str | None
    summary: str
    artifact: str | None
    evidence: str | None = None
    escalations: list[str] = field(default_factory=list)
    terminal: bool = False
    auth_blocked: str | None = None
    changed: bool = False
    markdown: str = ""
    progress: str | None = None
    report: StatusReport | None = None  # the same report, for a terminal to print as text (not Markdown)


def _label_and_evidence(snap: Snapshot) -> tuple[str | None, str | None]:
    if snap.diagnosis is not None:
        ev = snap.diagnosis.evidence[0] if snap.diagnosis.evidence else None
        return str(snap.diagnosis.label), ev
    if snap.ws.status is Status.COMPLETED:
        return "completed", None
    if snap.ws.status is Status.FAILED_CANCELED:  # the person's word, not a failure with a diagnosis
        return "canceled", snap.ws.failure_message
    if snap.ws.status.failed():
        return "unknown", snap.ws.failure_message
    return None, None


def _summary(snap: Snapshot, label: str | None) -> str:
    r = snap.report
    bits = [f"{r.workflow_id} is {r.status} ({r.state})"]
    if label and label not in ("completed",):
        bits.append(f"diagnosis: {label}")
    if r.next_step:
        bits.append(r.next_step)
    elif r.progress:
        bits.append(f"progress: {r.progress}")
    if r.risk and r.risk != "none seen":
        bits.append(f"risk: {r.risk}")
    from runshepherd.logs import redact

    return redact(wording.sentences(bits))[0][:1000]  # one period between parts, never "change.). risk"


class RunMonitor:
    """Watches one workflow id on one backend."""

    def __init__(
        self,
        backend: Any,
        workflow_id: str,
        *,
        settings: Settings,
        runs_dir: Path,
        notifier: Notifier | None = None,
        cadence: float | None = None,
        escalate: Escalate | None = None,
    ) -> None:
        self.backend = backend
        self.workflow_id = workflow_id
        self.settings = settings
        self.runs_dir = runs_dir
        self.notifier = notifier
        self.cadence = cadence
        self.escalate = escalate
        self.last_status: str | None = None
        self.announced: set[str] = set()  # labels of escalations already raised
        self.unchanged_polls = 0
        self.training: bool | None = None
        self.done = False
        self.auth_blocked: str | None = None

    def poll(self) -> Observation:
        """One look; never blocks on notification delivery."""
        try:
            snap = snapshot(
                self.backend, self.workflow_id, runs_dir=self.runs_dir, settings=self.settings, escalate=self.escalate
            )
        except AuthRequired as exc:
            self.done = True
            return self._auth_blocked(str(exc))
        if self.training is None:
            try:
                self.training = is_training(self.backend.spec(self.workflow_id))
            except Exception:  # a foreign job may have no spec: the short cadence is the safe default
                self.training = False
        label, evidence = _label_and_evidence(snap)
        escalations = [(e.label, e.evidence) for e in snap.report.escalations]
        status = snap.ws.status.value
        previous = self.last_status
        changed = status != previous
        self.unchanged_polls = 0 if changed else self.unchanged_polls + 1
        obs = Observation(
            workflow_id=self.workflow_id,
            status=status,
            previous_status=previous,
            label=label,
            summary=_summary(snap, label),
            artifact=snap.report.artifact,
            evidence=evidence,
            escalations=[name for name, _ in escalations],
            terminal=snap.ws.status.terminal(),
            changed=changed,
            markdown=_markdown(snap),
            progress=snap.report.progress,
            report=snap.report,
        )
        # The first look at a live run is not news; a change, a terminal state or a new escalation is.
        if changed and (previous is not None or obs.terminal):
            self._send(obs, label, evidence)
        for name, line in escalations if not obs.terminal else []:  # the terminal notification covers the end
            if name not in self.announced:
                self.announced.add(name)
                self._send(obs, name, line, summary=wording.sentences([obs.summary, f"escalation {name}: {line}"]))
        self.last_status = status
        self.done = obs.terminal
        return obs

    def next_wait(self) -> float:
        return interval(
            self.settings.cadence,
            training=bool(self.training),
            unchanged_polls=self.unchanged_polls,
            override=self.cadence,
        )

    def _send(self, obs: Observation, label: str | None, evidence: str | None, summary: str | None = None) -> None:
        if self.notifier is None:
            return
        self.notifier.notify(
            Notification(
                workflow_id=obs.workflow_id,
                status=obs.status,
                previous_status=obs.previous_status,
                label=label,
                summary=summary or obs.summary,
                fingerprint=fingerprint_of(obs.workflow_id, obs.status, label, evidence),
                artifact=obs.artifact,
            )
        )

    def _auth_blocked(self, message: str) -> Observation:
        self.auth_blocked = message
        path = self.runs_dir / f"{self.workflow_id}-status.md"
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        note = (
            f"Monitoring stopped: scheduler authentication is blocked ({message.rstrip(' .')}). "
            "Log in once, then run `orchestrate watch` again."
        )
        previous = path.read_text(encoding="utf-8") if path.is_file() else ""
        body = previous.split("\n", 1)[1] if previous.startswith("<!--") else previous
        path.write_text(f"<!-- written {stamp} by RunShepherd -->\n**AUTH BLOCKED** — {note}\n\n{body}", "utf-8")
        status = self.last_status or "unknown"
        obs = Observation(
            workflow_id=self.workflow_id,
            status=status,
            previous_status=self.last_status,
            label="auth_blocked",
            summary=note,
            artifact=str(path),
            auth_blocked=message,
            changed=True,
            markdown=note,
        )
        self._send(obs, "auth_blocked", message)
        return obs


def _markdown(snap: Snapshot) -> str:
    from runshepherd.reports.status import render_markdown

    return render_markdown(snap.report)


def watch_all(
    monitors: list[RunMonitor],
    *,
    stop: threading.Event | None = None,
    on_observation: Listener | None = None,
    on_error: Callable[[RunMonitor, Exception], None] | None = None,
    sleep: Callable[[float], bool] | None = None,
) -> None:
    """Poll every monitor when due until all are done (or ``stop`` is set). Transient backend errors back off."""
    import time

    stop = stop or threading.Event()
    wait = sleep or stop.wait
    due = {id(m): 0.0 for m in monitors}
    failures = {id(m): 0 for m in monitors}
    while not stop.is_set():
        live = [m for m in monitors if not m.done]
        if not live:
            return
        now = time.monotonic()
        for m in live:
            if due[id(m)] > now:
                continue
            try:
                obs = m.poll()
                failures[id(m)] = 0
                due[id(m)] = time.monotonic() + m.next_wait()
                if on_observation is not None:
                    on_observation(obs)
            except BackendUnavailable as exc:  # unreachable, busy: retry later, never a verdict on the run
                failures[id(m)] += 1
                due[id(m)] = time.monotonic() + min(300.0, 5.0 * 2 ** min(failures[id(m)], 6))
                if on_error is not None:
                    on_error(m, exc)
        if all(m.done for m in monitors):
            return
        upcoming = min(due[id(m)] for m in monitors if not m.done)
        left = max(0.05, upcoming - time.monotonic())
        alone = [m for m in monitors if not m.done]
        if sleep is None and len(alone) == 1 and callable(getattr(alone[0].backend, "wait_for_change", None)):
            # One run: the backend wakes us early when its files change (local, Slurm), in short slices so a
            # stop request is honoured promptly.
            m = alone[0]
            try:
                if m.backend.wait_for_change(m.workflow_id, min(left, 1.0)):
                    due[id(m)] = time.monotonic()
            except Exception as exc:  # a wait that fails is only a missed early wake-up; the cadence still holds
                if on_error is not None:
                    on_error(m, exc)
                wait(min(left, 1.0))
        else:
            wait(left)
