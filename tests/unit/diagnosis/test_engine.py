"""The signal hierarchy as a user sees it: root error over noise, 137 is not proof, benign warnings, JSON shape."""

from __future__ import annotations

import pytest

from runshepherd.backends.base import Status
from runshepherd.diagnosis import DiagnosisInput, TaskRecord, diagnose, diagnose_log_text
from runshepherd.diagnosis.models import Diagnosis


def test_exit_137_alone_is_low_confidence_memory_with_what_would_confirm() -> None:
    inp = DiagnosisInput(
        status=Status.FAILED,
        tasks=[TaskRecord(name="train", status="FAILED", exit_code=137)],
        log_lines={"train": ["step 10 loss 1.2", "step 20 loss 1.1"]},
    )
    [d] = diagnose(inp)
    assert d.label == "host_oom"
    assert d.confidence < 0.6
    assert d.what_would_confirm and "OOMKilled" in d.what_would_confirm


def test_exit_137_with_time_limit_is_a_timeout_not_memory() -> None:
    log = [
        "step 900 loss 0.3",
        "slurmstepd: error: *** JOB 12 ON n1 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT ***",
    ]
    inp = DiagnosisInput(tasks=[TaskRecord(name="t", status="FAILED", exit_code=137)], log_lines={"t": log})
    assert diagnose(inp)[0].label == "timeout"


def test_root_error_beats_later_noise() -> None:
    log = [
        "Traceback (most recent call last):",
        '  File "train.py", line 3, in <module>',
        "    import cv2",
        "ModuleNotFoundError: No module named 'cv2'",
        "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1)",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
        "wandb: WARNING Network error (ConnectionError), entering retry loop.",
    ]
    d = diagnose_log_text("\n".join(log))
    assert d.label == "missing_dependency"
    assert d.evidence[0] == "ModuleNotFoundError: No module named 'cv2'"
    assert "cv2" in d.explanation


def test_benign_warnings_are_healthy() -> None:
    log = [
        "Some weights of BertModel were not initialized from the model checkpoint and are newly initialized",
        "UserWarning: torch.utils.checkpoint: please pass in use_reentrant explicitly",
        "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0",
        "node:1:2 [0] NCCL WARN NET/IB : No device found.",
        "FutureWarning: This implementation of AdamW is deprecated",
        "step 100 loss 0.91",
    ]
    d = diagnose_log_text("\n".join(log))
    assert d.label == "healthy"
    assert d.fix.kind == "none"


def test_explanations_avoid_kubernetes_jargon() -> None:
    d = diagnose_log_text("2024-01-01T00:00:00Z  Warning  OOMKilled    Reason: OOMKilled, exit code 137")
    assert d.label == "host_oom"
    assert "pod" not in d.explanation.lower() and "oomkilled" not in d.explanation.lower()
    assert "memory" in d.explanation


def test_a_verdict_checkpointed_with_who_named_its_label_still_loads() -> None:
    """Sessions saved before the learned fallback was removed hold `reading` in their diagnosis: they resume."""
    d = diagnose_log_text("/tmp/entry.sh: line 6: jq: command not found")
    old = {**d.model_dump(mode="json"), "reading": "learned"}
    assert Diagnosis.model_validate(old) == d


def test_to_json_matches_the_cli_contract() -> None:
    d = diagnose_log_text("/tmp/entry.sh: line 6: jq: command not found")
    obj = d.to_json("run.log")
    assert set(obj) == {"source", "label", "origin", "confidence", "evidence", "explanation", "fix"}
    assert set(obj["fix"]) == {"kind", "description", "patch", "status"} and obj["fix"]["status"] == "proposed"
    assert (
        obj["source"] == "run.log" and obj["label"] == "missing_dependency" and obj["fix"]["kind"] == "add_dependency"
    )


def test_completed_run_with_caught_errors_is_healthy() -> None:
    inp = DiagnosisInput(
        status=Status.COMPLETED,
        tasks=[TaskRecord(name="t", status="COMPLETED", exit_code=0)],
        log_lines={"t": ["ValueError: retrying with fallback tokenizer", "done"]},
    )
    assert [d.label for d in diagnose(inp)] == ["healthy"]


