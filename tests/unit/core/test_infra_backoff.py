"""The wait before an infrastructure retry doubles from the configured base and stops growing at a minute."""

from __future__ import annotations

from runshepherd.config import load_settings
from runshepherd.nodes.cadence import INFRA_BACKOFF_MAX, infra_backoff


def test_the_default_waits_five_ten_then_twenty_seconds_before_its_three_retries() -> None:
    fixes = load_settings(environ={}, flags={}).fixes
    waits = [infra_backoff(fixes.infra_backoff_seconds, n) for n in range(1, fixes.max_infra_retries + 1)]
    assert waits == [5, 10, 20]


def test_a_large_base_or_a_late_retry_waits_at_most_a_minute() -> None:
    assert infra_backoff(45, 2) == INFRA_BACKOFF_MAX == 60
    assert infra_backoff(5, 10) == 60


def test_a_zero_base_does_not_wait() -> None:
    assert infra_backoff(0, 3) == 0
