"""A sweep with no terminal to ask on (--no-input, a pipe) does not do its follow-ups (download, save as app) and
says they were not asked. Before: '? download  Download the outputs … (no terminal to ask on: not done) → no
(pre-answered)': no one had answered, neither --yes nor the config's approval policy."""

from __future__ import annotations

from pathlib import Path

import pytest
from sweep_specs import FAILS_ABOVE_ONE_STEP as SPEC

from runshepherd.cli.main import main


def test_follow_ups_not_asked_are_said_as_not_asked(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "s.yaml").write_text(SPEC)
    assert main(["run", "--spec", "s.yaml", "--sweep", "steps=1", "--no-input", "--session", "swq"]) == 3
    plan = capsys.readouterr().out
    assert "Submit 1 workflow (steps=1)?" in plan and "all 1 run" not in plan, plan  # was 'Submit 1 workflows'
    assert main(["resume", "swq", "--answer", "yes", "--no-input"]) == 0
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if "no terminal to ask on" in ln]
    assert any("Save this spec as app" in ln for ln in lines), out  # its points store no outputs: no download
    assert all("not asked" in ln and "pre-answered" not in ln and "→" not in ln for ln in lines), lines
    assert not (here / "state" / "apps").exists() or not any((here / "state" / "apps").iterdir())  # nothing saved
