"""The chat asked about a run that does not exist says so; it never answers with the current run instead.

Before: with train-classifier-1 running, "status of ../../etc" (and "status of /etc/passwd", "what is the status of
nosuchrun") printed train-classifier-1's status as if it were the one asked about."""

from __future__ import annotations

from typing import Any

import pytest


def test_status_of_an_unknown_run_or_a_path_is_said_to_be_unknown(
    submitted_chat: tuple[Any, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    convo, d = submitted_chat
    wid = d.workflow_id
    capsys.readouterr()
    answers = {}
    for asked in ("status of ../../etc", "status of /etc/passwd", "logs of ../../etc", "status of nosuchrun"):
        convo.handle(asked)
        answers[asked] = capsys.readouterr().out
    convo.handle(f"status of {d.session}")  # a session id of this chat: its workflow
    by_session = capsys.readouterr().out
    for asked in ("status of ../../etc", "status of /etc/passwd", "logs of ../../etc"):
        said = answers[asked]
        # a line of the run's own (a status change) may come first while it runs on: the error is a line of its own
        assert any(
            ln.startswith(f"error: no run or session named '{asked.split()[-1]}'") for ln in said.splitlines()
        ), said
        assert f"this chat's runs: {wid}" in said and f"Run: {wid}" not in said and "Task:" not in said
    assert "no workflow 'nosuchrun'" in answers["status of nosuchrun"]
    # said in the chat's words, with this chat's runs (was: "run `orchestrate list` to see the known ones")
    assert f"this chat's runs: {wid}; `orchestrate list` in a shell" in answers["status of nosuchrun"]
    assert "run `orchestrate list`" not in answers["status of nosuchrun"]
    assert f"Run: {wid}" not in answers["status of nosuchrun"]
    assert f"Run: {wid}" in by_session
