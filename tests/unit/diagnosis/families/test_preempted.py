"""The preempted family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["b-0112", "b-0110", "b-0030"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "preempted"


def test_a_node_lost_under_the_job_is_preemption() -> None:
    log = (
        "2022-02-15 16:53:52,096\tWARNING worker.py:1462 -- The node with node id: 8f2 and ip: 10.128.0.103 has been "
        "marked dead because the detector has missed too many heartbeats from it.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.origin, d.fix.kind) == ("preempted", "infra", "resubmit")
