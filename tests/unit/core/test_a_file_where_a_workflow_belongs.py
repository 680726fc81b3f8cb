"""`diagnose job.log` or `explain sub/train.yaml` (a file where a workflow id belongs) names the command for the
file. Before: "no workflow 'job.log' on the local backend" or "… is not a valid id", and nothing more."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["diagnose", "job.log"], "job.log is a file here — a log: orchestrate diagnose --log job.log"),
        (["status", "job.log"], "job.log is a file here — a log: orchestrate diagnose --log job.log"),
        (
            ["explain", "sub/train.yaml"],
            "sub/train.yaml is a file here — a spec: orchestrate validate sub/train.yaml checks it, "
            "orchestrate run --spec sub/train.yaml runs it",
        ),
    ],
)
def test_the_command_for_the_file_is_named(
    here: Path, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "job.log").write_text("Traceback (most recent call last):\nValueError: x\n")
    (here / "sub").mkdir()
    (here / "sub" / "train.yaml").write_text("workflow:\n  name: t\n")
    assert main(argv) == 2
    assert said in capsys.readouterr().err


def test_no_hint_for_a_name_that_is_no_file(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", "nope-1"]) == 2
    assert "is a file here" not in capsys.readouterr().err
