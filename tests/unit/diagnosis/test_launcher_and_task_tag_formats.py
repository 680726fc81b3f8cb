"""The launcher table and OSMO's task tags (runshepherd/diagnosis/formats/launchers.py, task_tags.py) as the engine
reads them, and the engine's independence from any backend: the spec's declared outputs come from spec/outputs.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from runshepherd.diagnosis.formats.launchers import LAUNCH
from runshepherd.diagnosis.formats.task_tags import TAGGED_EVENT, task_tag
from runshepherd.spec.outputs import declared_outputs

ENGINE = Path(__file__).resolve().parents[3] / "runshepherd" / "diagnosis" / "engine.py"


@pytest.mark.parametrize(
    ("line", "starts_a_run"),
    [
        ("torchrun --nproc-per-node 8 train.py", True),
        ("python3.11 -m pkg", True),
        ("cd /w && ./run.sh", True),
        ("accelerate launch x", True),
        ("tmux attach -t 0", False),
        ("nvidia-smi", False),
        ("pythonic", False),
    ],
)
def test_a_command_line_that_starts_a_run(line: str, starts_a_run: bool) -> None:
    assert bool(LAUNCH.search(line)) is starts_a_run


def test_a_task_tag_and_a_tagged_event() -> None:
    tag = task_tag("train")
    assert tag.search("2024-05-01 10:00:00 [train retry-2] Pod failed") and not tag.search("[train-2] x")
    assert TAGGED_EVENT.match("2024-05-01 10:00:00 [eval] Scheduled")
    assert not TAGGED_EVENT.match("Warning  FailedScheduling  0/4 nodes are available")


def test_declared_outputs_are_read_from_flat_and_grouped_tasks() -> None:
    spec = """workflow:
  name: w
  tasks:
  - name: a
    outputs: [{url: s3://b/a}, {dataset: {name: d}}]
  groups:
  - name: g
    tasks:
    - name: b
      outputs: [{url: {path: s3://b/b}}]
  - not-a-group
"""
    assert declared_outputs(spec) == {"a": ["s3://b/a"], "b": ["s3://b/b"]}
    assert declared_outputs("workflow: [") == {}


def test_the_engine_imports_no_backend() -> None:
    imported: list[str] = []
    for n in ast.walk(ast.parse(ENGINE.read_text(encoding="utf-8"))):  # imports inside functions too
        if isinstance(n, ast.ImportFrom):
            imported.append(n.module or "")
        elif isinstance(n, ast.Import):
            imported += [a.name for a in n.names]
    assert imported and not [m for m in imported if m.startswith("runshepherd.backends")], imported
