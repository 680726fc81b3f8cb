"""Cases of the real-log corpus for the family tests: DEV split only (the blind split is never read by tests)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from runshepherd.diagnosis import Diagnosis, diagnose_log_text
from runshepherd.diagnosis.engine import log_context, root_reading, rules_verdict
from runshepherd.diagnosis.rules import Context, Signal

ROOT = Path(__file__).resolve().parents[3] / "data" / "diagnosis_real"
VALIDATION_PARTS = ("c-", "d-", "e-")


def _split_of(case_id: str) -> str:
    spec = importlib.util.spec_from_file_location("diagnosis_real_split", ROOT / "split.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return str(mod.split_of(case_id))


def dev_case(case_id: str) -> tuple[str, dict[str, str]]:
    """The log text and the record of one DEV case; a blind id is refused."""
    assert _split_of(case_id) == "dev", f"{case_id} is in the blind split: tests may only use dev cases"
    # parts c, d and e were blind v2 and are kept as a validation set, scored only in aggregate: no test uses them
    assert not case_id.startswith(VALIDATION_PARTS), f"{case_id} is in the validation set: tests may not use it"
    part = ROOT / f"part-{case_id.split('-', 1)[0]}.jsonl"
    record = next(json.loads(line) for line in part.read_text(encoding="utf-8").splitlines() if f'"{case_id}"' in line)
    return (ROOT / "logs" / f"{case_id}.log").read_text(encoding="utf-8"), record


def diagnose_dev(case_id: str) -> tuple[Diagnosis, str, dict[str, str]]:
    text, record = dev_case(case_id)
    d = diagnose_log_text(text, case_id)
    assert all(e in text for e in d.evidence), "evidence must be verbatim lines of the log"
    return d, text, record


def root_line_cases(*cases: tuple[str, str]) -> pytest.MarkDecorator:
    """A family test's DEV cases for the root-line reading: (case id, a verbatim part of the line it reads)."""
    return pytest.mark.parametrize(("case_id", "quoted"), list(cases))


def assert_read_as(case_id: str, label: str, quoted: str) -> None:
    """The root-line reading of a DEV case names ``label``, weakly, quoting the line and saying it is a reading."""
    s = read_dev(case_id)
    assert s is not None and s.label == label and 0.5 <= s.strength <= 0.65, s
    assert any(quoted in e for e in s.evidence) and "reading of one line" in s.explanation


def read_dev(case_id: str) -> Signal | None:
    """The root-line reading (the backoff before "unknown", rootline.py) of one DEV case, a pure function of its log:
    what the verdict would say if no rule had named the failure."""
    text, _ = dev_case(case_id)
    return root_reading(Context.build(log_lines=text.splitlines()))


def rules_dev(case_id: str) -> tuple[Diagnosis, dict[str, str]]:
    """The rules' reading of one DEV case (``read_by_rules``) and its record."""
    text, record = dev_case(case_id)
    d = read_by_rules(text)
    assert all(e in text for e in d.evidence), "evidence must be verbatim lines of the log"
    return d, record


def read_by_rules(text: str) -> Diagnosis:
    """The rules' reading of a log, before the learned model may dispute its confidence (the label is the product's:
    test_learned.py). A distinction the rules make on purpose is tested here."""
    return rules_verdict(log_context(text))
