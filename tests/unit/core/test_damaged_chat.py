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


def test_other_damaged_records_are_named_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A background-session record (blocked `sessions` and `attach`), an app record (`app list`), the id counter
    (`submit`): each was an internal error (ValidationError / JSONDecodeError)."""
    state = tmp_path / "state"
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(state))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    spec = Path(__file__).parents[3] / "examples" / "train-classifier.yaml"
    cases = [
        (state / "detached" / "s1.json", ["sessions"], "not a background-session record"),
        (state / "apps" / "a1" / "app.json", ["app", "list"], "not an app record"),
        (state / "counters.json", ["submit", str(spec)], "not a workflow-id counter file"),
    ]
    for path, argv, said in cases:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{bad")
        assert main(argv) == 1, argv
        err = capsys.readouterr().err
        assert f"{path} is damaged ({said}) — move it aside (mv {path} {path}.broken)" in err
        assert "internal error" not in err
        path.rename(f"{path}.broken")
