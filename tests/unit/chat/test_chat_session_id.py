"""`orchestrate chat --session ID` continues a conversation; an ID with no chat (a typo) is exit 2 naming the closest
ids, never a silent new chat. `--new` starts one with that id. Before: a typo'd id quietly opened an empty chat."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def _chat(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no terminal: the chat ends at once
    return main(["chat", *argv])


def test_a_typod_chat_id_is_refused_naming_the_closest(
    tmp_path: Path, here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    chats = tmp_path / "state" / "chats"
    assert _chat(["--session", "lr-study"], monkeypatch) == 2  # nothing yet: refused, nothing created
    err = " ".join(capsys.readouterr().err.split())
    assert "no chat 'lr-study' (there are no chats in" in err and "orchestrate chat --session lr-study --new" in err
    assert not (chats / "lr-study.json").exists()

    assert _chat(["--session", "lr-study", "--new"], monkeypatch) == 0  # asked for: a new chat with this id
    assert (chats / "lr-study.json").is_file()
    capsys.readouterr()
    assert _chat(["--session", "lr-stduy"], monkeypatch) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "error: no chat 'lr-stduy' (closest: lr-study;" in err and "orchestrate sessions" in err, err
    assert not (chats / "lr-stduy.json").exists() and "Traceback" not in err

    assert _chat(["--session", "lr-study", "--new"], monkeypatch) == 2  # --new never reopens an old one
    assert "chat 'lr-study' already exists — drop --new to continue it" in capsys.readouterr().err
    assert _chat(["--session", "lr-study"], monkeypatch) == 0  # continues


@pytest.mark.parametrize("argv", [["chat"], ["mcp"], ["watch", "x-1"], ["run", "--spec", "s.yaml"]])
@pytest.mark.parametrize("value", ["inf", "nan", "-1", "1e300"])
def test_a_cadence_that_never_polls_is_refused(
    tmp_path: Path,
    here: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    value: str,
) -> None:
    """`--cadence inf` (nan, negative, beyond a day): exit 2 saying what to give. Before: inf was taken."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main([*argv, "--cadence", value]) == 2
    err = " ".join(capsys.readouterr().err.split())
    shown = {"1e300": "1e+300"}.get(value, value)
    assert f"--cadence {shown}: " in err and "as a number from 0.1 to 86400" in err, err
    assert "greater than or equal" not in err  # click's range wording read nan as too small
    if value in ("inf", "nan"):
        assert "not a number of seconds" in err, err
    assert not (tmp_path / "state" / "chats").exists()  # nothing started
