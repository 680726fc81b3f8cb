"""The validation_error family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["b-0082", "b-0194", "b-0172"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "validation_error"


def test_rejected_configuration_in_several_wordings() -> None:
    for log in (
        "train.py: error: unrecognized arguments: --local_rank=2\n",
        "pydantic_core._pydantic_core.ValidationError: 2 validation errors for TrainConfig\n",
        "  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n",
        "Error merging override trainer.max_step=1000\n",
    ):
        d = diagnose_log_text(log)
        assert (d.label, d.origin, d.fix.kind) == ("validation_error", "config", "fix_code"), log
