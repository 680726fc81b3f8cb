"""The healthy family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["a-0192", "a-0190", "b-0148"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "healthy"


def test_benign_noise_is_healthy_and_says_it_has_no_proof_of_progress() -> None:
    log = "NCCL INFO Bootstrap : Using eth0\n/x.py:3: UserWarning: deprecated\n  warnings.warn(\n"
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence < 0.8 and "nothing in it confirms" in d.explanation
