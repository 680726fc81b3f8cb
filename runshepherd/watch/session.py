"""Build monitors from settings: the backend, the notifier (config `notify:` + `--notify`), the escalations."""

from __future__ import annotations

from typing import Any

from runshepherd.config import Settings
from runshepherd.notify import Notifier, parse_targets
from runshepherd.watch import registry
from runshepherd.watch.monitor import RunMonitor


def notifier_for(settings: Settings, extra: list[str], workflow_id: str) -> Notifier:
    targets = [*settings.notify, *extra]
    sent = (
        registry.watch_dir(settings.resolved_state_dir())
        / f"{registry.record_path(settings.resolved_state_dir(), workflow_id).stem}.sent"
    )
    return Notifier(parse_targets(targets, settings.smtp), sent_path=sent)


def build_monitor(
    settings: Settings, workflow_id: str, *, notify: list[str], cadence: float | None, backend: Any = None
) -> RunMonitor:
    from runshepherd.backends import make_backend
    from runshepherd.watch.escalations import escalations_for

    be = backend if backend is not None else make_backend(settings)
    return RunMonitor(
        be,
        workflow_id,
        settings=settings,
        runs_dir=settings.resolved_state_dir() / "runs",
        notifier=notifier_for(settings, notify, workflow_id),
        cadence=cadence,
        escalate=escalations_for,
    )
