"""`draft -o FILE` where FILE is a link to a file that does not exist yet: refused (a link to nowhere does not
"exist", so before the spec was written to wherever it pointed, and `● drafted … → FILE` named the link); with
--force the link itself is replaced, never the file it points at."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main

REQUEST = "a job reading s3://raw/ writing s3://out/"


def test_draft_refuses_a_dangling_link_and_force_replaces_the_link_only(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = here / "elsewhere" / "planted.yaml"
    elsewhere.parent.mkdir()
    (here / "job.yaml").symlink_to(elsewhere)
    assert main(["draft", REQUEST, "-o", "job.yaml"]) == 2
    assert f"job.yaml is a link to {elsewhere}, where the spec would be written" in capsys.readouterr().err
    assert not elsewhere.exists()
    assert main(["draft", REQUEST, "-o", "job.yaml", "--force"]) == 0
    assert not elsewhere.exists() and not (here / "job.yaml").is_symlink()
    assert "workflow:" in (here / "job.yaml").read_text()
