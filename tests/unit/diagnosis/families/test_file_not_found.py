"""The file_not_found family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["b-0168", "b-0105", "b-0103"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "file_not_found"


def test_a_missing_dataset_directory_is_a_path_to_fix() -> None:
    d = diagnose_log_text("ValueError: Dataset does not exist: /data/imagenet/train\n")
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path")
