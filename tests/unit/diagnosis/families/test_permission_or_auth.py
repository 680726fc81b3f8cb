"""The permission_or_auth family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["b-0019", "b-0017", "b-0182"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "permission_or_auth"


def test_gated_model_needs_credentials() -> None:
    d = diagnose_log_text("huggingface_hub.errors.GatedRepoError: 401 Client Error. Cannot access gated repo\n")
    assert (d.label, d.fix.kind) == ("permission_or_auth", "fix_credentials")
