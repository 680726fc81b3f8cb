"""Every number a person gives — the request's words, `--set`, an app's parameters, `--sweep` — is read by one rule
(`runshepherd/number_reading.py`): digits 0-9 only. Before, "epochs=٣" ran 3 epochs from a request unsaid, and
`--set epochs=٣` was cast by int() unsaid; `--set epochs=1e9` was refused quoting '1000000000.0' for a whole-number
field, and absurd values given by `--set` or written into a drafted spec were not warned of (a request's were)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runshepherd.cli.main import main

SPEC = """\
default-values:
  epochs: 2
  lr: 0.1
workflow:
  name: sp
  tasks:
  - name: t
    image: python:3.11-slim
    command: [python, -c, "print({{epochs}}, {{lr}})"]
"""


def _said(capsys: pytest.CaptureFixture[str]) -> str:
    out = capsys.readouterr()
    return " ".join((out.out + out.err).split())


@pytest.mark.parametrize(
    ("given", "typed"),
    [("epochs=٣", "--set epochs=3"), ("epochs=３", "--set epochs=3"), ("lr=٠٫١", "--set lr=0.1")],
)
def test_set_with_other_digits_is_refused_naming_the_field_and_what_to_type(
    here: Path, capsys: pytest.CaptureFixture[str], given: str, typed: str
) -> None:
    (here / "sp.yaml").write_text(SPEC)
    assert main(["run", "--spec", "sp.yaml", "--set", given, "--no-input"]) == 2
    said = _said(capsys)
    key = given.split("=")[0]
    assert f"sp.yaml:{2 if key == 'epochs' else 3} default-values.{key}" in said
    assert f"is written with digits other than 0-9, which are not read as a number — type {typed}" in said


def test_a_sweep_value_with_other_digits_is_refused(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "sp.yaml").write_text(SPEC)
    assert main(["run", "--spec", "sp.yaml", "--sweep", "epochs=1,٣", "--no-input"]) == 2
    assert "--sweep epochs expects a whole number like 2" in _said(capsys)


def test_a_request_with_other_digits_asks_instead_of_reading_them(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "train a small classifier with epochs=٣ on ٤ cpus", "--no-input"]) == 3
    said = _said(capsys)
    assert "epochs '٣' is written with digits other than 0-9, which are not read as a number — type epochs=3" in said
    assert "cpus '٤' is written with digits other than 0-9" in said and "type 4 cpus" in said


def test_set_1e9_epochs_is_a_billion_and_the_plan_says_it_looks_unintended(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    (here / "sp.yaml").write_text(SPEC)
    assert main(["run", "--spec", "sp.yaml", "--set", "epochs=1e9", "--set", "lr=300", "--no-input"]) == 3
    said = _said(capsys)
    assert "1000000000.0" not in said
    assert "--set epochs=1000000000 = 1,000,000,000 looks unintended (runs rarely go above 10,000)" in said
    assert "--set lr=300 looks unintended (runs rarely go above 10)" in said
    assert "Submit sp to pool local? (see the warnings above)" in said


def test_a_whole_number_field_still_refuses_a_fraction(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "sp.yaml").write_text(SPEC)
    assert main(["run", "--spec", "sp.yaml", "--set", "epochs=2.5", "--no-input"]) == 2
    assert "--set epochs expects a whole number like 2 (the type of its default), got '2.5'" in _said(capsys)
