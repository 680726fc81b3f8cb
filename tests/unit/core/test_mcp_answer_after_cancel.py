"""MCP's `answer` to a session the person canceled while it waited at its question is refused, as `resume --answer`
is: the cancel is final. Before: the answer was taken (state "running", "driven by this server") and only the
session's later end said CANCELED, so the caller was told its answer went through."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

from runshepherd.cli.main import main
from runshepherd.errors import UsageError

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_answer_to_a_session_canceled_at_its_question_is_refused_and_says_who_canceled(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from runshepherd.cli.context import CliContext
    from runshepherd.mcpserver.sessions import Sessions
    from runshepherd.mcpserver.wording import in_tool_terms

    shutil.copy(EXAMPLES / "train-classifier.yaml", here / "train-classifier.yaml")
    assert main(["run", "--spec", "train-classifier.yaml", "--no-input"]) == 3
    found = re.search(r"orchestrate resume (\S+) --answer yes", capsys.readouterr().out)
    assert found, "the paused session names how to resume it"
    session = found.group(1)
    sessions = Sessions(CliContext.create(config=None, state_dir=here / "state", backend="local"))
    assert sessions.cancel(session, None).canceled
    with pytest.raises(UsageError) as err:
        sessions.answer(session, "yes")
    said = in_tool_terms(str(err.value))
    assert said.startswith(f"session {session} was canceled by you (mcp cancel, "), said
    assert "at its question (submit: Submit train-classifier to pool local?), so the answer yes was not applied" in said
    assert "--answer" not in said, said
    for _ in range(600):  # the refused answer still ends the session where its question was (a few tenths of a s)
        view = sessions.view(session)
        if view.state != "running":
            break
        time.sleep(0.05)
    assert view.state == "CANCELED" and view.driven_by is None and view.question is None, view
    assert not (here / "state" / "workflows").exists() or not any((here / "state" / "workflows").iterdir())


def test_answer_to_an_ended_session_says_how_it_ended(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was "session S is not waiting for an answer", where `resume --answer` says how the session ended."""
    from runshepherd.cli.context import CliContext
    from runshepherd.mcpserver.sessions import Sessions
    from runshepherd.mcpserver.wording import in_tool_terms

    shutil.copy(EXAMPLES / "train-classifier.yaml", here / "train-classifier.yaml")
    assert main(["run", "--spec", "train-classifier.yaml", "--no-input"]) == 3
    found = re.search(r"orchestrate resume (\S+) --answer yes", capsys.readouterr().out)
    assert found
    session = found.group(1)
    assert main(["resume", session, "--answer", "no"]) == 0  # declined: it ends, nothing submitted
    sessions = Sessions(CliContext.create(config=None, state_dir=here / "state", backend="local"))
    with pytest.raises(UsageError) as err:
        sessions.answer(session, "yes")
    said = in_tool_terms(str(err.value))
    assert said.startswith(f"session {session} has already ended: "), said
    assert "so the answer yes was not used; `session` shows its result" in said and "--answer" not in said, said