def test_one_diagnosis_per_failed_group_upstream_ignored() -> None:
    inp = DiagnosisInput(
        status=Status.FAILED,
        tasks=[
            TaskRecord(name="prep", group="g1", status="FAILED", exit_code=1),
            TaskRecord(name="train", group="g2", status="FAILED_UPSTREAM"),
        ],
        log_lines={
            "prep": [
                "Traceback (most recent call last):",
                '  File "p.py", line 1, in <module>',
                "    open(x)",
                "FileNotFoundError: [Errno 2] No such file or directory: '/data/x.csv'",
            ]
        },
    )
    ds = diagnose(inp)
    assert [(d.task, d.label) for d in ds] == [("prep", "file_not_found")]


def test_a_canceled_workflow_is_never_called_preempted() -> None:
    inp = DiagnosisInput(
        status=Status.FAILED_CANCELED,
        tasks=[TaskRecord(name="train", status="FAILED_CANCELED", exit_code=143)],
        log_lines={"train": ["step 10 loss 1.2"]},
    )
    assert all(d.label != "preempted" or d.confidence < 0.5 for d in diagnose(inp))
    assert all(d.origin != "infra" or d.confidence < 0.5 for d in diagnose(inp))


@pytest.mark.parametrize(
    ("case_id", "label"),
    [
        ("zd-0009", "gpu_oom"),  # "slurm_script: line 9: SBATCH: command not found", then CUDA out of memory
        ("zg-0011", "user_code_error"),  # torch's "UserWarning: … driver … too old", then a TypeError
    ],
)
def test_a_non_fatal_line_before_a_programs_own_exception_is_history(case_id: str, label: str) -> None:
    from .families.real import diagnose_dev

    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == label


# a run that printed its own output past a failure line, then died of a traceback another family reads
_RAN_ON = [
    "Failed to import warp: No module named 'warp'",
    "Running with num_envs=1024, num_steps=128",
    "using device cuda",
    "Textures loaded and saved to cache.",
    "Go-Explore enabled: buffer_size=128",
    "PPO_LSTM_Agent(",
    "  (rnn): GRU(512, 512)",
    ")",
    "Traceback (most recent call last):",
    '  File "/src/rl/ppo_lstm.py", line 193, in <module>',
    "    newly = current & ~prev",
    "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
]


def test_a_line_the_program_printed_its_own_output_past_is_history_before_its_exception() -> None:
    d = diagnose_log_text("\n".join(_RAN_ON))
    assert d.label == "user_code_error"
    assert d.evidence[0].startswith("RuntimeError: Expected all tensors")


def test_a_line_followed_at_once_by_the_traceback_is_still_read() -> None:
    # nothing of the program's own between the line and the traceback: it may be what the program died of
    d = diagnose_log_text("\n".join(_RAN_ON[:1] + _RAN_ON[8:]))
    assert d.label == "missing_dependency"


def test_a_ran_on_line_stays_the_cause_when_the_traceback_repeats_its_family() -> None:
    log = _RAN_ON[:8] + [
        "Traceback (most recent call last):",
        '  File "/src/rl/ppo_lstm.py", line 3, in <module>',
        "    import warp",
        "ModuleNotFoundError: No module named 'warp'",
    ]
    assert diagnose_log_text("\n".join(log)).label == "missing_dependency"


def test_a_chain_of_exceptions_is_not_a_line_the_program_ran_past() -> None:
    # PEP 3134's link between the two tracebacks: chains.py reads it, not the ran-on rule
    log = [
        "Traceback (most recent call last):",
        '  File "train.py", line 3, in <module>',
        "    open('/data/train.csv')",
        "FileNotFoundError: [Errno 2] No such file or directory: '/data/train.csv'",
        "  Message: the path given",
        "  detail one",
        "  detail two",
        "  detail three",
        "  detail four",
        "",
        "During handling of the above exception, another exception occurred:",
        "",
        "Traceback (most recent call last):",
        '  File "train.py", line 5, in <module>',
        "    raise RuntimeError('could not load')",
        "RuntimeError: could not load",
    ]
    assert diagnose_log_text("\n".join(log)).label == "file_not_found"


