"""A background monitor (`watch --detach`) has no terminal: its log is the one place it can say a notification
could not be delivered. When the dispatcher's give-up line became debug-level (said once per target by the
command instead), the daemon's log, kept at INFO, said nothing of a dead webhook; now it says it once per target."""

from __future__ import annotations

import logging

import pytest

from runshepherd.notify import Notification, Notifier, fingerprint_of, parse_targets
from runshepherd.watch.daemon import log_notified


def _note(status: str) -> Notification:
    return Notification(
        workflow_id="wf-1",
        status=status,
        previous_status="PENDING",
        label="gpu_oom",
        summary=f"wf-1 {status}",
        fingerprint=fingerprint_of("wf-1", status, "gpu_oom", "CUDA out of memory"),
    )


def test_the_monitors_log_says_a_target_it_could_not_notify(caplog: pytest.LogCaptureFixture) -> None:
    n = Notifier(parse_targets(["http://127.0.0.1:9/hook"]), attempts=2, backoff=0.01)
    for status in ("RUNNING", "FAILED"):
        n.notify(_note(status))
    n.close(timeout=10)
    with caplog.at_level(logging.INFO):
        log_notified(n)
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 1, caplog.text
    assert warned[0].startswith("could not notify http://127.0.0.1:9/hook: 2 notifications were not delivered")
