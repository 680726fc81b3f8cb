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


@pytest.mark.parametrize(
    "log",
    [
        "MissingInputException in line 42 of /home/u/rules/Get_data.skm:\nMissing input files for rule x:\n",
        'MountVolume.SetUp failed for volume "data" : hostPath type check failed: /data/x is not a directory\n',
    ],
)
def test_missing_inputs_named_by_workflow_managers_and_the_kubelet(log: str) -> None:
    assert diagnose_log_text(log).label == "file_not_found", log
