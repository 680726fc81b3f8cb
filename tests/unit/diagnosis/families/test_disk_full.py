"""The disk_full family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["b-0142", "b-0056", "b-0057"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "disk_full"


def test_an_image_that_cannot_be_unpacked_for_lack_of_space_is_disk_full() -> None:
    log = (
        "slurmstepd: error: pyxis: failed to import docker image\n"
        "slurmstepd: error: pyxis:     Write failed because No space left on device\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("disk_full", "free_disk")
