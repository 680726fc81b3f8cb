"""The host_oom family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["a-0188", "a-0089", "a-0093"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "host_oom"


def test_ray_and_lsf_memory_kills() -> None:
    ray = (
        "(raylet) [2025-04-02 15:02:00,117 E 135782 135782] (raylet) node_manager.cc:3069: 1 Workers (tasks / "
        "actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node\n"
    )
    assert diagnose_log_text(ray).label == "host_oom"
    assert diagnose_log_text("TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.\n").label == "host_oom"


def test_exit_137_alone_is_only_probably_memory() -> None:
    d = diagnose_log_text("srun: error: node1: task 0: Exited with exit code 137\n")
    assert d.label == "host_oom" and d.confidence <= 0.6 and d.what_would_confirm
