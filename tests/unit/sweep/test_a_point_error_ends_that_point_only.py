"""One point's session raising (here: the backend stops answering it) ends that point only: the other points finish,
the comparison is written with the stopped point in it, and `orchestrate resume SWEEP` continues it. Before, the
error ended the whole sweep with no comparison, and in the chat the answers meant for later questions went astray
(CI saw it when a half-written event line broke one point's monitor)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sweep_specs import tinysweep

import runshepherd.sweep.driver as driver
from runshepherd.backends.base import BackendUnavailable
from runshepherd.cli.main import main


def test_a_point_that_raised_is_reported_and_resumed_while_the_others_complete(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (here / "s.yaml").write_text(tinysweep("echo step {{ steps }}"))
    real = driver._drive_point

    def flaky(ctx: Any, p: Any, child: str, *args: Any) -> dict[str, Any]:
        if p.index == 2:
            raise BackendUnavailable("the state directory stopped answering")
        return real(ctx, p, child, *args)

    monkeypatch.setattr(driver, "_drive_point", flaky)
    code = main(["run", "--spec", "s.yaml", "--sweep", "steps=1,2", "--yes", "--session", "swe"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 3, out
    assert (
        "[p2] error: stopped on an error (BackendUnavailable): the state directory stopped answering; its session swe-p2 is kept"
        in out
    )
    assert "[p1] ● status RUNNING → COMPLETED" in out or "[p1] ● status PENDING → COMPLETED" in out, out
    assert "1 of 2 point(s) did not complete: #2" in out and "continue with: orchestrate resume swe" in out, out
    assert (here / "state" / "runs" / "sweep-swe.md").is_file()

    monkeypatch.setattr(driver, "_drive_point", real)
    code = main(["resume", "swe", "--yes"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0, out
    assert "sweep swe done · COMPLETED" in out, out


def test_a_point_that_raised_after_its_workflow_completed_does_not_complete_the_sweep(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its workflow ended COMPLETED but its session stopped before its end (its follow-ups, its record): the sweep says
    so and pauses, never "done · COMPLETED" with exit 0."""
    (here / "s.yaml").write_text(tinysweep("echo step {{ steps }}"))
    real = driver._drive_point

    def raises_after(ctx: Any, p: Any, child: str, *args: Any) -> dict[str, Any]:
        result = real(ctx, p, child, *args)
        if p.index == 1:
            raise OSError("the checkpoint database went away")
        return result

    monkeypatch.setattr(driver, "_drive_point", raises_after)
    code = main(["run", "--spec", "s.yaml", "--sweep", "steps=1,2", "--yes", "--session", "swa"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 3, out
    assert "done · COMPLETED" not in out and "1 of 2 point(s) did not complete: #1 stopped" in out, out
