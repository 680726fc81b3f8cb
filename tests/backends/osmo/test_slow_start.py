"""A slow-starting `osmo` (a Python program logging in, a server slow to answer) is not an empty log.

The idle gap that ends a live stream counted from the moment the CLI was started, so a CLI that took longer than
`idle_timeout` to print its first line was read as a task with no log at all."""

from __future__ import annotations

import time
from pathlib import Path

from runshepherd.backends.osmo.runner import OsmoCli


def _slow_live_stream(tmp_path: Path, start_delay: float) -> Path:
    fake = tmp_path / "osmo"
    fake.write_text(
        "#!/bin/sh\n"
        f"sleep {start_delay}\n"
        "echo 'Workflow w has logs:'\n"
        "echo '2026/12/02 02:00:00 [train] epoch 1 loss 0.42'\n"
        "exec sleep 30\n"  # a live task: the stream never ends by itself
    )
    fake.chmod(0o755)
    return fake


def test_a_stream_whose_first_line_comes_after_the_idle_gap_is_still_read(tmp_path: Path) -> None:
    cli = OsmoCli(executable=str(_slow_live_stream(tmp_path, 1.5)))
    began = time.monotonic()
    res = cli.capture(["workflow", "logs", "w"], timeout=8, idle=0.5)
    assert res.lines == ["Workflow w has logs:", "2026/12/02 02:00:00 [train] epoch 1 loss 0.42"]
    assert time.monotonic() - began < 6  # the idle gap still ends the live stream once it has spoken


def test_a_whole_log_spool_waits_for_a_slow_first_line(tmp_path: Path) -> None:
    cli = OsmoCli(executable=str(_slow_live_stream(tmp_path, 1.5)))
    dest = tmp_path / "whole.log"
    got = cli.spool(["workflow", "logs", "w"], str(dest), timeout=8, idle=0.5, max_bytes=1 << 20)
    assert got.cap_reason is None
    assert "epoch 1 loss 0.42" in dest.read_text()


def test_a_stream_that_never_speaks_still_ends_at_the_callers_deadline(tmp_path: Path) -> None:
    fake = tmp_path / "osmo"
    fake.write_text("#!/bin/sh\nexec sleep 30\n")
    fake.chmod(0o755)
    began = time.monotonic()
    res = OsmoCli(executable=str(fake)).capture(["workflow", "logs", "w"], timeout=2, idle=0.5)
    assert res.lines == [] and res.timed_out
    assert time.monotonic() - began < 10
