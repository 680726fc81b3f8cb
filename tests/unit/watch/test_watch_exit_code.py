"""A foreground `orchestrate watch` exits with the watched outcome, as README's exit codes say (was: 0 for a run
that ended FAILED)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from runshepherd.cli.watch import _outcome_code


def _monitor(status: str | None, auth_blocked: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(last_status=status, auth_blocked=auth_blocked)


@pytest.mark.parametrize(
    ("statuses", "code"),
    [
        (["COMPLETED"], 0),
        (["COMPLETED", "COMPLETED"], 0),
        (["FAILED"], 1),
        (["COMPLETED", "FAILED_EXEC_TIMEOUT"], 1),  # any watched run that failed makes the watch fail
        (["FAILED_CANCELED"], 1),  # a canceled run did not complete, as `run` counts it
    ],
)
def test_the_exit_code_is_the_watched_outcome(statuses: list[str], code: int) -> None:
    assert _outcome_code([_monitor(s) for s in statuses]) == code


def test_auth_blocked_stays_4_even_beside_a_failure() -> None:
    monitors = [_monitor("FAILED"), _monitor("RUNNING", auth_blocked="run `osmo login`")]
    assert _outcome_code(monitors) == 4
