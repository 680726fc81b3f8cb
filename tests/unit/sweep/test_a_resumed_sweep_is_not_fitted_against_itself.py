"""`resume SWEEP` once its points were submitted does not judge whether the sweep fits the pool now: what is free
counts the sweep's own running points. Before, after a kill -9 mid-sweep, `resume S` printed 'warning: all 2 run at
once; fits the pool now: no — not one point fits what is free in pool local (0 CPUs, …); they wait in the queue'
while both points ran (and then completed) — the CPUs were the sweep's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from sweep_specs import FAILS_ABOVE_ONE_STEP as SPEC

from runshepherd.cli.main import main


def test_a_started_sweep_is_resumed_without_a_fit_verdict(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "s.yaml").write_text(SPEC)
    assert main(["run", "--spec", "s.yaml", "--sweep", "steps=1,2", "--no-input", "--session", "swr"]) == 3
    assert "fits the pool now" in capsys.readouterr().out  # the plan, before anything is submitted
    main(["resume", "swr", "--answer", "yes", "--no-input"])  # point #2 fails: its fix waits (or it gives up)
    capsys.readouterr()
    main(["resume", "swr", "--no-input"])
    out = capsys.readouterr().out
    assert "resuming sweep swr: its plan was approved before" in out, out
    assert "fits the pool now" not in out, out
