"""A secret's variable name is never a model, a dataset or the thing to train. Before: after the token was left
out of `orchestrate draft "fine-tune model HF_TOKEN=hf_… for 2 epochs"`, the plan said "model/dataset HF_TOKEN
… not honoured" and asked for a script to train HF_TOKEN."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main

TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"


@pytest.mark.parametrize(
    "request_text",
    [
        f"fine-tune model HF_TOKEN={TOKEN} for 2 epochs",
        "train a classifier using model HF_TOKEN",
        "train with my HF_TOKEN on imdb dataset",
        "train a small classifier with dataset WANDB_API_KEY",
    ],
)
def test_draft_never_reads_a_secret_name_as_a_model(
    here: Path, capsys: pytest.CaptureFixture[str], request_text: str
) -> None:
    assert main(["draft", request_text, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    said = json.dumps(doc["notes"]) + doc["name"]
    assert "HF_TOKEN" not in said and "WANDB_API_KEY" not in said and "-hf" not in doc["name"], doc
    assert TOKEN not in json.dumps(doc)


def test_a_real_model_next_to_a_secret_is_still_named(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "train with my HF_TOKEN on imdb dataset", "--json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert any("model/dataset imdb (no script was named" in n for n in notes), notes
