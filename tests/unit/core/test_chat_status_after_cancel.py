"""'status' in a chat whose run was canceled at its submit question reports that run, never "no run yet".

Before: `train …`, `cancel it`, `yes`, `status` answered "no run yet — tell me what to train"."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_status_reports_the_run_canceled_before_it_submitted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord
    from runshepherd.cli.context import CliContext

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c1"), interactive=False, cadence=0.2)
    for line in ("train a small classifier for 3 epochs", "cancel it", "yes"):
        convo.handle(line)
    sid = convo.rec.current
    assert sid and convo.current is not None and convo.current.wait(60)
    capsys.readouterr()
    convo.handle("status")
    said = capsys.readouterr().out
    assert "no run yet" not in said
    assert f"session {sid} done · CANCELED" in said and "canceled by you" in said
    assert "it submitted no workflow" in said
