"""A sweep whose point gave up (no fix allowed, nothing to ask) has ended: it says so and exits 1, as a session that
gave up does (§13.2). Before: "a point waits for your answer; continue with: orchestrate resume S" and exit 3,
though no question waited (mend28a's finding). A point left at a question still pauses the sweep (exit 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sweep_specs import FAILS_ABOVE_ONE_STEP as SPEC

from runshepherd.cli.main import main


def test_a_sweep_whose_point_gave_up_ends_without_a_resume_line(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "s.yaml").write_text(SPEC)
    code = main(["run", "--spec", "s.yaml", "--sweep", "steps=1,2", "--yes", "--max-fixes", "0", "--session", "swg"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 1, out
    assert "sweep swg done · NEEDS_INPUT (1 of 2 point(s) did not complete: #2 FAILED)" in out, out
    assert "waits for your answer" not in out and "orchestrate resume swg" not in out, out


def test_a_sweep_whose_point_waits_at_a_question_still_pauses(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "s.yaml").write_text(SPEC)
    # the plan approved on the command line, the failed point's question left for later: paused, exit 3
    main(["run", "--spec", "s.yaml", "--sweep", "steps=1,2", "--no-input", "--session", "swq"])
    capsys.readouterr()
    code = main(["resume", "swq", "--answer", "yes", "--no-input"])
    out = " ".join(capsys.readouterr().out.split())
    assert code == 3, out
    assert "orchestrate resume swq --answer" in out, out
