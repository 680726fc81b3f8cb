"""The healthy family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


@pytest.mark.parametrize("case_id", ["a-0192", "a-0190", "b-0148"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "healthy"


def test_benign_noise_is_healthy_and_says_it_has_no_proof_of_progress() -> None:
    log = "NCCL INFO Bootstrap : Using eth0\n/x.py:3: UserWarning: deprecated\n  warnings.warn(\n"
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence < 0.8 and "nothing in it shows progress" in d.explanation


def test_no_error_and_no_sign_of_progress_is_unknown_not_healthy() -> None:
    """A log that shows neither an error nor positive evidence (finished, progress, start-up) cannot be called
    healthy: a job killed silently by its scheduler leaves exactly this."""
    log = "Loading model from /ckpt/base\nLoading dataset shard 3 of 8\nbuilding index for /data/train\n"
    d = diagnose_log_text(log)
    assert d.label == "unknown" and d.confidence < 0.5
    assert "no sign of progress or completion" in d.explanation
    assert d.fix.kind == "none" and "exit code" in d.fix.description


@pytest.mark.parametrize(
    ("log", "why"),
    [
        ("Epoch 3/10\n100/100 [====] - 5s 50ms/step - loss: 0.51", "making progress"),
        ("***** Running training *****\n  Num examples = 3668", "started normally"),
        ("INFO:     Started server process [12625]\nINFO:     Waiting for application startup.", "started normally"),
        ("host:1:1 [0] NCCL INFO comm 0x7f rank 3 nranks 8 cudaDev 3 nvmlDev 3 - Init COMPLETE", "started normally"),
        ("Number of trials: 4/4 (4 TERMINATED)", "finished"),
        ("NAME          STATE       TIME\nmnist-job     Succeeded   2022-06-20T23:28:35Z", "finished"),
    ],
)
def test_positive_evidence_in_other_wordings_is_healthy(log: str, why: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "healthy" and why in d.explanation and d.evidence


@pytest.mark.parametrize(
    "log",
    [
        # a warning the DDP reducer raises in the backward pass, wrapped over several lines: a step ran
        "[W reducer.cpp:1050] Warning: find_unused_parameters=True was specified in DDP constructor, but did not find\n"
        "any unused parameters. This flag results in an extra traversal of the autograd graph every iteration.\n",
        # throughput written name-first, and evaluation metrics
        "INFO:tensorflow:global_step/sec: 0.922679\nINFO:tensorflow:examples/sec: 14.7629\n",
        "knn val_top1: 0.3464199900627136\nknn val_top5: 0.6211400032043457\nRunning linear evaluation...\n",
        # torchrun's banner as it starts the workers
        "WARNING:__main__:\n*****************************************\nSetting OMP_NUM_THREADS environment variable "
        "for each process to be 1 in default, to avoid your system being overloaded\n"
        "*****************************************\n",
    ],
)
def test_positive_evidence_written_other_ways(log: str) -> None:
    assert diagnose_log_text(log).label == "healthy", log


def test_a_failed_cuda_initialisation_reported_as_a_warning_is_not_routine_noise() -> None:
    log = (
        "/venv/lib/python3.6/site-packages/torch/cuda/__init__.py:52: UserWarning: CUDA initialization: Found no "
        "NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver\n"
        "  return torch._C._cuda_getDeviceCount() > 0\nPyTorch version: 1.7.0+cu110\n"
    )
    assert diagnose_log_text(log).label == "cuda_driver"


def test_retries_that_never_get_through_are_not_routine_noise() -> None:
    log = (
        "WARNING: Retrying (Retry(total=4, connect=None)) after connection broken by 'NewConnectionError()': /simple/x/\n"
        "WARNING: Retrying (Retry(total=3, connect=None)) after connection broken by 'NewConnectionError()': /simple/x/\n"
    )
    assert diagnose_log_text(log).label != "healthy"
