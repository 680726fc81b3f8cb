"""The nccl_or_distributed family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["a-0072"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "nccl_or_distributed"


def test_a_rendezvous_store_that_never_answers() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.9/site-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py", '
        "line 155, in _create_tcp_store\n"
        "    store = TCPStore(\n"
        "RuntimeError: connect() timed out. Original timeout was 60000 ms.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.origin, d.fix.kind) == ("nccl_or_distributed", "infra", "retry")
