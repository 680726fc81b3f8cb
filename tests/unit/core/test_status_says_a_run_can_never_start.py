"""`status` of a queued run no machine of its pool can ever hold says so, as the session graph does at once
(fresh27's finding: "Risk: none seen" until the watch's 600 s queue escalation)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_status_of_a_run_asking_for_gpus_the_machine_lacks_names_the_risk(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["submit", str(EXAMPLES / "fail-gpu.yaml"), "--json"]) == 0  # 2 GPUs on a machine with none
    wid = json.loads(capsys.readouterr().out)["workflow_id"]
    try:
        assert main(["status", wid]) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert "Risk: No single machine in pool local can ever hold this task: it asks for 2 GPUs" in out, out
        assert "none seen" not in out
    finally:
        main(["cancel", wid, "--yes"])


def test_a_run_that_fits_says_no_such_risk(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["submit", str(EXAMPLES / "train-classifier.yaml"), "--json"]) == 0  # 1 CPU: fits
    wid = json.loads(capsys.readouterr().out)["workflow_id"]
    try:
        assert main(["status", wid]) == 0
        assert "can ever hold" not in capsys.readouterr().out
    finally:
        main(["cancel", wid, "--yes"])
