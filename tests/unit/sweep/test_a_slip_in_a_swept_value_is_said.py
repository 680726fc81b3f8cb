"""A swept value below zero or far beyond any usual run ("--sweep epochs=-1,2") is said in the sweep's plan, before
its question, as `--set` says it. Before: the points were planned and submitted without a word (and `--set
epochs=-1` was planned silently too)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sweep_specs import tinysweep

from runshepherd.cli.main import main

SPEC = tinysweep("echo epochs {{ epochs }}", key="epochs")


def test_a_negative_or_huge_swept_value_is_said_before_the_question(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "s.yaml").write_text(SPEC)
    assert main(["run", "--spec", "s.yaml", "--sweep", "epochs=-1,2,1e9", "--no-input", "--session", "sws"]) == 3
    out = capsys.readouterr().out
    question = out.index("? submit")
    said = out.index("--sweep epochs=-1 looks unintended (below zero)")
    assert said < question, out
    assert out.index("= 1,000,000,000 looks unintended") < question, out
    assert "epochs=2 looks" not in out, out


def test_a_negative_set_value_is_said(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "s.yaml").write_text(SPEC)
    assert main(["run", "--spec", "s.yaml", "--set", "epochs=-1", "--no-input", "--session", "neg"]) == 3
    assert "--set epochs=-1 looks unintended (below zero)" in capsys.readouterr().out
