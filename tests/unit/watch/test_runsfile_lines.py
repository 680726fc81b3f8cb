"""A runs file's field error names FILE:LINE, as a config or a spec error does. Before: `runs.yaml: runs.1.notify:
Input should be a valid list`, and the person counted list items to find it."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.errors import UsageError
from runshepherd.watch.runsfile import load_runs


def test_a_bad_field_of_the_second_run_names_its_line(tmp_path: Path) -> None:
    runs = tmp_path / "runs.yaml"
    runs.write_text(
        "runs:\n"
        "  - id: a\n"
        "    workflow_id: a-1\n"
        "  - id: b\n"
        "    workflow_id: b-1\n"
        "    notify: https://hooks.example.com/x\n"
    )
    with pytest.raises(UsageError) as err:
        load_runs(runs)
    assert str(err.value).startswith(f"{runs}:6: runs.1.notify: Input should be a valid list"), str(err.value)


def test_an_empty_runs_list_names_the_file(tmp_path: Path) -> None:
    """Was "say what to watch: orchestrate watch ID, or --runs runs.yaml" — to a person who had given --runs."""
    runs = tmp_path / "runs.yaml"
    runs.write_text("# nothing yet\nruns: []\n")
    with pytest.raises(UsageError) as err:
        load_runs(runs)
    assert str(err.value).startswith(f"{runs}:2: `runs:` lists no run — add one (the shape is runs: a list"), err
