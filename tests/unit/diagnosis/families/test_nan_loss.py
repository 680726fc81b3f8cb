"""The nan_loss family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["a-0212", "a-0057", "a-0119"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "nan_loss"


def test_nan_in_a_progress_bar_and_a_collapsed_loss_scale() -> None:
    bar = "Steps:   0%| | 1/2000 [00:14<8:16:07, 14.89s/it, lr=1e-5, step_loss=nan] OVERFLOW! Rank 0 Skipping step.\n"
    assert diagnose_log_text(bar).label == "nan_loss"
    scale = "".join(f"| WARNING: overflow detected, setting loss scale to: {2.0**-k}\n" for k in range(1, 14))
    assert diagnose_log_text(scale).label == "nan_loss"
    early = "".join(f"| WARNING: overflow detected, setting loss scale to: {2.0**k}\n" for k in range(16, 12, -1))
    assert diagnose_log_text(early + "epoch 1 loss 2.3\n").label == "healthy"
