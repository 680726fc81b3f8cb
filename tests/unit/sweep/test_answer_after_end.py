"""`resume SWEEP --answer A` on a sweep that has already ended: exit 2 saying how it ended (its outcome and why),
that there is no question so A was not used, and what to do instead (`status SWEEP`, a new sweep) — as for an
ended session (architecture §13.2). Before: "sweep S is not waiting for an answer; run `orchestrate resume S`"
(which only replays the ended sweep), and after the plan was answered no, exit 0 with A dropped without a word."""

from __future__ import annotations

from pathlib import Path

import pytest
from sweep_specs import FAILS_ABOVE_ONE_STEP as SPEC

from runshepherd.cli.main import main


def _refused(capsys: pytest.CaptureFixture[str], sid: str) -> str:
    capsys.readouterr()
    assert main(["resume", sid, "--answer", "yes"]) == 2
    got = capsys.readouterr()
    said = " ".join(got.err.split())
    assert "not waiting for an answer" not in said and "--answer yes was not used" in said, said
    assert f"`orchestrate status {sid}` shows its points" in said and "start a new sweep" in said
    assert "plan" not in got.out  # nothing replayed, nothing run
    return said


def test_an_answer_to_an_ended_sweep_says_how_it_ended(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "s.yaml").write_text(SPEC)
    assert main(["run", "--spec", "s.yaml", "--sweep", "steps=1", "--yes", "--session", "swok"]) == 0
    said = _refused(capsys, "swok")
    assert "error: sweep swok has already ended: COMPLETED. There is no question to answer" in said
    assert "its comparison (" in said

    # point #2 gives up (no fix allowed): it asks nothing more, so the sweep has ended though its outcome says
    # the person's input is needed (as a session that gave up says)
    main(["run", "--spec", "s.yaml", "--sweep", "steps=1,2", "--yes", "--max-fixes", "0", "--session", "swf"])
    said = _refused(capsys, "swf")
    assert "sweep swf has already ended: NEEDS_INPUT — 1 of 2 point(s) did not complete: #2 FAILED" in said, said


def test_an_answer_after_the_plan_was_answered_no_is_refused(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "s.yaml").write_text(SPEC)
    assert main(["run", "--spec", "s.yaml", "--sweep", "steps=1,2", "--no-input", "--session", "swn"]) == 3
    assert main(["resume", "swn", "--answer", "no"]) == 0
    said = _refused(capsys, "swn")
    assert "sweep swn has already ended: not submitted, as you said" in said
    assert not (here / "state" / "workflows").exists() or not any((here / "state" / "workflows").iterdir())
