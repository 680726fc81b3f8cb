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
    ("request_text", "key", "both"),
    [
        ("train epochs=2 for 3 epochs", "epochs", "2 and 3"),
        ("train with 100 steps and max_steps=200", "steps", "100 and 200"),
        # a word between the setting's own word and the next wording: "3 epochs" was read as the next one's
        ("train a small classifier for 3 epochs with epochs=1e9", "epochs", "3 and 1e9"),
        ("train 5 training steps with steps=7", "steps", "5 and 7"),
        ("train with 32 batch size and batch size 64", "batch size", "32 and 64"),
        # two counts past 2**53 that a float reads as one number: both planned digit for digit, so both are said
        (
            "train for 12345678901234567891 epochs with epochs=12345678901234567890",
            "epochs",
            "12345678901234567891 and 12345678901234567890",
        ),
    ],
)
def test_two_values_in_two_wordings_are_named(request_text: str, key: str, both: str) -> None:
    assert parse_request(request_text).unusable == [f"{key} said twice with different values ({both}): say it once"]


def test_three_epochs_and_a_billion_pause_the_run_naming_both(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: planned "epochs=3" without a word about the 1e9 said after it."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "train a small classifier for 3 epochs with epochs=1e9", "--no-input"]) == 3
    said = " ".join((lambda o: o.out + o.err)(capsys.readouterr()).split())
    assert "epochs said twice with different values (3 and 1e9): say it once" in said
    assert "epochs=3" not in said


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


def test_two_gpu_counts_pause_the_run_and_name_both(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "on 2 gpus and 4 gpus" planned gpus=2 silently (gpus had no said-twice check)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "train a small classifier on 2 gpus and 4 gpus", "--no-input"]) == 3
    said = " ".join((lambda o: o.out + o.err)(capsys.readouterr()).split())
    assert "gpus said twice with different values (2 and 4): say it once" in said
    assert "gpus=2" not in said


@pytest.mark.parametrize(
    ("request_text", "gpus"),
    [
        ("train with batch size 4 per gpu on 8 gpus", 8),  # was 4: "per" sat between the 4 and "gpu"
        ("train on 8 gpus with a batch size of 4 per gpu", 8),
        ("train on 2 A100 gpus", 2),  # one word naming the kind is still the count's
        ("train on 4 x h100 gpus with gpus=4", 4),  # the same count said twice is no conflict
        ("train for 3 epochs on 2 gpus", 2),
    ],
)
def test_a_gpu_count_is_the_one_said_for_gpus(request_text: str, gpus: int) -> None:
    got = parse_request(request_text)
    assert (got.gpus, got.unusable) == (gpus, [])


def test_a_rate_per_gpu_names_no_workflow() -> None:
    """Before: "per" (and "each") was a telling word, so "python train.py on 8 gpus with batch size 4 per gpu"
    drafted a workflow named "per", and the demo's "train-classifier-per"."""
    assert parse_request("train a small classifier on 8 gpus with batch size 4 per gpu").name == "train-classifier"
    assert parse_request("train a small classifier with 2 gpus each").name == "train-classifier"


def test_a_gpu_count_per_node_is_not_a_second_total(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: "8 gpus (2 nodes x 4 gpus)" paused as "gpus said twice with different values (8 and 4)", and the
    workflow was named "train-resnet-nodes". Now 2 nodes x 4 GPUs is the 8 GPUs said, and planned without a pause."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    main(["run", "train a small classifier with 8 gpus (2 nodes x 4 gpus) for 1 epoch", "--no-input"])
    said = " ".join((lambda o: o.out + o.err)(capsys.readouterr()).split())
    assert "said twice" not in said and "gpus=8" in said, said
    for request_text in ("train resnet on 2 nodes x 4 gpus (8 gpus)", "16 gpus total, 8 gpus per node on 2 nodes"):
        got = parse_request(request_text)
        assert (got.unusable, got.gpus) == ([], 16 if "16" in request_text else 8), request_text
    assert parse_request("train resnet with 8 gpus (2 nodes x 4 gpus)").name == "train-resnet"
    # a total that does not fit what each node gets is still asked about, saying which count was per node
    unusable = parse_request("train resnet with 8 gpus (2 nodes x 2 gpus)").unusable
    assert unusable == ["gpus said twice with different values (8 and 2 per node): say it once"]


def test_batch_on_each_of_n_gpus_names_no_model() -> None:
    """ "batch 32 on each of 4 gpus": "each" after "on" is not a model or dataset to find."""
    got = parse_request("train bert with batch 32 on each of 4 gpus")
    assert (got.subject, got.batch_size, got.gpus, got.name) == ("bert", 32, 4, "train-bert")
    assert parse_request("train with batch 32 on each of 4 gpus").subject is None
