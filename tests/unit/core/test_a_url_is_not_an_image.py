"""draft read the host of a data URL as a container image: "train a small classifier on https://example.com/x.csv"
drafted `image: example.com/x.csv` (the job could never start) and said nothing of the URL. A URL is a location:
the image stays the template's, and the plan names the URL the demo cannot read; an image named as one still is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main


@pytest.mark.parametrize("url", ["https://example.com/x.csv", "https://huggingface.co/datasets/imdb"])
def test_a_data_url_is_not_drafted_as_the_image(here: Path, url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", f"train a small classifier on {url}", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert "image: python:3.11-slim" in doc["spec"] and f"image: {url.split('://')[1]}" not in doc["spec"]
    assert any(f"data URL {url}" in n for n in doc["notes"]), doc["notes"]


def test_an_image_named_as_one_is_still_used(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "train with image ghcr.io/me/img:1 on data s3://b/in", "--json"]) == 0
    spec = json.loads(capsys.readouterr().out)["spec"]
    assert "image: ghcr.io/me/img:1" in spec and "url: s3://b/in" in spec
