"""`orchestrate chat --checkpointer URL` with the database down: exit 4 before the chat opens, as `run` does.
Before: the chat opened, said "starting session S", then "error in session S: cannot reach the session database …
— the session is kept; … continue it with `orchestrate resume S`": nothing had been kept anywhere."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_chat_with_an_unreachable_session_database_stops_before_starting_anything(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("train a small classifier\nyes\n"))
    url = "postgresql://u:hunter2pass@127.0.0.1:1/x"  # port 1 on loopback: refused at once, no network
    assert main(["chat", "--checkpointer", url]) == 4
    out, err = capsys.readouterr()
    said = " ".join(err.split())
    assert "cannot reach the session database postgresql://u:[REDACTED:url_password]@127.0.0.1:1/x" in said, said
    assert "starting session" not in out and "the session is kept" not in out + err, out
    assert "hunter2pass" not in out + err


def test_a_session_whose_store_fails_mid_chat_is_not_said_to_be_kept() -> None:
    from types import SimpleNamespace

    from runshepherd.chat.session import ChatSession
    from runshepherd.graph.checkpoint import CheckpointerUnavailable

    said: list[str] = []
    convo = SimpleNamespace(say=said.append)
    ChatSession._on_error(convo, "s1", CheckpointerUnavailable("cannot reach the session database postgresql://h/db"))  # type: ignore[arg-type]
    ChatSession._on_error(convo, "s2", RuntimeError("boom"))  # type: ignore[arg-type]
    assert "the session is kept" not in said[0] and "only what it stored before that is kept" in said[0], said
    assert "the session is kept" in said[1], said
