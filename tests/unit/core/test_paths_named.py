"""A path of the wrong kind (a folder where a file goes, a file where a folder goes, a place that cannot be
written) is one line naming it, exit 2 — before: each was an "internal error … This is a bug in RunShepherd"."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("keep\n")
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n")
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["watch", "--runs", "adir"], "adir: is a folder — give the runs file itself"),
        (["watch", "--runs", "list.yaml"], "list.yaml: expected a mapping with a top-level `runs:` list"),
        (
            ["draft", "train a small classifier", "-o", "adir", "--force"],
            "-o adir is a folder — give a file path for the spec",
        ),
        (["download", "file:///x/objects/wf-1/train", "afile"], "afile is a file, not a folder"),
        (["download", "file:///x/objects/wf-1/train", "afile/sub"], "afile is a file, not a folder"),
    ],
)
def test_a_path_of_the_wrong_kind_is_named_with_exit_2(
    home: Path, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "internal error" not in err
    assert (home / "afile").read_text() == "keep\n"
    assert sorted(p.name for p in home.iterdir() if p.name.startswith(".runshepherd")) == []  # nothing staged
