"""A key written twice in one mapping is refused with its line, in a spec and in a config. Before, PyYAML kept the
last silently: a task with two `args:` ran with the second only, and `cadence:` twice dropped the first group."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.config import load_settings
from runshepherd.errors import ConfigError
from runshepherd.spec import SpecError, load_spec_file

SPEC = """\
workflow:
  name: dup
  tasks:
  - name: t
    image: python:3.11-slim
    command: [python, train.py]
    args: [--epochs, "3"]
    args: [--lr, "0.1"]
"""


def test_a_spec_key_given_twice_is_named_with_both_lines(tmp_path: Path) -> None:
    (tmp_path / "dup.yaml").write_text(SPEC)
    with pytest.raises(SpecError) as err:
        load_spec_file(tmp_path / "dup.yaml")
    assert "dup.yaml:8" in str(err.value)
    assert "the key 'args' is given twice in one mapping (also on line 7)" in str(err.value)


def test_a_config_key_given_twice_is_named(tmp_path: Path) -> None:
    (tmp_path / "c.yaml").write_text("cadence:\n  short: 5\ncadence:\n  training: 7\n")
    with pytest.raises(ConfigError, match="c.yaml:3: .*the key 'cadence' is given twice .*also on line 1"):
        load_settings(tmp_path / "c.yaml", environ={})


def test_a_key_overriding_a_merged_one_is_not_a_repeat(tmp_path: Path) -> None:
    (tmp_path / "m.yaml").write_text(
        "workflow:\n  name: m\n  tasks:\n  - &base\n    name: a\n    image: python:3.11-slim\n"
        "    command: [echo]\n  - <<: *base\n    name: b\n"
    )
    doc = load_spec_file(tmp_path / "m.yaml")
    assert [t.name for t in doc.workflow.tasks] == ["a", "b"]
