"""`orchestrate download WF DEST` with a DEST the filesystem cannot name (a 300-character folder name, a path past
PATH_MAX) is the person's input to fix: exit 2, one line naming the folder problem and the limit, nothing written.
Before: exit 1 "a file name is too long for this filesystem" reported as a machine problem (an OSError from
checking whether DEST exists)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main


@pytest.mark.parametrize(
    ("dest", "why"),
    [
        ("a" * 300, "one folder name in it is 300 characters long, and this filesystem allows at most"),
        ("/".join(["b" * 200] * 25), "the path is"),
        ("é" * 200, "one folder name in it is 400 bytes long, and this filesystem allows at most"),
    ],
)
def test_a_folder_name_too_long_is_exit_2_naming_it(
    dest: str, why: str, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["download", "tiny-1", dest]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert "the folder name is too long (" in said and why in said, said
    assert "give a shorter folder as DEST" in said and "Traceback" not in said
    assert not any(p.name.startswith(("a", "b", ".runshepherd-download-")) for p in here.iterdir())


def test_it_is_read_from_the_name_not_from_a_failed_look(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Python 3.13's Path.exists() is os.path.exists: False for a name too long, where 3.11 raised. The refusal
    must not depend on that (with 3.13's exists the download went on and failed later, exit 1)."""
    import os

    monkeypatch.setattr(Path, "exists", lambda self, **_: os.path.exists(self))
    assert main(["download", "tiny-1", "a" * 300]) == 2
    said = " ".join(capsys.readouterr().err.split())
    assert "one folder name in it is 300 characters long" in said, said
