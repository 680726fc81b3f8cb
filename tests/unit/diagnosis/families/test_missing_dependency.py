"""The missing_dependency family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["a-0020", "a-0051", "a-0166"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "missing_dependency"


def test_package_version_incompatibility_is_a_dependency_to_pin() -> None:
    log = "RuntimeError: jaxlib version 0.4.1 is newer than and incompatible with jax version 0.3.25.\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")
