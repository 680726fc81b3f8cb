"""The output_missing family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["b-0054", "b-0051", "b-0122"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "output_missing"


def test_workflow_engines_missing_outputs_and_the_spec_typo() -> None:
    nf = "Caused by:\n  Missing output file(s) `log.txt` expected by process `bbduk (1)`\n"
    d = diagnose_log_text(nf)
    assert (d.label, d.fix.kind) == ("output_missing", "fix_code")
    typo = diagnose_log_text("python train.py --out {{outputs}}/model\n")
    assert (typo.label, typo.fix.kind) == ("output_missing", "fix_path")
