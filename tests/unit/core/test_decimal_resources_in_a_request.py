"""A resource said with decimals is planned as said. Before: "with 1.5Gi memory and 2.5 cpus" planned memory=5Gi
and cpus=5 (the pattern took the digits after the point), more than was asked and more than the machine has;."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_decimal_memory_and_cpus_are_planned_as_said(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "train a small classifier with 1.5Gi memory and 2.5 cpus", "--json"]) == 0
    spec = json.loads(capsys.readouterr().out)["spec"]
    assert "cpu: 2.5" in spec and "memory: 1.5Gi" in spec, spec
