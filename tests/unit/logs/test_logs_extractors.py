"""Progress, metrics, errors, events, staleness and ETA on lines real trainers print."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from runshepherd.logs import LogConfig, read_log

from .conftest import osmo

UTC = UTC


# ------------------------------------------------------------------------------------------------ progress
@pytest.mark.parametrize(
    ("lines", "unit", "current", "total", "percent"),
    [
        (["step 840/1000 loss=0.41"], "step", 840, 1000, 84.0),
        (["step=100/10000 loss=4.2317 lr=1.0e-04"], "step", 100, 10000, 1.0),
        (["Epoch [3/10] loss: 0.5"], "epoch", 3, 10, 30.0),
        (["Epoch [1/5], Step [300/600], Loss: 0.2245"], "epoch", 1, 5, 10.0),
        (["Epoch 3/10", "120/500 [====>.........] - ETA: 12s - loss: 0.3000"], "epoch", 3, 10, 22.4),
        (
            [" iteration      100/    1000 | consumed samples: 3200 | lm loss: 3.200000E+00 |"],
            "iteration",
            100,
            1000,
            10.0,
        ),
        ([" 45%|####5     | 450/1000 [00:10<00:12, 43.2it/s]"], "step", 450, 1000, 45.0),
        (["  Num Epochs = 3", "{'loss': 0.52, 'learning_rate': 4e-05, 'epoch': 1.5}"], "epoch", 1.5, 3, 50.0),
        (["Processing shard: 45% complete"], "percent", 45, 100, 45.0),
    ],
)
def test_progress_formats(lines: list[str], unit: str, current: float, total: float, percent: float) -> None:
    progress = read_log(lines).progress
    assert progress is not None
    assert (progress.unit, progress.current, progress.total) == (unit, current, total)
    assert progress.percent == pytest.approx(percent, abs=0.05)


def test_lightning_bar_without_max_epochs_has_no_percent() -> None:
    progress = read_log(["Epoch 3:  45%|####5     | 450/1000 [00:10<00:12, 43.2it/s, loss=0.41, v_num=0]"]).progress
    assert progress is not None
    assert (progress.unit, progress.current, progress.total, progress.percent) == ("epoch", 3, None, None)
    assert progress.detail == "batch 450/1000"


def test_most_advanced_marker_wins_over_an_evaluation_bar() -> None:
    digest = read_log(
        [
            " 84%|########4 | 840/1000 [01:00<00:10, 14.0it/s]",
            "Evaluating: 100%|##########| 50/50 [00:01<00:00, 40.1it/s]",
            " 30%|###       | 15/50 [00:01<00:00, 40.1it/s]",
        ]
    )
    assert digest.progress is not None and (digest.progress.current, digest.progress.total) == (840, 1000)
    assert digest.stage in ("training", "evaluation")


def test_eta_from_timestamped_markers() -> None:
    lines = osmo(["step 100/1000 loss=1.0", "noise", "step 200/1000 loss=0.9"], start="2025/10/08 20:00:")
    # markers 2 s apart: 100 steps per 2 s → 800 steps left → 16 s
    digest = read_log(lines)
    assert digest.eta_seconds == pytest.approx(16.0)
    assert digest.eta_at == datetime(2025, 10, 8, 20, 0, 18, tzinfo=UTC)


def test_eta_is_null_without_markers_or_without_timestamps() -> None:
    assert read_log(osmo(["loading data", "still loading"])).eta_seconds is None
    assert read_log(["step 100/1000", "step 200/1000"]).eta_seconds is None
    assert read_log(["step 100/1000", "step 200/1000"]).progress is not None


# ------------------------------------------------------------------------------------------------ metrics
def test_metrics_from_hf_keras_megatron_and_tqdm() -> None:
    digest = read_log(
        [
            "{'loss': 0.52, 'grad_norm': 1.3, 'learning_rate': 4e-05, 'epoch': 1.5}",
            "{'eval_loss': 0.41, 'eval_accuracy': 0.87, 'eval_runtime': 1.2, 'epoch': 1.5}",
            "120/500 [====>.........] - ETA: 12s - loss: 0.3000 - accuracy: 0.9100",
            " iteration      100/    1000 | learning rate: 1.000000E-04 | lm loss: 3.200000E+00 | loss scale: 65536.0 | grad norm: 2.5 |",
            "Epoch 3:  45%|####5     | 450/1000 [00:10<00:12, 43.2it/s, loss=0.41]",
            "step 5 throughput=22.1 samples/s",
        ]
    )
    latest = digest.latest_metrics()
    assert latest["loss"] == 0.41
    assert latest["eval_loss"] == 0.41 and latest["eval_accuracy"] == 0.87
    assert latest["accuracy"] == 0.91
    assert latest["lr"] == 1e-4 and latest["grad_norm"] == 2.5
    assert latest["it_per_second"] == 43.2 and latest["samples_per_second"] == 22.1
    assert "loss_scale" not in digest.metrics


def test_nan_loss_is_flagged_and_json_safe() -> None:
    digest = read_log(["step 1/10 loss=0.5", "step 2/10 loss=nan", "{'loss': inf, 'grad_norm': nan}"])
    assert "nan_loss" in digest.flags and "nonfinite_metric" in digest.flags
    assert digest.metrics["loss"].latest is None and digest.metrics["loss"].latest_text == "inf"
    assert digest.metrics["loss"].nonfinite == 2
    assert "NaN" not in digest.model_dump_json()


def test_loss_spike_and_trends() -> None:
    falling = [f"step {i}/100 loss={2.0 - i * 0.1:.2f}" for i in range(1, 15)]
    digest = read_log([*falling, "step 15/100 loss=9.0"])
    assert "loss_spike" in digest.flags and digest.metrics["loss"].spikes == 1
    assert read_log(falling).metrics["loss"].trend == "decreasing"
    rising = [f"step {i}/100 loss={0.5 + i * 0.1:.2f}" for i in range(1, 15)]
    assert "loss_increasing" in read_log(rising).flags
    flat = [f"step {i}/100 loss=0.5" for i in range(1, 15)]
    assert read_log(flat).metrics["loss"].trend == "flat" and read_log(flat).flags == []
    # minibatch noise of a converged loss is not a spike: small at the scale the run started at
    converged = [f"step {i}/100 loss={1.6 if i == 1 else 0.03:.2f}" for i in range(1, 15)]
    assert "loss_spike" not in read_log([*converged, "step 15/100 loss=0.13"]).flags


# ------------------------------------------------------------------------------------------------ errors
LEAKED = "/usr/lib/python3.10/multiprocessing/resource_tracker.py:224: UserWarning: resource_tracker: There appear to be 1 leaked semaphore objects to clean up at shutdown"


def test_root_error_is_first_traceback_not_later_noise() -> None:
    lines = osmo(
        [
            "step 10/100 loss=0.4",
            "Traceback (most recent call last):",
            '  File "train.py", line 10, in <module>',
            "    model(x)",
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
            LEAKED,
            "  warnings.warn('resource_tracker: There appear to be %d '",
            "Traceback (most recent call last):",
            '  File "other_rank.py", line 3, in <module>',
            "RuntimeError: NCCL communicator was aborted on rank 1",
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1)",
        ]
    )
    digest = read_log(lines)
    assert digest.root_error == "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
    assert LEAKED not in digest.error_lines
    assert digest.error_lines[0] == "Traceback (most recent call last):"
    assert "RuntimeError: NCCL communicator was aborted on rank 1" in digest.error_lines
    assert digest.exception_counts == {"OutOfMemoryError": 1, "RuntimeError": 1}


def test_sigkill_with_leaked_semaphore_noise_keeps_killed_as_root() -> None:
    digest = read_log(osmo(["step 10/100 loss=0.4", "/tmp/entry.sh: line 3:    42 Killed    python train.py", LEAKED]))
    assert digest.root_error == "/tmp/entry.sh: line 3:    42 Killed    python train.py"
    assert [e.kind for e in digest.key_events] == ["oom_kill"]
    assert digest.error_lines == ["/tmp/entry.sh: line 3:    42 Killed    python train.py"]


@pytest.mark.parametrize(
    "line",
    [
        "bash: jq: command not found",
        "python: can't open file '/app/train.py': [Errno 2] No such file or directory",
        "ModuleNotFoundError: No module named 'flash_attn'",
        "Segmentation fault (core dumped)",
        "node01:1234:1290 [0] NCCL WARN Call to connect returned Connection refused",
        "FATAL: cannot open dataset",
        "2025-01-01 ERROR Something broke badly",
        "RuntimeError: CUDA error: device-side assert triggered",
        "OSError: [Errno 28] No space left on device",
        # argparse's prog for `python -m pkg` has spaces (the demo trainer's `--epochs 0` said nothing before)
        "python -m runshepherd.demo.trainer: error: argument --epochs: Input should be greater than or equal to 1",
        "python3 -m torch.distributed.run: error: the following arguments are required: training_script",
    ],
)
def test_fatal_lines_are_errors(line: str) -> None:
    digest = read_log(["step 1/10", line, "step 2/10"])
    assert digest.root_error == line
    assert digest.error_lines == [line]


@pytest.mark.parametrize(
    "line",
    [
        "/usr/lib/python3/site-packages/x.py:5: DeprecationWarning: pkg_resources is deprecated",
        "FutureWarning: `resume_download` is deprecated and will be removed in version 1.0.0.",
        "Some weights of BertForSequenceClassification were not initialized from the model checkpoint at bert-base-uncased",
        "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0",
        "node01:1234:1290 [0] NCCL INFO NET/IB : No device found.",
        "node01:1234:1290 [0] NCCL WARN NET/IB : No device found.",
        LEAKED,
        "error_rate=0.02 mean_error: 0.1",
    ],
)
def test_benign_lines_are_not_errors(line: str) -> None:
    digest = read_log(["step 1/10", line])
    assert digest.error_lines == [] and digest.root_error is None


def test_long_traceback_is_trimmed_but_keeps_the_exception_line() -> None:
    frames = [f'  File "m{i}.py", line {i}, in f{i}\n    call{i}()' for i in range(200)]
    lines = [
        "Traceback (most recent call last):",
        *"\n".join(frames).split("\n"),
        "ValueError: shapes (3,) and (4,) not aligned",
    ]
    digest = read_log(lines, config=LogConfig(max_error_lines=20))
    assert len(digest.error_lines) <= 20
    assert digest.error_lines[-1] == "ValueError: shapes (3,) and (4,) not aligned"
    assert any("omitted" in line for line in digest.error_lines)
    assert digest.root_error == "ValueError: shapes (3,) and (4,) not aligned"


def test_chained_exception_root_is_the_final_line_of_the_first_traceback() -> None:
    digest = read_log(
        [
            "Traceback (most recent call last):",
            '  File "a.py", line 1, in <module>',
            "socket.gaierror: [Errno -2] Name or service not known",
            "",
            "The above exception was the direct cause of the following exception:",
            "",
            "Traceback (most recent call last):",
            '  File "b.py", line 2, in <module>',
            "requests.exceptions.ConnectionError: Max retries exceeded",
            "ERROR: later noise from the launcher",
        ]
    )
    assert digest.root_error == "requests.exceptions.ConnectionError: Max retries exceeded"
    assert "socket.gaierror: [Errno -2] Name or service not known" in digest.error_lines
    assert digest.error_lines[-1] == "ERROR: later noise from the launcher"


def test_error_lines_are_bounded_under_a_flood() -> None:
    lines = [f"ERROR: worker {i} lost heartbeat" for i in range(10_000)]
    digest = read_log(["RuntimeError: the real cause", *lines])
    assert len(digest.error_lines) <= 50
    assert digest.root_error == "RuntimeError: the real cause"
    assert digest.error_lines[0] == "RuntimeError: the real cause"
    assert digest.error_lines[-1] == "ERROR: worker 9999 lost heartbeat"


# ------------------------------------------------------------------------------------------------ events, stage, stale
def test_key_events_and_stages() -> None:
    lines = osmo(
        [
            "NCCL version 2.20.5+cuda12.4",
            "Downloading data from s3://bucket/set",
            "Download complete: 12 files",
            "Resuming from checkpoint /ckpt/checkpoint-400",
            "***** Running training *****",
            "step 450/1000 loss=0.4",
            "Saving model checkpoint to /out/checkpoint-500",
            "step 510/1000 loss=0.38",
            "Saving model checkpoint to /out/checkpoint-600",
        ]
    )
    digest = read_log(lines)
    kinds = [e.kind for e in digest.key_events]
    assert kinds == [
        "nccl_init",
        "data_download_start",
        "data_download_end",
        "resumed",
        "training_start",
        "checkpoint_saved",
        "checkpoint_saved",
    ]
    last = digest.key_events[-1]
    assert last.count == 2 and last.line.endswith("checkpoint-600")
    assert last.timestamp == datetime(2025, 10, 8, 20, 0, 8, tzinfo=UTC)
    assert digest.stage == "saving"
    assert read_log([*lines, "step 620/1000 loss=0.35"]).stage == "training"
    assert read_log(["***** Running Evaluation *****", "{'eval_loss': 0.3, 'epoch': 1.0}"]).stage == "evaluation"
    assert read_log(["{'train_runtime': 120.5, 'train_loss': 0.61, 'epoch': 3.0}"]).stage == "done"
    assert read_log([]).stage == "no output"


def test_key_events_are_bounded() -> None:
    lines = [f"Saving model checkpoint to /out/checkpoint-{i}" for i in range(5000)]
    digest = read_log(lines)
    assert len(digest.key_events) == 2 and digest.key_events[1].count == 5000


def test_stale_only_when_running_and_silent_past_threshold() -> None:
    lines = osmo(["step 1/10", "step 2/10"])
    last = datetime(2025, 10, 8, 20, 0, 1, tzinfo=UTC)
    late = last + timedelta(seconds=901)
    assert read_log(lines, now=late, status="RUNNING").stale is True
    assert "stale" in read_log(lines, now=late, status="RUNNING").flags
    assert read_log(lines, now=last + timedelta(seconds=60), status="RUNNING").stale is False
    assert read_log(lines, now=late, status="COMPLETED").stale is False
    assert read_log(lines, now=late.replace(tzinfo=None), status="RUNNING").stale is True
    assert read_log(lines, now=late, status="RUNNING", config=LogConfig(stale_after_seconds=3600)).stale is False
    assert read_log(["no timestamps"], now=late, status="RUNNING").stale is False
    digest = read_log(lines)
    assert digest.last_update == last and digest.first_timestamp == last - timedelta(seconds=1)


def test_bounds_on_lines_and_bytes_mark_truncation() -> None:
    lines = (f"step {i}/1000" for i in range(1, 1001))
    digest = read_log(lines, config=LogConfig(max_lines=100))
    assert digest.truncated and digest.truncation_reason == "max_lines" and digest.lines_read == 100
    digest = read_log((f"step {i}/1000" for i in range(1, 1001)), config=LogConfig(max_bytes=500))
    assert digest.truncated and digest.truncation_reason == "max_bytes" and digest.bytes_read >= 500
    assert digest.lines_read < 100


def test_multi_line_chunks_from_a_producer_are_split() -> None:
    digest = read_log(["step 1/4\nstep 2/4\n", "RuntimeError: x\n"])
    assert digest.lines_read == 3 and digest.progress is not None and digest.progress.current == 2
