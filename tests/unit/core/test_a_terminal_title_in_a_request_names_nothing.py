"""A terminal-title escape (OSC: `\\x1b]0;title\\x07`, `\\x1b]2;title\\x1b\\\\`) pasted into a request is stripped with
its text before anything reads the request: it names no workflow and reaches no spec or session.

Before: `orchestrate draft "train a small classifier \\x1b]0;evil title\\x07for 3 epochs"` drafted a workflow named
`train-classifier-evil`; `run` planned the same name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main

BEL = "train a small classifier \x1b]0;evil title\x07for 3 epochs"
ST = "train a small classifier \x1b]2;pwned\x1b\\ for 3 epochs"


@pytest.mark.parametrize("request_text", [BEL, ST])
def test_draft_names_the_workflow_from_the_words_only(
    request_text: str, here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["draft", request_text, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["name"] == "train-classifier"
    said = json.dumps(doc)
    assert "evil" not in said and "pwned" not in said and "\\u001b" not in said


def test_run_plans_and_keeps_no_title(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", BEL, "--no-input", "--json", "--session", "osc"]) == 3
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    [planned] = [e for e in events if e["event"] == "planned"]
    assert planned["spec_name"] == "train-classifier"
    assert not any("evil" in json.dumps(e) for e in events)


def test_a_request_of_nothing_but_a_title_is_no_request(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "\x1b]0;evil\x07"]) == 2
    assert "say what to draft" in capsys.readouterr().err


def test_the_chat_and_mcp_door_cleans_it_too() -> None:
    from runshepherd.request_text import without_secrets

    assert without_secrets(BEL, left_out_of="the session") == ("train a small classifier for 3 epochs", None)
