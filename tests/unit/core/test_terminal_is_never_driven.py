"""A file name or id the CLI quotes can hold an escape sequence: the terminal must show it, never act on it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from runshepherd.cli.main import main
from runshepherd.render.safe import visible

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
CLEAR = "\x1b[2J"  # clears the screen
TITLE = "\x1b]0;PWNED\x07"  # sets the window title (rich itself drops the BEL, not the ESC)


def test_control_characters_are_shown_as_escapes() -> None:
    assert visible(f"a{CLEAR}b\x9bc\u2028d") == "a\\x1b[2Jb\\x9bc\\u2028d"
    assert visible("tab\tand\nnewline é ✓") == "tab\tand\nnewline é ✓"
    # a right-to-left override would show "evil.yaml" as "lmay.live": the name is shown as it is
    assert visible("x\u202elmay.live") == "x\\u202elmay.live"


def test_a_file_name_with_escape_sequences_is_shown_not_obeyed(
    tmp_path: Path, here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # before: "error: nope<ESC>[2J.yaml: file not found" reached stderr as it was, and cleared the screen
    assert main(["validate", f"nope{CLEAR}.yaml"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "nope\\x1b[2J.yaml: file not found" in err, err
    # the same through the CLI's consoles: "● <ESC>]0;PWNED…evil.yaml: … is valid" set the window title
    spec = tmp_path / f"{TITLE}evil.yaml"
    shutil.copy(EXAMPLES / "train-classifier.yaml", spec)
    assert main(["validate", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b]0;PWNED\\x07evil.yaml: train-classifier is valid" in out, out


def test_colon_words_are_shown_as_written_never_as_emoji(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # before: `app show` printed a spec's "labels cat:dog:bird, :x: here" as "labels cat🐶bird, ❌ here" (rich's
    # emoji codes; markup=False does not stop them), and explain quoted a command's 'cat:dog:bird' the same way
    from runshepherd.apps.registry import AppRegistry

    text = (EXAMPLES / "templated.yaml").read_text() + "# labels cat:dog:bird, :x: here\n"
    AppRegistry(here / "state" / "apps").save("tpl", "labels :dog: and :cat:", text)
    assert main(["app", "show", "tpl"]) == 0
    out = capsys.readouterr().out
    assert "labels cat:dog:bird, :x: here" in out and "labels :dog: and :cat:" in out, out
    assert "🐶" not in out and "❌" not in out
