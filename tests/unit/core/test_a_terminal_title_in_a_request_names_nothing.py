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
# a title ended by the next escape (a colour reset), not by BEL/ST: that ESC ends the string (was: the title's text
# stayed and named the workflow "train-classifier-pwned": only the title's first two characters were stripped)
STRAY_ESC = "train a small classifier \x1b]0;pwned\x1b[0m for 3 epochs"


@pytest.mark.parametrize("request_text", [BEL, ST, STRAY_ESC])
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


UNENDED = "train a small classifier \x1b]0;evil for 5 epochs"


def test_words_an_unended_title_swallows_are_said_in_the_plan(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: an OSC with no BEL/ST took the rest of the request with it, silently: 'for 5 epochs' was gone and
    the plan read 3 epochs (the demo's default) without a word."""
    assert main(["draft", UNENDED, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["name"] == "train-classifier"
    [note] = [n for n in doc["notes"] if "never ended" in n]
    assert "`evil for 5 epochs`" in note
    assert main(["run", UNENDED, "--no-input", "--json", "--session", "unended"]) == 3
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    [planned] = [e for e in events if e["event"] == "planned"]
    assert any("never ended" in w and "evil for 5 epochs" in w for w in planned["warnings"]), planned


def test_an_8_bit_escape_is_stripped_whole() -> None:
    """Before: the one-character CSI U+009B lost only itself, leaving its parameters ('31m') in the request."""
    from runshepherd.request_text import enter

    said = enter("train a small classifier \x9b31mfor 3 epochs \x9d0;title\x07now", left_out_of="the session")
    assert said.text == "train a small classifier for 3 epochs now" and said.not_used == []


def test_an_unended_device_string_is_said_as_what_it_is() -> None:
    """Before: the note for an unended DCS (ESC P, or its 8-bit U+0090) said "ESC ] with no BEL", an escape the
    request does not hold."""
    from runshepherd.request_text import enter

    for request in (
        "train a small classifier \x1bPdata for 5 epochs",
        "train a small classifier \x90data for 5 epochs",
    ):
        [note] = enter(request, left_out_of="the session").not_used
        assert "`data for 5 epochs`" in note and "ESC ] or ESC P" in note, note
