"""On the local backend a sweep ends when its jobs do, not at the next shared poll tick: a status change wakes the
point and reading it costs no scheduler call. Before, a two-point sweep of the 6-second example waited out the
30-second training tick (32 s); with an hour-long tick it would have waited an hour."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.timeout(120)
def test_a_local_sweep_does_not_wait_out_its_poll_tick(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RUNSHEPHERD_BACKEND", "local")
    for key in ("TRAINING", "SHORT", "BACKOFF"):  # a tick no test could wait out
        monkeypatch.setenv(f"RUNSHEPHERD_CADENCE__{key}", "3600")
    spec = str(ROOT / "examples" / "sweep-lr.yaml")
    assert main(["run", "--spec", spec, "--sweep", "lr=0.05,0.1", "--yes", "--no-input", "--session", "fast"]) == 0
    out = capsys.readouterr().out
    assert "sweep fast done · COMPLETED" in out and out.count("COMPLETED (") >= 2, out[-2000:]
