"""A value far beyond any usual run ("epochs=1e9") was planned without a word. The plan keeps it as said (a proposal
is a proposal: nothing is changed silently) and says the value and that it looks unintended."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_run_plan_warns_about_a_billion_epochs_and_keeps_them(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "train a small classifier with epochs=1e9", "--no-input"]) == 3  # paused at submit
    said = " ".join((lambda o: o.out + o.err)(capsys.readouterr()).split())
    assert (
        "epochs 1e9 = 1,000,000,000 looks unintended (runs rarely go above 10,000); it is planned as you said it"
        in said
    )
    assert "Submit train-classifier to pool local? (see the warnings above)" in said


def test_draft_keeps_the_value_and_says_so(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "train a small classifier with epochs=1e9 and lr 30", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "- --epochs\n    - '1000000000'" in doc["spec"]  # kept as said, never changed
    notes = " ".join(doc["notes"])
    assert "epochs 1e9 = 1,000,000,000 looks unintended" in notes and "lr 30 looks unintended" in notes


def test_usual_values_say_nothing(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "train a small classifier for 300 epochs with lr 3e-4 and batch size 4096", "--json"]) == 0
    assert not any("looks unintended" in n for n in json.loads(capsys.readouterr().out)["notes"])


def test_a_value_the_request_warned_of_is_not_warned_of_again_for_the_drafted_spec(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The drafted spec carries the request's epochs=1e9 into its default-values, which the spec check reads as
    well (`experts.base.draft_for`): the person is told once."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "train a small classifier with epochs=1e9", "--no-input"]) == 3
    said = " ".join((lambda o: o.out + o.err)(capsys.readouterr()).split())
    assert said.count("looks unintended") == 1, said


def test_a_huge_count_is_planned_digit_for_digit(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """'12345678901234567891 epochs' was read through a float: the spec ran 12345678901234567168 epochs and the
    warning said '= 12,345,678,901,234,567,168 … planned as you said it'."""
    assert main(["draft", "train a small classifier for 12345678901234567891 epochs", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "- --epochs\n    - '12345678901234567891'" in doc["spec"]
    notes = " ".join(doc["notes"])
    assert "epochs 12345678901234567891 = 12,345,678,901,234,567,891 looks unintended" in notes
