"""`orchestrate chat --session ID` while that chat is open in another terminal: exit 2 with what to do. Before:
"chat ID is open in another orchestrate process", and nothing about how to go on."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from filelock import FileLock

from runshepherd.cli.main import main


def test_a_chat_open_elsewhere_says_where_to_continue_it(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from runshepherd.chat.store import chat_path

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["chat", "--session", "c1", "--new"]) == 0
    capsys.readouterr()
    held = FileLock(str(chat_path(here / "state", "c1").with_suffix(".lock")))
    with held.acquire(timeout=0):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert main(["chat", "--session", "c1"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "chat c1 is open in another orchestrate process — continue it in that terminal" in err, err
    assert "`orchestrate chat` starts a new chat meanwhile" in err, err
