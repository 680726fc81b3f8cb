"""An error's own words are not taken for a secret: before, `orchestrate validate /etc/passwd` printed
`error: /etc/passwd:[REDACTED:password] the spec …` and a `..` download URL lost its `'..'` ("passwd:" was read as a
password assignment)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_validate_of_a_file_named_passwd_says_where_and_why(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "etc").mkdir()
    (here / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    assert main(["validate", str(here / "etc" / "passwd")]) == 2
    err = capsys.readouterr().err
    assert "passwd:1: the spec must be a mapping" in err and "REDACTED" not in err


def test_a_dotdot_download_url_error_keeps_its_words(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["download", "file:///tmp/../etc/passwd", "out"]) == 2
    err = capsys.readouterr().err
    assert "'file:///tmp/../etc/passwd': `..` is not allowed in a download URL" in err and "REDACTED" not in err
