"""Questions a person asks in a new chat, before starting anything, get an answer or say plainly what is missing.

Before: "is train-classifier-9 running" and "list pools" were answered with the help text, and "how is the sweep
doing?" printed the state dir's latest sweep (started elsewhere) as if it were this chat's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from runshepherd.chat.intents import cli_command_for, route


@pytest.fixture
def new_chat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord
    from runshepherd.cli.context import CliContext

    monkeypatch.chdir(tmp_path)
    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    return ChatSession(ctx, ChatRecord(id="c1"), interactive=False)


def test_is_a_named_run_running_asks_for_that_runs_status(new_chat: Any, capsys: pytest.CaptureFixture[str]) -> None:
    new_chat.handle("is train-classifier-9 running?")
    said = capsys.readouterr().out
    assert "I can:" not in said, said
    assert "no workflow 'train-classifier-9'" in said, said
    assert route("is mnist done yet").workflow == "mnist"
    assert route("is it still running").kind == "status" and route("is it still running").workflow is None
    assert route("is anything running").kind == "list_runs"


def test_list_pools_shows_each_pool_with_its_free_gpus(new_chat: Any, capsys: pytest.CaptureFixture[str]) -> None:
    pools = new_chat.ctx.backend.pools()
    new_chat.handle("list pools")
    said = capsys.readouterr().out
    assert "I can:" not in said and said.startswith("pools:"), said
    for p in pools:
        free = p.effective_gpu_free()
        assert f"{p.name} ({p.status}): {'unknown' if free is None else free} GPUs free for a job now" in said, said
    assert route("which pools have free gpus").kind == "pools"
    assert route("train it on the free gpus").kind == "start"  # a job to run, not a question about pools
    assert cli_command_for("list pools") == "orchestrate pools"


def test_how_is_the_sweep_doing_names_the_sweep_it_found_elsewhere(
    new_chat: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    new_chat.handle("how is the sweep doing?")
    assert "no sweep yet" in capsys.readouterr().out

    folder = new_chat.ctx.state_dir / "sweeps" / "sw-other"
    folder.mkdir(parents=True)
    (folder / "sweep.json").write_text(json.dumps({"sweep": "sw-other", "spec": "lr.yaml", "points": []}))
    new_chat.handle("how is the sweep doing?")
    said = capsys.readouterr().out
    assert f"this chat has started no sweep; the latest sweep in {new_chat.ctx.state_dir} is sw-other:" in said, said
    assert "sweep sw-other (lr.yaml)" in said, said