@pytest.mark.parametrize(
    ("case_id", "label"),
    [
        ("zzd-0024", "user_code_error"),  # "Auto resume: No checkpoint found, starting fresh", then ranks' RuntimeError
        ("zzk-0030", "user_code_error"),  # "Failed to import warp: …", training set up, then a device mismatch
        ("zze-0023", "user_code_error"),  # wandb's netrc panic, "Continuing without wandb …", then a dtype error
    ],
)
def test_a_failure_line_the_run_went_on_past_yields_to_its_later_exception(case_id: str, label: str) -> None:
    from .families.real import diagnose_dev

    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == label


def test_a_command_not_found_with_no_program_after_it_is_still_the_failure() -> None:
    d = diagnose_log_text("/var/spool/slurmd/job1/slurm_script: line 12: torchrun: command not found\n")
    assert d.label == "missing_dependency"


def test_a_line_is_read_up_to_max_line_characters_and_quoted_whole() -> None:
    from runshepherd.diagnosis.errorblock import MAX_LINE, prepare

    payload = ", ".join(str(128000 + i) for i in range(MAX_LINE))  # a request dump: several times MAX_LINE
    oom = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB"
    head = prepare([f"{oom} while serving input_ids=[{payload}]"]).lines[0]
    assert len(head.text) == MAX_LINE and head.text.startswith(oom) and len(head.raw) > 5 * MAX_LINE
    d = diagnose_log_text(f"{oom} while serving input_ids=[{payload}]\n")
    assert d.label == "gpu_oom" and d.evidence[0].endswith(
        f"{128000 + MAX_LINE - 1}]"
    )  # the evidence is the whole line
    # what only lies past the first MAX_LINE characters of a line is not read
    assert diagnose_log_text(f"input_ids=[{payload}] {oom}\n").label != "gpu_oom"


# A benign notice logged at error level (XLA's glog "E" for a slow autotuning step), then the run's own records and
# its progress to the end of the log: the line did not stop the run (engine._went_on_to_the_end). One progress line
# only: two would already be "progress after it" (positive.progressed_after).
_WENT_ON = [
    "2024-03-02 10:01:12.100000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1928] Created device /gpu:0",
    "2024-03-02 10:01:40.501234: E external/local_xla/xla/service/slow_operation_alarm.cc:133] The operation took 1.2s",
    "2024-03-02 10:01:52.000100: I tensorflow/core/kernels/data/shuffle_dataset_op.cc:450] Filling up shuffle buffer",
    "2024-03-02 10:02:03.000100: I tensorflow/core/kernels/data/shuffle_dataset_op.cc:480] Shuffle buffer filled.",
    "120/120 [==============================] - 41s 300ms/step - loss: 0.6931 - accuracy: 0.5012",
]


def test_an_error_line_the_run_went_on_past_to_the_end_is_not_an_open_error() -> None:
    d = diagnose_log_text("\n".join(_WENT_ON))
    assert d.label == "healthy", d.explanation
    assert "slow_operation_alarm" in d.explanation  # it says which error it went on past


def test_an_error_line_in_a_log_with_a_traceback_stays_open() -> None:
    # a traceback before it: what follows an uncaught exception may be another process's output
    tb = ["Traceback (most recent call last):", '  File "prep.py", line 9, in <module>', "KeyboardInterrupt"]
    assert diagnose_log_text("\n".join(tb + _WENT_ON)).label != "healthy"


def test_an_error_line_followed_by_a_failure_notice_stays_open() -> None:
    notice = "2024-03-02 10:09:00.000100: I tensorflow/core/util/ckpt.cc:88] Upload of the checkpoint failed"
    assert diagnose_log_text("\n".join([*_WENT_ON, notice])).label == "unknown"


def test_an_error_line_with_too_little_after_it_stays_open() -> None:
    assert diagnose_log_text("\n".join(_WENT_ON[:2] + _WENT_ON[4:])).label == "unknown"
