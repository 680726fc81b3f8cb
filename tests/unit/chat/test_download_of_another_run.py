"""The chat downloads (and saves as an app) only its own current run, and says so when asked about another.

Before: in a chat with no run, "download train-classifier-1 to ./x" said "there are no outputs to download yet
(the run has not finished)" of a workflow that had completed; in a chat with a run of its own, "download
other-wf-9" went on to that chat's own run, ignoring the workflow the person named."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_a_chat_without_a_run_says_so_and_shows_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord
    from runshepherd.cli.context import CliContext

    monkeypatch.setenv("HOME", str(tmp_path))
    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c0"), interactive=False, cadence=0.2)
    convo.handle("download train-classifier-1 to ./x")
    said = capsys.readouterr().out
    assert "has not finished" not in said
    assert "train-classifier-1 is not this chat's current run" in said
    assert "orchestrate status train-classifier-1 (its output URLs), then orchestrate download URL DIR" in said
    convo.handle("save it as an app")
    assert "this chat has not started a run yet" in capsys.readouterr().out


class _WaitingAtDownload:
    """This chat's run, waiting at its own download question (as RunDriver shows it)."""

    session, workflow_id, waiting, busy, values = "s1", "train-classifier-7", True, False, None
    question = {"kind": "download", "text": "Download the outputs (5 files) to ~/train-classifier-7/?"}

    def __init__(self) -> None:
        self.answers: list[str] = []

    def answer(self, text: str) -> None:
        self.answers.append(text)


def test_a_named_workflow_is_never_answered_with_the_chats_own_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, "download other-wf-9" while this chat's run waited at its download question answered that
    question yes: the chat's own outputs were downloaded, not the workflow named."""
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord
    from runshepherd.cli.context import CliContext

    monkeypatch.setenv("HOME", str(tmp_path))
    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    run = _WaitingAtDownload()
    monkeypatch.setattr(ChatSession, "current", property(lambda self: run))
    convo = ChatSession(ctx, ChatRecord(id="c2"), interactive=False, cadence=0.2)
    convo.handle("download other-wf-9")
    assert "other-wf-9 is not this chat's current run" in capsys.readouterr().out
    assert run.answers == []
    convo.handle("download it")  # this chat's own run: its question is answered, as before
    assert run.answers == ["yes"]
