"""The gpu_oom family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["a-0005", "a-0081"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "gpu_oom"


def test_driver_api_and_xla_wordings_of_gpu_oom() -> None:
    for line in (
        "RuntimeError: CUDA_ERROR_OUT_OF_MEMORY: out of memory",
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 2.1GiB.",
        "2024-01-01 E external/xla/xla/pjrt/pjrt_stream_executor_client.cc:2716] Resource exhausted: "
        "Failed to allocate request for 1.00GiB (1073741824B) on device ordinal 0",
    ):
        d = diagnose_log_text(line + "\n")
        assert (d.label, d.fix.kind) == ("gpu_oom", "reduce_memory"), line
