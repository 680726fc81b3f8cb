"""`resume SWEEP --answer yes` on a sweep the person canceled at its plan question: exit 2 saying who canceled it
and when, the question, and that the answer was not applied; nothing submitted, the plan not shown again (as for a
session canceled at its question). Before: exit 1 "done · CANCELED" after the plan lines, the answer never named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sweep_specs import tinysweep

from runshepherd.cli.main import main

SPEC = tinysweep("echo {{ steps }}")


def test_an_answer_to_a_sweep_canceled_at_its_plan_is_refused_saying_so(
    tmp_path: Path, here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "s.yaml").write_text(SPEC)
    run = ["run", "--spec", "s.yaml", "--sweep", "steps=1,2", "--no-input", "--session", "swq"]
    assert main(run) == 3  # paused at its plan
    assert main(["cancel", "swq", "--yes"]) == 0
    capsys.readouterr()
    assert main(["resume", "swq", "--answer", "yes", "--json"]) == 2
    got = capsys.readouterr()
    said = " ".join(got.err.split())
    assert "error: sweep swq was canceled by you (orchestrate cancel, 20" in said, said
    assert "while it waited at its question (submit: Submit 2 workflows" in said
    assert "--answer yes was not applied; the sweep ended CANCELED" in said
    events = [json.loads(line) for line in got.out.splitlines() if line.startswith("{")]
    assert [e["event"] for e in events] == ["done"] and events[0]["outcome"] == "CANCELED"  # no plan reprinted
    assert not (tmp_path / "state" / "workflows").exists() or not any((tmp_path / "state" / "workflows").iterdir())
