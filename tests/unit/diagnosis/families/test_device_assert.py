"""The device_assert family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases


@pytest.mark.parametrize("case_id", ["a-0023", "a-0068", "a-0070"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "device_assert"


def test_an_index_assert_in_a_kernel_is_a_code_fix() -> None:
    log = (
        "../aten/src/ATen/native/cuda/Indexing.cu:1146: indexSelectLargeIndex: block: [316,0,0], thread: [62,0,0] "
        "Assertion `srcIndex < srcSelectDimSize` failed.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("device_assert", "fix_code")


@pytest.mark.parametrize(
    "line",
    [
        "/pytorch/aten/src/ATen/native/cuda/Loss.cu:240: block: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.",
        "/x/aten/src/ATen/native/cuda/Loss.cu:94: operator(): block: [0,0,0], thread: [96,0,0] Assertion "
        "`input_val >= zero && input_val <= one` failed.",
    ],
)
def test_an_assert_in_a_loss_kernel_points_to_the_data_or_the_learning_rate(line: str) -> None:
    """The loss checks its inputs: targets outside the classes (labels in the data) or probabilities outside
    [0, 1] (predictions gone NaN); the threads fix the data or lower the learning rate."""
    d = diagnose_log_text(line + "\n")
    assert (d.label, d.fix.kind) == ("device_assert", "lower_lr_or_fix_data")
    assert "learning rate" in d.fix.description


@root_line_cases(("a-0025", "nll_loss2d_forward_kernel: block: [3,0,0], thread: [933,0,0] Assertion"))
def test_root_line_vocabulary_reads_device_assert(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "device_assert", quoted)


def test_a_device_side_assert_caught_and_logged_as_a_warning_is_still_the_failure() -> None:
    # each model load fails with the sticky CUDA error, logged as "Warning: Failed to load …" (retired blind v22)
    d, _, _ = diagnose_dev("zzzv-0109")
    assert d.label == "device_assert"


def test_an_assert_in_host_cpp_code_is_no_gpu_kernels_assert() -> None:
    kernel = (
        "/pytorch/aten/src/ATen/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
        "thread: [1,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
    )
    assert diagnose_log_text(kernel).label == "device_assert"
    host = (
        "RuntimeError: torch/csrc/autograd/input_buffer.cpp:14: add: Assertion `pos >= 0 && pos < buffer.size()` "
        "failed.\n"
    )
    assert diagnose_log_text(host).label != "device_assert"
