"""A data location written as a URL in a request is never dropped in silence nor misread as a model's name.

Before: "train a small classifier on file:///etc/passwd" planned the demo on synthetic data without a word of the
file; "… on s3://bucket/data" asked about "model/dataset s3". A file:// URL is its local path (read or named like
any path); another URL is a location the local demo cannot read, named in the plan's question."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def _plan(request: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", request, "--no-input"]) == 3  # paused at a question
    out = capsys.readouterr()
    return " ".join((out.out + out.err).split())


def test_a_file_url_to_a_file_the_demo_cannot_read_is_asked_about(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "notes.txt").write_text("x\n")
    said = _plan(f"train a small classifier on file://{here}/notes.txt", monkeypatch, capsys)
    assert f"missing: data path {here}/notes.txt (the demo trainer reads one .npz or .csv file" in said


def test_a_file_url_to_a_csv_is_the_demo_s_data(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "data.csv").write_text("a,b\n1,2\n")
    said = _plan(f"train a small classifier on file://{here}/data.csv", monkeypatch, capsys)
    assert f"the demo trainer reads your data from {here}/data.csv" in said


def test_a_bucket_url_is_named_as_a_location_not_a_model(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    said = _plan("train a small classifier on s3://bucket/data", monkeypatch, capsys)
    assert "missing: data URL s3://bucket/data (the demo trainer reads one local .npz or .csv file" in said
    assert "model/dataset s3" not in said and "train-classifier-s3" not in said


def test_a_bare_data_file_in_the_folder_is_read_like_dot_slash(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'on data.csv' (in the folder) asked about 'model/dataset data.csv … the bundled demo cannot', while
    'on ./data.csv' was read; a name that is not in the folder stays a word ('imdb.csv' may be a hub dataset)."""
    (here / "data.csv").write_text("a,b\n1,2\n")
    said = _plan("train a small classifier on data.csv", monkeypatch, capsys)
    assert "the demo trainer reads your data from data.csv" in said and "model/dataset" not in said, said
