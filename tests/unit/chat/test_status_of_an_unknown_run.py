"""The chat asked about a run that does not exist says so; it never answers with the current run instead.

Before: with train-classifier-1 running, "status of ../../etc" (and "status of /etc/passwd", "what is the status of
nosuchrun") printed train-classifier-1's status as if it were the one asked about."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.context import CliContext


def test_status_of_an_unknown_run_or_a_path_is_said_to_be_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c1"), interactive=False, cadence=0.2)
    try:
        convo.handle("train a small classifier for 1 epoch")
        d = convo.current
        assert d is not None and d.wait(60, until=lambda: d.waiting)
        convo.handle("yes")
        assert d.wait(60, until=lambda: d.workflow_id is not None)
        wid = d.workflow_id
        capsys.readouterr()
        answers = {}
        for asked in ("status of ../../etc", "status of /etc/passwd", "logs of ../../etc", "status of nosuchrun"):
            convo.handle(asked)
            answers[asked] = capsys.readouterr().out
        convo.handle(f"status of {d.session}")  # a session id of this chat: its workflow
        by_session = capsys.readouterr().out
    finally:
        convo.stop_runs()
    for asked in ("status of ../../etc", "status of /etc/passwd", "logs of ../../etc"):
        said = answers[asked]
        assert said.startswith(f"error: no run or session named '{asked.split()[-1]}'"), said
        assert f"this chat's runs: {wid}" in said and f"Run: {wid}" not in said and "Task:" not in said
    assert "no workflow 'nosuchrun'" in answers["status of nosuchrun"]
    assert f"Run: {wid}" not in answers["status of nosuchrun"]
    assert f"Run: {wid}" in by_session
