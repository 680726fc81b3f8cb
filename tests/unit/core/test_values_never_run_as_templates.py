"""A value given for a template variable is the value, never template code (fresh27's finding): `--sweep
'name={{ 7*7 }}'` ran as 49 (the point's spec is read again as a template) and a `{% for … %}` value looped until the
output budget. Now `--set`, `--sweep` and app parameters holding Jinja's delimiters are refused (exit 2) before
anything is written or submitted."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from runshepherd.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.mark.parametrize("value", ["{{ 7*7 }}", "{% for i in range(10**9) %}x{% endfor %}", "a{# c #}"])
def test_a_set_value_holding_template_syntax_is_refused(
    here: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(EXAMPLES / "templated.yaml", here / "templated.yaml")
    assert main(["validate", "templated.yaml", "--set", f"epochs={value}"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "--set epochs:" in err and "holds template syntax" in err and "give the value itself" in err, err


def test_a_sweep_value_holding_template_syntax_writes_and_submits_nothing(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(EXAMPLES / "sweep-lr.yaml", here / "sweep-lr.yaml")
    assert main(["run", "--spec", "sweep-lr.yaml", "--sweep", "lr={{ 7*7 }},0.1", "--no-input"]) == 2
    assert "--sweep lr: '{{ 7*7 }}' holds template syntax" in " ".join(capsys.readouterr().err.split())
    assert not (here / "state" / "sweeps").exists() or not any((here / "state" / "sweeps").iterdir())


def test_braces_that_are_not_template_syntax_are_a_value() -> None:
    from runshepherd.spec.values import typed_values

    given = {"tag": '{"a": 1}', "note": "50% {x}"}
    assert typed_values(given, {"tag": "x", "note": "y"}, source="s.yaml") == given
