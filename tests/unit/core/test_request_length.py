"""A request longer than REQUEST_MAX is refused at every door, at once, with what to do — never planned.

Before: one 100,000-character word took 84 s to plan through `orchestrate run`, and 2 MB sent to MCP's
`start_run` held the server (and every later tool call) for minutes."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.context import CliContext
from runshepherd.cli.main import main
from runshepherd.errors import UsageError
from runshepherd.request_text import REQUEST_MAX

LONG = "train " + "x" * (REQUEST_MAX * 25)


def _sessions_db(state: Path) -> list[Path]:
    return list(state.glob("sessions.sqlite*"))


@pytest.mark.parametrize("argv", [["run", LONG, "--no-input"], [LONG, "--no-input"], ["draft", LONG]])
def test_the_cli_refuses_a_long_request_with_exit_2_and_starts_nothing(
    tmp_path: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    out = capsys.readouterr()
    assert f"error: the request is {len(LONG):,} characters; at most {REQUEST_MAX:,}" in out.err
    assert "--spec FILE" in out.err and "x" * 200 not in out.err + out.out  # says what to do; never echoes it
    assert "session " not in out.out and not _sessions_db(tmp_path / "state")


def test_mcp_start_run_refuses_it_before_a_session_exists(tmp_path: Path) -> None:
    from runshepherd.mcpserver.sessions import Sessions

    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    with pytest.raises(UsageError, match="at most 4,000 are read"):
        Sessions(ctx).start(LONG)
    assert not _sessions_db(tmp_path / "state")


def test_the_chat_says_so_and_the_conversation_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord

    monkeypatch.chdir(tmp_path)
    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c1"), interactive=False, cadence=0.2)
    assert convo.handle(LONG) is True
    assert "error: the request is" in capsys.readouterr().out
    assert not convo.drivers  # no run was started


def test_a_run_started_through_the_graph_api_ends_with_the_reason(tmp_path: Path) -> None:
    from runshepherd.experts.heuristic.expert import HeuristicExpert
    from runshepherd.subagents.workflow_expert.graph import ExpertContext, workflow_expert

    out = workflow_expert.invoke(
        {"mode": "plan", "request": LONG, "cwd": str(tmp_path), "pools": [], "nodes": []},
        context=ExpertContext(expert=HeuristicExpert()),
    )
    assert out["error"].startswith(f"the request is {len(LONG):,} characters")


def test_the_chat_never_prints_a_pasted_token_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "starting session … for: train … HF_TOKEN=hf_…" and "I did not take 'my key is hf_…'" showed it."""
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord

    token = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    monkeypatch.chdir(tmp_path)
    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c1"), interactive=False, cadence=0.2)
    try:
        convo.handle(f"train a small classifier with HF_TOKEN={token}")
        d = convo.current
        assert d is not None and d.wait(60, until=lambda: d.waiting)  # at the submit question
        convo.handle(f"my key is {token} please use it")
    finally:
        convo.stop_runs()
    out = capsys.readouterr().out
    assert "starting session" in out and "I did not take 'my key is [REDACTED:hf_token] please use it'" in out
    assert token not in out
