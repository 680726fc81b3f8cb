"""An 8-GPU plan on a machine without GPUs was put to the person ("run the bundled demo instead?"), and "demo"
submitted a task that could never start (PENDING until someone canceled it). A plan no node of the chosen pool can
hold is never submitted: the plan is shown, then why it cannot start and what to change, and the session ends."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_eight_gpus_on_a_machine_without_gpus_is_not_submitted_and_not_asked(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "train resnet50 on 8 GPUs", "--yes"]) == 1
    out = capsys.readouterr()
    said = " ".join((out.out + out.err).split())
    assert "no node in pool local can hold one task: it asks for gpu 8 (the largest node has 0)" in said
    assert "so it could never start there and is not submitted — ask for at most what one node has (gpu 0" in said
    assert "Run the bundled demo trainer" not in said and "submitted train-resnet50" not in said
    assert not (here / "state" / "workflows").exists() or not any((here / "state" / "workflows").iterdir())


def test_over_mcp_the_reason_names_no_command_line_flag(here: Path) -> None:
    """The plan is every door's (CLI, chat, MCP): its reason said `--pool` and `--backend`, flags an MCP caller or a
    chat has not got. It says what to change in words every door can act on."""
    import time

    from runshepherd.cli.context import CliContext
    from runshepherd.mcpserver.sessions import Sessions

    sessions = Sessions(CliContext.create(config=None, state_dir=here / "state", backend="local"))
    sid = sessions.start("train resnet50 on 8 GPUs").session
    for _ in range(600):
        view = sessions.view(sid)
        if view.state != "running":
            break
        time.sleep(0.05)
    assert view.state == "FAILED", view
    reason = view.outcome_reason or ""
    assert "no node in pool local can hold one task" in reason, reason
    assert "run it where such a node exists (another pool, or another backend)" in reason, reason
    assert "--" not in reason, reason
