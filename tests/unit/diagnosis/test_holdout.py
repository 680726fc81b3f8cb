"""The blind holdout corpus (written without reading the rules) and the generalisations it motivated.

The holdout is scored the way the hidden corpus is: one bare log at a time, label only.
"""

from __future__ import annotations

import json
from pathlib import Path

from runshepherd.diagnosis import LABELS, diagnose_log_text

HOLDOUT = Path(__file__).resolve().parents[2] / "data" / "diagnosis_holdout"
LABELS_FILE: dict[str, str] = json.loads((HOLDOUT / "labels.json").read_text())


def test_holdout_is_big_varied_and_uses_known_labels() -> None:
    assert len(LABELS_FILE) >= 90
    assert sum(v == "healthy" for v in LABELS_FILE.values()) >= 20
    assert set(LABELS_FILE.values()) <= set(LABELS)
    assert len(set(LABELS_FILE.values())) >= 20


def test_holdout_accuracy_at_least_90_percent_no_healthy_flagged_under_50ms() -> None:
    got: dict[str, str] = {}
    for name in LABELS_FILE:  # speed is a benchmark bar (benchmarks/bench_diagnosis.py), not asserted here
        got[name] = diagnose_log_text((HOLDOUT / name).read_text(encoding="utf-8"), name).label
    correct = sum(got[n] == lab for n, lab in LABELS_FILE.items())
    assert correct / len(LABELS_FILE) >= 0.90, {n: (lab, got[n]) for n, lab in LABELS_FILE.items() if got[n] != lab}
    assert [n for n, lab in LABELS_FILE.items() if lab == "healthy" and got[n] != "healthy"] == []


def _label(lines: list[str]) -> str:
    return diagnose_log_text("\n".join(lines)).label


def test_an_error_retried_successfully_is_not_the_verdict() -> None:
    retried = [
        "Traceback (most recent call last):",
        '  File "fetch.py", line 3, in get',
        "    raise ConnectionError(e)",
        "requests.exceptions.ConnectionError: Max retries exceeded with url: /index.json",
        "attempt 1/3 failed; retrying in 2s",
        "attempt 2/3 succeeded",
        "step 100 loss 0.5",
    ]
    assert _label(retried) == "healthy"
    # the same retry followed by a real error: the real error is the verdict
    assert _label(retried + ["KeyError: 'label'"]) == "user_code_error"


def test_a_retry_that_fails_again_is_still_a_failure() -> None:
    lines = [
        "requests.exceptions.ConnectionError: Max retries exceeded with url: /model.bin",
        "Retrying in 1s [Retry 1/2].",
        "requests.exceptions.ConnectionError: Max retries exceeded with url: /model.bin",
        "Retrying in 2s [Retry 2/2].",
        "OSError: We couldn't connect to 'https://huggingface.co' to load this file",
    ]
    assert _label(lines) == "network_download"


def test_retry_without_proof_of_success_keeps_the_error() -> None:
    lines = [
        "wandb: Network error (ConnectionError), entering retry loop.",
        "srun: error: n1: task 0: Exited with exit code 1",
    ]
    assert _label(lines) == "network_download"


def test_image_pulled_on_a_later_attempt_is_healthy_but_another_image_does_not_count() -> None:
    failed = 'Warning  Failed   Failed to pull image "ghcr.io/a/eval:1": rpc error: code = Unavailable desc = connection reset by peer'
    again = 'Normal   Pulling  Pulling image "ghcr.io/a/eval:1"'
    assert (
        _label(
            [
                failed,
                again,
                'Normal   Pulled   Successfully pulled image "ghcr.io/a/eval:1" in 4s',
                "Normal   Started  Started container eval",
            ]
        )
        == "healthy"
    )
    assert _label([failed, 'Normal   Pulled   Successfully pulled image "osmo/ctrl:2" in 1s']) == "image_pull"


def test_c10d_info_lines_are_not_distributed_failures() -> None:
    lines = [
        "[I socket.cpp:480] [c10d] waitForInput: socket SocketImpl(fd=3) timed out after 0ms",
        "FileNotFoundError: [Errno 2] No such file or directory: '/data/train.jsonl'",
    ]
    assert _label(lines) == "file_not_found"


def test_quoted_source_under_a_timestamp_prefix_is_not_evidence() -> None:
    lines = [
        "2026/05/01 10:00:00 [train] Traceback (most recent call last):",
        '2026/05/01 10:00:00 [train]   File "loader.py", line 9, in load',
        "2026/05/01 10:00:00 [train]     raise ConnectionError('cache miss')",
        "2026/05/01 10:00:00 [train] KeyError: 'shard_7'",
    ]
    d = diagnose_log_text("\n".join(lines))
    assert d.label == "user_code_error"
    assert d.evidence == [lines[-1]]


def test_pip_without_network_is_a_network_failure_not_a_missing_package() -> None:
    retry = (
        "  WARNING: Retrying (Retry(total=0, connect=None, read=None)) after connection broken by "
        "'NewConnectionError(': Failed to establish a new connection: [Errno -2] Name or service not known')': /simple/x/"
    )
    tail = [
        "ERROR: Could not find a version that satisfies the requirement x (from versions: none)",
        "ERROR: No matching distribution found for x",
    ]
    assert _label([retry] + tail) == "network_download"
    assert _label(tail) == "missing_dependency"


def test_empty_upload_reported_as_a_warning_is_output_missing() -> None:
    lines = [
        "Saved model to /workspace/model",
        "Task exited with code 0",
        "WARNING: output directory /osmo/output is empty; nothing will be uploaded",
    ]
    assert _label(lines) == "output_missing"


def test_short_wordings_of_known_families() -> None:
    assert (
        _label(["ERROR: Resource validation failed for task train:", '  Value "1000000" too high for label memory'])
        == "validation_error"
    )
    assert _label(["timeout: sending signal TERM to command 'python'", "exit status 124"]) == "timeout"
    assert (
        _label(["fatal: could not read Username for 'https://github.com': terminal prompts disabled"])
        == "permission_or_auth"
    )
    assert (
        _label(['botocore.exceptions.EndpointConnectionError: Could not connect to the endpoint URL: "https://s3/x"'])
        == "network_download"
    )
    assert (
        _label(
            [
                "E0501 10:00:02.000 1 cuda_dnn.cc:535] Loaded runtime CuDNN library: 8.6.0 but source was compiled "
                "with: 8.9.4.",
                "XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed.",
            ]
        )
        == "cuda_driver"
    )
    assert (
        _label(['Error from server (Forbidden): pods "t" is forbidden: exceeded quota: gpu-quota']) == "unschedulable"
    )
