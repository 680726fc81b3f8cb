"""`orchestrate train a small classifier --yes` without quotes: the shell hands `train` and each word on separately.
Before, it said "one word is not a request — describe the job in a sentence", to a person who had typed one; now it
says the shell split the sentence and prints the command with it quoted, the flags kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_an_unquoted_request_is_shown_quoted_and_nothing_is_planned(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["train", "resnet50", "on", "imagenet", "--yes", "--pool", "local"]) == 2
    err = capsys.readouterr().err
    assert "one word is not a request" not in err, err
    assert "the shell split your request into 4 arguments" in err, err
    assert "orchestrate 'train resnet50 on imagenet' --yes --pool local" in err, err
    assert not (here / "state").exists() or not (here / "state" / "workflows").exists()


def test_one_word_is_still_not_a_request(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classifier", "--yes"]) == 2
    assert "one word is not a request" in capsys.readouterr().err


def test_an_unquoted_request_after_run_is_shown_quoted(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was click's "Got unexpected extra argument(s) (a small classifier)" and the whole usage text."""
    assert main(["run", "train", "a", "small", "classifier", "--no-input"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert err.startswith("error: the shell split your request into 4 arguments"), err
    assert "orchestrate run 'train a small classifier' --no-input" in err and "Usage:" not in err, err
