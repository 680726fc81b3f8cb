"""A background monitor's record holds its notify targets, and a webhook URL carries its token (`?token=…`, Slack's
path): the record is readable by its owner only. Before: 0644, so anyone who could read the state dir on a shared
login node could read the webhook."""

from __future__ import annotations

import stat
from datetime import UTC, datetime
from pathlib import Path

from runshepherd.watch import registry


def test_the_monitor_record_with_a_webhook_token_is_owner_only(tmp_path: Path) -> None:
    hook = "https://hooks.example.com/hook?token=abcdef123456"
    rec = registry.WatchRecord(
        workflow_id="tiny-1", backend="local", pid=1, started_at=datetime.now(UTC), notify=[hook]
    )
    registry.write(tmp_path, rec)
    registry.update(tmp_path, "tiny-1", status="RUNNING")
    path = registry.record_path(tmp_path, "tiny-1")
    assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, oct(path.stat().st_mode)
    again = registry.read(tmp_path, "tiny-1")
    assert again is not None and again.notify == [hook] and again.status == "RUNNING"
