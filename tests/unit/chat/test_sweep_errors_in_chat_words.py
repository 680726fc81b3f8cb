"""The chat's sweep errors are said in the chat's words. Before: "sweep lr over 0.1, 0.1 with sweep-lr.yaml" was
answered "--sweep lr: '0.1' is given twice … (--sweep lr=0.1), or add --repeat N", flags nobody can type there."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from runshepherd.chat.session import ChatSession
from runshepherd.chat.store import ChatRecord
from runshepherd.cli.context import CliContext

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("said", "answer"),
    [
        (
            "sweep lr over 0.1, 0.1 with sweep-lr.yaml",
            "could not start the sweep: lr: '0.1' is given twice, so the sweep would run it once; list each value "
            "once ('sweep lr over 0.1'), or add 'repeat N times' to run every point N times",
        ),
        (
            "sweep seed over 1, 2 with sweep-lr.yaml 3 seeds",
            "could not start the sweep: 'repeat 3 times' sets seed itself (0..2), so it cannot also be swept "
            "('sweep seed over …'): give the seeds ('sweep seed over V1, …, V6') or 'repeat 6 times'",
        ),
    ],
)
def test_a_sweep_error_in_the_chat_names_no_flag(
    here: Path, capsys: pytest.CaptureFixture[str], said: str, answer: str
) -> None:
    shutil.copy(REPO / "examples" / "sweep-lr.yaml", here / "sweep-lr.yaml")
    ctx = CliContext.create(config=None, state_dir=here / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c1"), interactive=False, cadence=0.2)
    convo.handle(said)
    out = " ".join(capsys.readouterr().out.split())
    assert answer in out, out
    assert "--sweep" not in out and "--repeat" not in out
    assert not (here / "state" / "workflows").exists()  # nothing submitted
