"""A spec holding a character YAML refuses (a NUL, a BEL pasted from a terminal) is named by line and character.

Before: 'nul.yaml: YAML syntax error: unacceptable character #x0000: special characters are not allowed — YAML
indentation must use spaces, not tabs' — no line, and a hint about tabs (the word 'unacceptable' holds 'tab')."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.spec import SpecError, load_spec_file

HEAD = "workflow:\n  name: x\n  tasks:\n  - name: t\n    image: python:3.11-slim\n"


@pytest.mark.parametrize(
    ("text", "line", "code", "escape"),
    [
        (HEAD + '    command: [echo, "a\x07b"]\n', 6, "#x0007", '"\\x07"'),
        ("workflow:\n  name: x\x00y\n", 2, "#x0000", '"\\x00"'),
        (HEAD + "    command: [echo, hi]\ndefault-values:\n  lr: 0.1\x01\n", 8, "#x0001", '"\\x01"'),
    ],
)
def test_the_refused_character_is_named_with_its_line(
    tmp_path: Path, text: str, line: int, code: str, escape: str
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(text)
    with pytest.raises(SpecError) as err:
        load_spec_file(spec)
    said = str(err.value)
    assert f"spec.yaml:{line}" in said and code in said and escape in said, said
    assert "tabs" not in said, said


def test_a_tab_still_says_tabs(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("workflow:\n\tname: x\n")
    with pytest.raises(SpecError) as err:
        load_spec_file(spec)
    assert "spec.yaml:2" in str(err.value) and "spaces, not tabs" in str(err.value)
