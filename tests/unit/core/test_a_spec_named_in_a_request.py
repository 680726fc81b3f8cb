"""A workflow spec named in a request is pointed to `run --spec`, before any session exists. Before:
`orchestrate "run examples/train-classifier.yaml"` planned the demo trainer with the spec as its *data* and asked
whether to run the demo instead ("data path … (the demo trainer reads one .npz or .csv file)")."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.context import CliContext
from runshepherd.cli.main import main
from runshepherd.errors import UsageError

SAID = (
    "job.yaml is a workflow spec, not a script or data the plan can use — run it with: orchestrate run --spec job.yaml"
)


@pytest.fixture
def with_spec(here: Path) -> Path:
    (here / "job.yaml").write_text("workflow:\n  name: job\n  tasks: []\n")
    (here / "conf.yaml").write_text("lr: 0.1\n")
    (here / "train.py").write_text("print('hi')\n")
    return here


def test_run_refuses_it_naming_the_command(with_spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run job.yaml with 5 epochs", "--no-input"]) == 2
    assert SAID in capsys.readouterr().err
    assert not list((with_spec / "state").glob("sessions.sqlite*"))


def test_mcp_start_run_refuses_it(with_spec: Path) -> None:
    from runshepherd.mcpserver.sessions import Sessions

    ctx = CliContext.create(config=None, state_dir=with_spec / "state", backend="local")
    with pytest.raises(UsageError, match="is a workflow spec"):
        Sessions(ctx).start("run job.yaml")


def test_a_scripts_yaml_config_is_not_a_spec(with_spec: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run train.py --config job.yaml", "--no-input"]) == 3  # planned, asks before submitting
    assert main(["train a small classifier with conf.yaml", "--no-input"]) == 3
    assert "is a workflow spec" not in capsys.readouterr().err
