"""The device_assert family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["a-0023", "a-0068", "a-0070"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "device_assert"


def test_an_index_assert_in_a_kernel_is_a_code_fix() -> None:
    log = "/pytorch/aten/src/ATen/native/cuda/Loss.cu:240: block: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("device_assert", "fix_code")
