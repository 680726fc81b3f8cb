"""The unschedulable family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["b-0014", "b-0117", "b-0184"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "unschedulable"


def test_a_scheduler_verdict_without_itemised_reasons() -> None:
    log = "  Warning  FailedScheduling  12s  default-scheduler  0/2 nodes are available: 2 Too many pods.\n"
    assert diagnose_log_text(log).label == "unschedulable"
    bare = "Warning FailedScheduling 3m default-scheduler 0/2 nodes are available.\n"
    d = diagnose_log_text(bare)
    assert (d.label, d.fix.kind) == ("unschedulable", "change_resources_or_wait")


@pytest.mark.parametrize(
    "log",
    [
        "salloc: error: QOSMaxSubmitJobPerUserLimit\n",
        "  Warning  Pending  4m  kueue-admission  couldn't assign flavors to pod set job: resource cpu unavailable "
        "in ClusterQueue\n",
    ],
)
def test_scheduler_limits_and_admission(log: str) -> None:
    assert diagnose_log_text(log).label == "unschedulable", log


def test_squeue_pending_reasons_without_parentheses() -> None:
    log = "$ squeue -h -o '%i %P %u %T %r %l'\n11 debug frank PENDING PartitionTimeLimit 2:00:00\n"
    assert diagnose_log_text(log).label == "unschedulable"
