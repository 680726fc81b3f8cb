"""The third blind corpus (holdout2: kubectl describe/get, Ray, Slurm sacct/seff, OSMO prefixes) and the
generalisations it motivated. Scored like the hidden corpus: one bare log at a time, label only.
"""

from __future__ import annotations

import json
from pathlib import Path

from runshepherd.diagnosis import LABELS, diagnose_log_text

HOLDOUT2 = Path(__file__).resolve().parents[2] / "data" / "diagnosis_holdout2"
LABELS_FILE: dict[str, str] = json.loads((HOLDOUT2 / "labels.json").read_text())


def test_holdout2_is_big_varied_and_uses_known_labels() -> None:
    assert len(LABELS_FILE) >= 120
    assert sum(v == "healthy" for v in LABELS_FILE.values()) >= 25
    assert set(LABELS_FILE.values()) <= set(LABELS)
    assert len(set(LABELS_FILE.values())) == 21


def test_holdout2_accuracy_at_least_90_percent_no_healthy_flagged() -> None:
    got = {n: diagnose_log_text((HOLDOUT2 / n).read_text(encoding="utf-8"), n).label for n in LABELS_FILE}
    correct = sum(got[n] == lab for n, lab in LABELS_FILE.items())
    assert correct / len(LABELS_FILE) >= 0.90, {n: (lab, got[n]) for n, lab in LABELS_FILE.items() if got[n] != lab}
    assert [n for n, lab in LABELS_FILE.items() if lab == "healthy" and got[n] != "healthy"] == []


def _label(lines: list[str]) -> str:
    return diagnose_log_text("\n".join(lines)).label


def test_indented_kubectl_describe_events_count_as_events() -> None:
    describe = [
        "Events:",
        "  Type     Reason            Age   From            Message",
        "  ----     ------            ----  ----            -------",
        "  Normal   SuccessfulCreate  4h    job-controller  Created pod: train-nightly-x7k2p",
        "  Warning  DeadlineExceeded  13m   job-controller  Job was active longer than specified deadline",
    ]
    assert _label(describe) == "timeout"


def test_sacct_timeout_row_with_every_default_column() -> None:
    rows = [
        "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode ",
        "------------ ---------- ---------- ---------- ---------- ---------- -------- ",
        "4711            pretrain        gpu    ml-proj         16    TIMEOUT      0:0 ",
        "4711.batch         batch               ml-proj         16  CANCELLED     0:15 ",
    ]
    assert _label(rows) == "timeout"


def test_background_retry_resolved_much_later_is_not_a_failure() -> None:
    lines = ["wandb: Network error (ReadTimeout), entering retry loop."]
    lines += [f"step {i}/4000 loss {2 - i / 4000:.3f}" for i in range(10, 600, 10)]
    lines += ["wandb: Network error resolved after 0:01:12.482930, resuming normal operation."]
    lines += [f"step {i}/4000 loss 1.2" for i in range(600, 700, 10)]
    assert _label(lines) == "healthy"


def test_retried_failure_then_an_unrelated_crash_reports_the_crash() -> None:
    lines = [
        "wandb: Network error (ConnectionError), entering retry loop.",
        *[f"step {i} loss 1.{i}" for i in range(1, 8)],
        "Traceback (most recent call last):",
        '  File "/workspace/metrics.py", line 22, in compute',
        '    return preds["logits"]',
        "TypeError: tuple indices must be integers or slices, not str",
    ]
    assert _label(lines) == "user_code_error"


def test_exception_ignored_at_shutdown_after_success_is_healthy() -> None:
    lines = [
        "Training finished; model saved to /output/final.",
        "Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f5c1a2b3d30>",
        "Traceback (most recent call last):",
        '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1479, in __del__',
        "    self._shutdown_workers()",
        "AssertionError: can only test a child process",
    ]
    assert _label(lines) == "healthy"


def test_auto_batch_size_finder_recovering_from_one_oom_is_healthy() -> None:
    lines = [
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB (GPU 0; 79.15 GiB total capacity)",
        "Reducing batch size to 32 and retrying (find_executable_batch_size)",
        "{'loss': 0.91, 'learning_rate': 1e-05, 'epoch': 0.5}",
        "{'train_runtime': 1234.5, 'train_samples_per_second': 33.1, 'train_loss': 0.88, 'epoch': 1.0}",
    ]
    assert _label(lines) == "healthy"


def test_pip_http_error_is_the_root_not_the_missing_module_after_it() -> None:
    lines = [
        "ERROR: Could not install requirement flash-attn==2.5.8 because of HTTP error HTTPSConnectionPool("
        "host='files.pythonhosted.org', port=443): Read timed out.",
        "+ python train.py",
        "Traceback (most recent call last):",
        '  File "/workspace/train.py", line 9, in <module>',
        "    from flash_attn import flash_attn_func",
        "ModuleNotFoundError: No module named 'flash_attn'",
    ]
    assert _label(lines) == "network_download"


def test_new_wordings_of_known_failures() -> None:
    assert (
        _label(["ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory."])
        == "host_oom"
    )
    assert _label(["RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED"]) == "cuda_driver"
    assert (
        _label(["ImportError: peft>=0.5.0 is required for a normal functioning of this module, but found peft==0.3.0."])
        == "missing_dependency"
    )
    assert (
        _label(
            [
                "botocore.exceptions.ClientError: An error occurred (404) when calling the HeadObject operation: "
                "Not Found"
            ]
        )
        == "file_not_found"
    )
    assert (
        _label(
            [
                'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:research:default" '
                'cannot create resource "pods" in API group "" in the namespace "ml-prod"'
            ]
        )
        == "permission_or_auth"
    )
    assert (
        _label(["aiohttp.client_exceptions.ClientPayloadError: Response payload is not completed"])
        == "network_download"
    )
