"""MCP's `session` and `answer` given a sweep's id (which `orchestrate sessions` lists and MCP's `cancel` takes) say it
is a sweep, where its points are and how its plan is answered. Before: "no session 'ID'", as for a typo."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from runshepherd.cli.main import main
from runshepherd.errors import UsageError

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_session_and_answer_of_a_sweep_id_say_it_is_a_sweep_and_how_to_answer_its_plan(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from runshepherd.cli.context import CliContext
    from runshepherd.mcpserver.sessions import Sessions

    shutil.copy(EXAMPLES / "sweep-lr.yaml", here / "sweep-lr.yaml")
    state = here / "state"
    assert main(["run", "--spec", "sweep-lr.yaml", "--sweep", "lr=0.1,0.3", "--no-input"]) == 3
    sweep = next((state / "sweeps").iterdir()).name
    assert f"orchestrate resume {sweep} --answer yes" in capsys.readouterr().out
    sessions = Sessions(CliContext.create(config=None, state_dir=state, backend="local"))
    for call in (lambda: sessions.view(sweep), lambda: sessions.answer(sweep, "yes")):
        with pytest.raises(UsageError) as err:
            call()
        said = str(err.value)
        assert said.startswith(f"{sweep} is a sweep, not a session: `orchestrate status {sweep}`"), said
        assert f"Submit 2 workflows (lr=0.1, lr=0.3)?): the person answers it with `orchestrate resume {sweep}" in said
    with pytest.raises(
        UsageError, match="^no session 'nosuch' — a session's id is the `session` that start_run returned$"
    ):
        sessions.view("nosuch")
    # canceled at its plan (here by MCP's own cancel): it no longer "waits on its plan"; it says who canceled it
    assert sessions.cancel(sweep, None).canceled
    with pytest.raises(UsageError) as err:
        sessions.view(sweep)
    said = str(err.value)
    assert "waits on its plan" not in said and "--answer yes" not in said, said
    assert "; it was canceled by you (mcp cancel, " in said and "final, no point starts" in said, said
    assert "cancels every point" not in said, said  # a canceled sweep is not offered its cancel again
