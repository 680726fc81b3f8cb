"""A flag value the person quoted reaches the script whole. Before, `run train.py --run-name 'my first run'`
gave the script `--run-name "'my"` (the quote included, the rest dropped) and named the workflow from the
leftover words."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.experts.heuristic.request import parse_request


@pytest.fixture
def here(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text("import sys\nprint(sys.argv)\n")
    return tmp_path


def test_quoted_values_are_read_whole_without_their_quotes(here: Path) -> None:
    params = parse_request("run train.py --run-name 'my first run' --tags \"a b\" --lr=0.1 --note='x y'", here)
    assert params.flags == [("--run-name", "my first run"), ("--tags", "a b"), ("--lr", "0.1"), ("--note", "x y")]


def test_unquoted_values_are_read_as_before(here: Path) -> None:
    params = parse_request("run train.py --epochs 3 --fp16 on 4 GPUs", here)
    assert params.flags == [("--epochs", "3"), ("--fp16", None)]


def test_shell_text_in_a_quoted_value_is_one_value(here: Path) -> None:
    params = parse_request("run train.py --name '$(touch pwned)' --x ';rm -rf .'", here)
    assert params.flags == [("--name", "$(touch pwned)"), ("--x", ";rm -rf .")]
