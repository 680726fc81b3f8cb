"""`sessions` in an 80-column terminal keeps the Workflow column when a session was stopped by the person.

Before: "stopped by you" (14 characters) left no room beside a workflow id, the updated time and the request, so the
Workflow column was dropped for every row; the State column's short form ("you said no") is taken first now."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_a_declined_session_leaves_room_for_the_workflow(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RUNSHEPHERD_BACKEND", "local")
    request = "train a small classifier for 1 epoch"
    assert main(["run", request, "--yes", "--no-input", "--session", "done1"]) == 0
    assert main(["run", request, "--no-input", "--session", "said-no"]) == 3
    assert main(["resume", "said-no", "--answer", "no"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["sessions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["Session", "State", "Workflow", "Updated"], lines
    assert all(len(line) <= 80 for line in lines), lines
    [done] = [line for line in lines if line.startswith("done1 ")]
    [declined] = [line for line in lines if line.startswith("said-no ")]
    assert "train-classifier-1" in done and "you said no" in declined, lines
    monkeypatch.setenv("COLUMNS", "120")
    assert main(["sessions"]) == 0
    assert "stopped by you" in capsys.readouterr().out  # said in full where it fits


LONG_NAME_SPEC = """\
workflow:
  name: sentiment-analysis-experiment
  resources:
    default: {cpu: 0.25, memory: 128Mi}
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo done"]
"""


def test_a_long_workflow_id_is_kept_and_the_time_gives_way(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: a workflow id over ~18 characters dropped the Workflow column at 80 columns (the updated time stayed);
    the workflow is what `status`, `logs` and `watch` take, so the time gives way first now."""
    monkeypatch.setenv("RUNSHEPHERD_BACKEND", "local")
    (here / "spec.yaml").write_text(LONG_NAME_SPEC)
    assert main(["run", "--spec", "spec.yaml", "--yes", "--no-input", "--session", "long1"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["sessions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["Session", "State", "Workflow"], lines
    assert all(len(line) <= 80 for line in lines), lines
    assert "sentiment-analysis-experiment-1" in lines[1], lines
    monkeypatch.setenv("COLUMNS", "60")  # no room for the workflow: it drops alone, the time comes back
    assert main(["sessions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["Session", "State", "Updated"], lines
