"""A damaged chat record (cut short, edited, not UTF-8) is one line naming the file and what to do, exit 1 —
before: "internal error: ValidationError … This is a bug in RunShepherd"."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runshepherd.cli.main import main


@pytest.mark.parametrize("content", [b"garbage", b"\xff\xfe", b'{"id": "c1", "turns": 3'])
def test_a_damaged_chat_record_is_named_with_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "state" / "chats" / "c1.json"
    record.parent.mkdir(parents=True)
    record.write_bytes(content)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no terminal; never read
    assert main(["chat", "--session", "c1"]) == 1
    err = capsys.readouterr().err
    assert f"{record} is damaged (not a chat record) — move it aside (mv {record} {record}.broken)" in err
    assert "internal error" not in err
