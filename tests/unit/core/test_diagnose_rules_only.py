"""`orchestrate diagnose --log FILE --rules-only` prints the rules' reading alone, without the learned model's disputed
confidence. Each blind split's score reports that column beside the product's; before, it was measured by editing
engine.verdict in a worktree."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from runshepherd.cli.main import main
from runshepherd.diagnosis.learned import DISPUTED

ROOT = Path(__file__).resolve().parents[3]


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_a_disputed_confident_reading_keeps_the_rules_confidence(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dev zz-0009: the rules read host memory at 0.94; the shipped model disputes it."""
    shutil.copy(ROOT / "tests/data/diagnosis_real/logs/zz-0009.log", here / "run.log")
    assert main(["diagnose", "--log", "run.log", "--json"]) == 0
    product = _json(capsys)
    assert main(["diagnose", "--log", "run.log", "--json", "--rules-only"]) == 0
    rules = _json(capsys)
    assert product["label"] == rules["label"] == "host_oom"
    assert product["confidence"] == DISPUTED and float(rules["confidence"]) >= 0.8  # type: ignore[arg-type]
    assert "disputes this reading" not in str(rules["explanation"])


def test_rules_only_is_for_log_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "wf-1", "--rules-only"]) == 2
    assert "--rules-only reads log files" in capsys.readouterr().err
