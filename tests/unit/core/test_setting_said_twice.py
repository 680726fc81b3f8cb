"""A setting said twice with two values ("lr=0.1 lr=0.2") was planned with the first one, unasked. The person's
word is theirs to settle: the plan names both values and asks, and the same value said twice is not a conflict."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runshepherd.cli.main import main
from runshepherd.experts.heuristic.request import parse_request


def test_two_learning_rates_pause_the_run_and_name_both(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "train a small classifier with lr=0.1 lr=0.2 for 2 epochs", "--no-input"]) == 3
    said = " ".join((lambda o: o.out + o.err)(capsys.readouterr()).split())
    assert "lr said twice with different values (0.1 and 0.2): say it once" in said
    assert "lr=0.1" not in said  # not planned with the first value


@pytest.mark.parametrize(
    ("request_text", "key"),
    [("train epochs=2 for 3 epochs", "epochs"), ("train with 100 steps and max_steps=200", "steps")],
)
def test_two_values_in_two_wordings_are_named(request_text: str, key: str) -> None:
    assert parse_request(request_text).unusable == [
        f"{key} said twice with different values ({'2 and 3' if key == 'epochs' else '100 and 200'}): say it once"
    ]


@pytest.mark.parametrize(
    "request_text",
    [
        "train with lr 3e-4 and lr=0.0003 for 2 epochs",  # one value, two spellings
        "train for 3 epochs 64 batch size",  # the 64 after "epochs" is the batch size's
        "train 100 steps 3 epochs",
    ],
)
def test_one_value_or_neighbouring_settings_are_no_conflict(request_text: str) -> None:
    assert parse_request(request_text).unusable == []
