"""A resource said with decimals is planned as said. Before: "with 1.5Gi memory and 2.5 cpus" planned memory=5Gi
and cpus=5 (the pattern took the digits after the point), more than was asked and more than the machine has; and a
plan of 128Gi read "memory 1.3e+02Gi" (rounded, in exponent notation)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_decimal_memory_and_cpus_are_planned_as_said(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "train a small classifier with 1.5Gi memory and 2.5 cpus", "--json"]) == 0
    spec = json.loads(capsys.readouterr().out)["spec"]
    assert "cpu: 2.5" in spec and "memory: 1.5Gi" in spec, spec


def test_the_plan_shows_large_amounts_as_numbers(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    main(["run", "train a small classifier with 128Gi memory on 1000000 GPUs", "--no-input"])
    out = capsys.readouterr()
    said = " ".join((out.out + out.err).split())
    assert "(1 task, cpu 1, memory 128Gi, gpu 1000000)" in said, said
    assert "e+0" not in said
