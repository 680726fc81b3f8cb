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


def test_a_need_beyond_the_whole_device_asks_for_a_bigger_one() -> None:
    tpu = (
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of "
        "memory in memory space hbm. Used 21.90G of 7.48G hbm. Exceeded hbm capacity by 14.42G.\n"
    )
    torch_big = (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 30.00 GiB (GPU 0; 15.78 GiB total capacity; "
        "2.00 GiB already allocated)\n"
    )
    torch_small = (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.78 GiB total capacity; "
        "15.50 GiB already allocated)\n"
    )
    assert diagnose_log_text(tpu).fix.kind == "increase_memory"
    assert diagnose_log_text(torch_big).fix.kind == "increase_memory"
    assert diagnose_log_text(torch_small).fix.kind == "reduce_memory"


@pytest.mark.parametrize(
    "log",
    [
        "Exception in main training loop: out of memory to allocate 205520896 bytes (total 16068929536 bytes)\n",
        "F0228 17:38:20.483613  4104 syncedmem.cpp:64] Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n",
    ],
)
def test_cupy_and_caffe_wordings(log: str) -> None:
    assert diagnose_log_text(log).label == "gpu_oom", log


@pytest.mark.parametrize(
    "log",
    [
        "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored "
        "in KV cache (7344). Try increasing `gpu_memory_utilization` or decreasing `max_model_len`.\n",
        "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n",
    ],
)
def test_a_kv_cache_that_does_not_fit_and_a_cublas_handle_that_cannot_be_made(log: str) -> None:
    assert diagnose_log_text(log).label == "gpu_oom", log
