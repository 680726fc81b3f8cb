"""The segfault family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["a-0027", "a-0061"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "segfault"


def test_exit_139_is_a_native_crash_fixed_by_matching_library_versions() -> None:
    d = diagnose_log_text("Process finished with exit code 139 (interrupted by signal 11: SIGSEGV)\n")
    assert (d.label, d.fix.kind) == ("segfault", "add_dependency")
