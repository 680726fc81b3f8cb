"""A run canceled in the chat that drives it ends saying it was canceled by this person through this chat, and
when — as `diagnose` of a canceled run says it.

Before: "info: train-classifier-1 was canceled (not by this session); it stays canceled" and "done · CANCELED
(train-classifier-1 was canceled outside this session; not resubmitted)"."""

from __future__ import annotations

from typing import Any

import pytest


def test_a_cancel_in_the_chat_is_said_to_be_the_persons(
    submitted_chat: tuple[Any, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    convo, d = submitted_chat
    convo.handle("cancel it")
    convo.handle("yes")
    assert d.wait(60, until=lambda: not d.busy)
    out = capsys.readouterr().out
    wid, sid = d.workflow_id, d.session
    assert "not by this session" not in out and "outside this session" not in out, out
    assert f"info: {wid} canceled: session {sid} was canceled by you (chat, 20" in out, out
    assert f"session {sid} done · CANCELED ({wid} canceled: session {sid} was canceled by you (chat, 20" in out
    assert "cancel requested for " + str(wid) in out
