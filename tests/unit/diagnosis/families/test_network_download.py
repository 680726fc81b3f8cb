"""The network_download family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["b-0173", "b-0079", "b-0024"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "network_download"


def test_a_traceback_ending_in_urllib3_is_the_network_whatever_its_message() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/urllib3/connection.py", line 174, in _new_conn\n'
        "    raise NewThingError(\n"
        "urllib3.exceptions.NewThingError: the far end went quiet\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("network_download", "retry")
