"""What the plan calls a path or script the request names that is not on this machine.

Before: "evaluate ./model.pt" asked about "data path ./model.pt" (a checkpoint is no data), and "python train.py
--epochs 2" with no train.py here drafted a workflow named "python" (the launcher, not the script)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def _draft(request: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["draft", request, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


@pytest.mark.parametrize("weights", ["./model.pt", "./ckpt/best.safetensors", "/models/last.ckpt"])
def test_missing_weights_are_called_a_checkpoint(weights: str, here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = json.dumps(_draft(f"evaluate {weights} on ./data.csv", capsys))
    assert f"checkpoint {weights} (not found on this machine)" in said, said
    assert f"data path {weights}" not in said
    assert "data path ./data.csv (not found on this machine)" in said


def test_a_missing_script_names_the_workflow_not_its_launcher(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _draft("python train.py --epochs 2", capsys)
    assert doc["name"] == "train"
    assert "script train.py" in json.dumps(doc)
