"""`orchestrate draft "…" -o FOLDER`: a folder is not a file the spec can be written to, with or without --force.
Before: "FOLDER exists; choose another -o FILE or pass --force to replace it", and --force then failed with
"Is a directory"."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_draft_to_a_folder_names_a_file_in_it(here: Path, capsys: pytest.CaptureFixture[str], force: list[str]) -> None:
    (here / "specs").mkdir()
    assert main(["draft", "train a small classifier", "-o", "specs", *force]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "-o specs is a folder — give a file path for the spec, e.g. -o specs/job.yaml" in err, err
    assert "--force" not in err and list((here / "specs").iterdir()) == []
