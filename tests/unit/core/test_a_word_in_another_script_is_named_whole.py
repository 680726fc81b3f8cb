"""A word with a letter outside A-Z is named as typed. Before: "train a ѕmall classifier" (its ѕ is Cyrillic U+0455)
asked about "model/dataset mall", a word the person never wrote; "train ｒesnet50" (a fullwidth ｒ) about "esnet50"."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runshepherd.cli.main import main


@pytest.mark.parametrize(
    ("request_", "named"), [("train a ѕmall classifier", "ѕmall"), ("train ｒesnet50", "ｒesnet50")]
)
def test_the_word_is_named_as_typed(
    here: Path, request_: str, named: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", request_, "--no-input"]) == 3
    out = capsys.readouterr()
    said = " ".join((out.out + out.err).split())
    assert f"missing: model/dataset {named} (" in said, said


def test_a_split_of_the_data_is_not_a_model(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'evaluate ./model.pt on the test set' asked about 'model/dataset test': a split of the data, not a name."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "evaluate ./model.pt on the test set", "--no-input"]) == 3
    out = capsys.readouterr()
    said = " ".join((out.out + out.err).split())
    assert "missing: checkpoint ./model.pt" in said and "model/dataset test" not in said, said
