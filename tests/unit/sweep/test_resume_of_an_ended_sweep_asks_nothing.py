"""`resume SWEEP` (no answer) on a sweep that has ended reports it again and asks nothing: its follow-ups were
offered once, when it ended. Before: they were asked again, and with --yes every point was downloaded a second time,
to a new folder (sweep-S-2/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main

ROOT = Path(__file__).resolve().parents[3]


def test_a_finished_sweep_is_reported_not_followed_up_again(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RUNSHEPHERD_BACKEND", "local")
    spec = str(ROOT / "examples" / "sweep-lr.yaml")
    assert main(["run", "--spec", spec, "--sweep", "lr=0.05", "--yes", "--no-input", "--session", "swd"]) == 0
    first = capsys.readouterr().out
    assert "download" in first and (here / "sweep-swd").is_dir()  # offered (and, with --yes, done) once
    assert main(["resume", "swd", "--yes", "--no-input"]) == 0
    again = capsys.readouterr().out
    assert "sweep swd done · COMPLETED" in again
    assert "its follow-ups were offered when it ended: not asked again" in again
    assert "Download the outputs" not in again and "save_app" not in again, again
    assert sorted(p.name for p in here.iterdir() if p.name.startswith("sweep-")) == ["sweep-swd"]
