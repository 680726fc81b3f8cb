"""The shipped gate table (runshepherd/diagnosis/gates.json): current, read when it holds a pattern, and never
trusted when it was written by another Python or lacks the pattern (then the gate is worked out as before)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from runshepherd.diagnosis import gatetable
from runshepherd.diagnosis.prefilter import gate_for


def test_the_shipped_table_is_what_the_current_patterns_give(capsys: pytest.CaptureFixture[str]) -> None:
    # fails after a rule's regex is edited without `python -m runshepherd.diagnosis.gatetable --write`
    assert gatetable.main(["--check"]) == 0, capsys.readouterr().err


def test_a_pattern_the_table_holds_takes_its_gate_from_it(monkeypatch: pytest.MonkeyPatch) -> None:
    regex = re.compile(r"CUDA out of memory", re.IGNORECASE)
    table = {kind: {} for kind in gatetable.KINDS}
    table["gates"][f"{regex.flags}:{regex.pattern}"] = [True, [["from the table"]]]
    monkeypatch.setattr(gatetable, "_table", table)
    gate = gate_for(regex)
    assert gate is not None and gate.clauses == (("from the table",),)


def test_a_pattern_the_table_lacks_has_its_gate_worked_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gatetable, "_table", {kind: {} for kind in gatetable.KINDS})
    gate = gate_for(re.compile(r"Quux(?:Error|Failure): disk (?:gone|lost)", re.IGNORECASE))
    assert gate is not None and gate.icase
    # every match holds one of the four spellings, and nothing else is certain
    assert set(gate.clauses[0]) == {
        "quuxerror: disk gone",
        "quuxerror: disk lost",
        "quuxfailure: disk gone",
        "quuxfailure: disk lost",
    }


def test_a_table_written_by_another_python_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    regex = re.compile(r"No space left on device", re.IGNORECASE)
    other = tmp_path / "gates.json"
    bogus = {"python": "2.7", "gates": {f"{regex.flags}:{regex.pattern}": [True, [["bogus"]]]}, "splits": {}}
    other.write_text(json.dumps(bogus), encoding="utf-8")
    monkeypatch.setattr(gatetable, "FILE", other)
    monkeypatch.setattr(gatetable, "_table", None)
    gate = gate_for(regex)
    assert gate is not None and gate.clauses == (("no space left on device",),)
