"""`resume SWEEP` while another process drives the sweep (a `resume` in another terminal, or in the background):
exit 2 naming who drives it and what to do, before anything is shown or run. Before: `resume S --answer yes` said
"sweep S is not waiting for an answer; run `orchestrate resume S`", and that command printed the sweep's plan again
("fits the pool now: no — not one point fits …", the other process's points counted) and then refused with
"session S-p1 is being driven …; stop it and run `orchestrate resume S-p1`": a point, not the sweep."""

from __future__ import annotations

from pathlib import Path

import pytest
from sweep_specs import FAILS_ABOVE_ONE_STEP as SPEC

from runshepherd.cli.main import main
from runshepherd.graph.checkpoint import session_lock


@pytest.mark.parametrize("answer", [[], ["--answer", "yes"]])
def test_a_sweep_another_process_drives_is_not_resumed_here(
    here: Path, capsys: pytest.CaptureFixture[str], answer: list[str]
) -> None:
    (here / "s.yaml").write_text(SPEC)
    assert main(["run", "--spec", "s.yaml", "--sweep", "steps=1,2", "--no-input", "--session", "swd"]) == 3
    capsys.readouterr()
    with session_lock(here / "state", "swd-p1"):  # the other process runs point #1
        assert main(["resume", "swd", "--no-input", *answer]) == 2
    got = capsys.readouterr()
    said = " ".join(got.err.split())
    assert "sweep swd is being driven by another orchestrate process" in said, said
    assert "not waiting for an answer" not in said and "swd-p1" not in said, said
    assert "`orchestrate status swd` shows its points" in said, said
    assert "plan" not in got.out and "fits the pool" not in got.out, got.out  # nothing shown again, nothing run
