"""A chat that ends (end of input, Ctrl-D) while a sweep it started waits on its plan: the plan is kept for
`orchestrate resume SWEEP --answer …`, the chat says how, and exits 3 (paused). Before: the question lived only in a
thread that died with the process — no sweep record, `orchestrate resume SWEEP` said "no session", the chat exited
0 and a continued chat said the sweep "has submitted no workflow yet"."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_a_sweep_plan_open_when_the_chat_ends_is_kept_for_resume(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord
    from runshepherd.cli.context import CliContext
    from runshepherd.sweep.status import read_record

    shutil.copy(EXAMPLES / "sweep-lr.yaml", here / "sweep-lr.yaml")
    ctx = CliContext.create(config=None, state_dir=here / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c1"), interactive=False, cadence=0.2)
    try:
        code = convo.run(["sweep lr over 0.1, 0.2 with sweep-lr.yaml"])
    finally:
        convo.stop_runs()
    out = capsys.readouterr().out
    sid = convo.rec.current
    assert code == 3, out
    record = read_record(ctx.state_dir, sid)
    assert record is not None and record["question"]["text"] == "Submit 2 workflows (lr=0.1, lr=0.2)?", record
    assert f"orchestrate resume {sid} --answer yes" in out and "ended NEEDS_INPUT" not in out, out
    assert not ctx.backend.list_workflows(), "nothing may be submitted for an unanswered plan"


def test_a_continued_chat_asks_the_kept_plan_again_and_a_no_submits_nothing(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: the continued chat said "sweep … stopped with the last chat" of a sweep that was waiting for its plan
    (fresh26's finding), and its question could only be answered outside the chat."""
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord, load
    from runshepherd.cli.context import CliContext
    from runshepherd.sweep.status import read_record

    shutil.copy(EXAMPLES / "sweep-lr.yaml", here / "sweep-lr.yaml")
    ctx = CliContext.create(config=None, state_dir=here / "state", backend="local")
    first = ChatSession(ctx, ChatRecord(id="c2"), interactive=False, cadence=0.2)
    try:
        assert first.run(["sweep lr over 0.1, 0.2 with sweep-lr.yaml"]) == 3
    finally:
        first.stop_runs()
    sid = first.rec.current
    capsys.readouterr()
    rec = load(ctx.state_dir, "c2")
    assert rec is not None
    again = ChatSession(ctx, rec, interactive=False, cadence=0.2)
    try:
        again.run(["no"])
    finally:
        again.stop_runs()
    out = capsys.readouterr().out
    assert "stopped with the last chat" not in out, out
    assert f"sweep {sid} is still waiting for its plan to be answered" in out, out
    assert "? submit: Submit 2 workflows (lr=0.1, lr=0.2)?" in out, out  # asked here, where it can be answered
    assert not ctx.backend.list_workflows(), "the person said no: nothing is submitted"
    assert f"sweep {sid}: nothing was submitted" in out and "ended COMPLETED" not in out, out
    record = read_record(ctx.state_dir, sid)
    assert record is not None and record.get("declined") is True, record
