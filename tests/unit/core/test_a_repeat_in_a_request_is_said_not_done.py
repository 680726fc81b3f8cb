"""A request asking for a repeat ("every night", "every day at 3am", "daily") is run once, and the plan says so and
what to use instead; the repeat's words name no workflow.

Before: `orchestrate run "train a small classifier every night for 3 epochs"` planned `train-classifier-every` and
said nothing about the repeat it would never do."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main
from runshepherd.request_recurrence import split_recurrence


def test_the_plan_says_the_repeat_is_not_done(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "train a small classifier every night for 3 epochs", "--no-input", "--json"]) == 3
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    [planned] = [e for e in events if e["event"] == "planned"]
    assert planned["spec_name"] == "train-classifier"
    [note] = [w for w in planned["warnings"] if "every night" in w]
    assert note.startswith("not done: `every night` — RunShepherd runs the job once") and "cron" in note


@pytest.mark.parametrize(
    ("request_text", "said"),
    [
        ("every day at 3am train a small classifier for 2 epochs", "every day at 3am"),
        ("train a small classifier daily", "daily"),
        ("train a small classifier for 2 epochs at 3am every day", "at 3am every day"),
    ],
)
def test_draft_notes_it(request_text: str, said: str, here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", request_text, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["name"] == "train-classifier"
    assert any(n.startswith(f"not done: `{said}`") for n in doc["notes"]), doc["notes"]


@pytest.mark.parametrize(
    "request_text",
    [
        "train a small classifier, evaluate every epoch and log every 100 steps",
        "train a small classifier and checkpoint every 30 minutes",
        "train a small classifier on daily prices",
        "train a classifier with the pytorch nightly image",
        "train a small classifier for 2 epochs",
    ],
)
def test_a_cadence_inside_the_job_is_no_repeat(request_text: str) -> None:
    assert split_recurrence(request_text) == (request_text, [])


@pytest.mark.parametrize(
    "request_text",
    [
        # a file name, a path or a flag's value: cutting "daily" out of them broke the path the expert reads
        "train a small classifier on data/daily.csv",
        "train a small classifier on the files in data/daily",
        "run train.py --schedule daily",
        "run train.py --schedule=nightly",
        # the days are the data's: what the model is about, not when it runs
        "forecast sales for each day of the week",
        "predict the temperature for every day in march",
        "train a model on each year of data separately",
        "train a classifier on data from every weekend",
        # frequency words in a list of adjectives
        "train a forecaster on daily and weekly prices",
        "fine-tune gpt2 on the daily, weekly and monthly reports",
    ],
)
def test_a_path_a_flag_or_the_datas_days_are_no_repeat(request_text: str) -> None:
    assert split_recurrence(request_text) == (request_text, [])


@pytest.mark.parametrize(
    ("request_text", "clean", "said"),
    [
        ("retrain it daily and email me", "retrain it and email me", ["daily"]),
        ("retrain weekly on new data", "retrain on new data", ["weekly"]),
        ("retrain every night at midnight", "retrain", ["every night at midnight"]),
        ("run train.py nightly", "run train.py", ["nightly"]),
    ],
)
def test_a_repeat_beside_those_is_still_cut(request_text: str, clean: str, said: list[str]) -> None:
    assert split_recurrence(request_text) == (clean, said)


@pytest.mark.parametrize(
    ("request_text", "clean"),
    [
        # what is left reads as written: the session keeps it, and an app saved from it is described by it
        ("every night, train a small classifier", "train a small classifier"),
        ("Every day at 3am: train a small classifier", "train a small classifier"),
        ("train a small classifier daily.", "train a small classifier."),
        ("train a small classifier (every night)", "train a small classifier"),
        ("train it every monday, and weekly on fridays", "train it, and on fridays"),
    ],
)
def test_what_is_left_leaves_no_stray_punctuation(request_text: str, clean: str) -> None:
    assert split_recurrence(request_text)[0] == clean
