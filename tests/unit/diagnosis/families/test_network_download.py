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


@pytest.mark.parametrize(
    "log",
    [
        "urllib.error.HTTPError: HTTP Error 403: rate limit exceeded\n",
        "ERROR: cannot verify www.cs.toronto.edu's certificate, issued by 'CN=R3,O=Let's Encrypt,C=US':\n",
        "Connecting to host.example.org|129.67.94.152|:80... failed: Connection timed out.\nGiving up.\n",
    ],
)
def test_rate_limits_certificates_and_wget_giving_up(log: str) -> None:
    assert diagnose_log_text(log).label == "network_download", log
