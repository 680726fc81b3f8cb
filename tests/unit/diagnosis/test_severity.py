"""The level a record states in its own header (severity.py), and what the verdict does with it: a log of records
below error level and no error is a weak "healthy"; an error-level record is an error; a record at info level that
speaks of a failure keeps a log with no other sign "unknown"."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.engine import root_reading
from runshepherd.diagnosis.errorblock import error_looking, prepare
from runshepherd.diagnosis.rules import Context
from runshepherd.diagnosis.severity import error_channel, severity

from .families.real import diagnose_dev


@pytest.mark.parametrize(
    ("line", "level"),
    [
        # glog/absl (https://github.com/google/glog#log-line-prefix-format)
        ("I0203 20:56:03.518998 1 model_repository_manager.cc:768] no next action, trigger OnComplete()", "info"),
        ("E0530 14:48:43.123456 1 logging.cc:43] boom", "error"),
        (
            "W tensorflow/core/platform/cpu_feature_guard.cc:45] The TensorFlow library wasn't compiled to use SSE3",
            "warning",
        ),
        # Python logging: BASIC_FORMAT, the asctime - name - levelname layout, fairseq's pipes, DeepSpeed's brackets
        # (https://docs.python.org/3/library/logging.html#logrecord-attributes)
        ("INFO:root:Loading dataset", "info"),
        ("2024-01-01 10:00:00,123 - root - WARNING - low disk", "warning"),
        ("2021-01-29 08:29:52 | INFO | fairseq.trainer | begin training epoch 1", "info"),
        ("[2025-03-19 10:01:24,600] [INFO] [runner.py:607:main] cmd = python train.py", "info"),
        ("[WARNING|trainer.py:2762] 2023-09-13 02:40:04,965 >>  Saving the full checkpoint instead", "warning"),
        # Go's slog TextHandler (https://pkg.go.dev/log/slog#TextHandler), Go's log with a level after the caller
        ('time=2024-05-12T06:47:18.590-06:00 level=INFO source=images.go:704 msg="total blobs: 11"', "info"),
        ("2024/05/12 06:47:18 routes.go:1006: INFO server config", "info"),
        # Rust tracing (https://docs.rs/tracing-subscriber/latest/tracing_subscriber/fmt/format/struct.Full.html)
        ("2022-02-15T18:40:14.289898Z  INFO fmt: preparing to shave yaks number_of_yaks=3", "info"),
        # spdlog's default pattern (https://github.com/gabime/spdlog/wiki/3.-Custom-formatting)
        ("[2014-10-31 23:46:59.678] [my_loggername] [info] Some message", "info"),
        ("[2014-10-31 23:46:59.678] [my_loggername] [error] Some error message", "error"),
        # TensorRT-LLM's bracketed letter, llama.cpp's letter after the elapsed time, NCCL, c10
        ("[07/04/2024-13:50:35] [TRT-LLM] [I] Set bert_attention_plugin to auto.", "info"),
        ("0.25.727.089 D srv  update_slots: decoding batch, n_tokens = 28", "debug"),
        ("host:454:484 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.2<0>", "info"),
        ("host:454:484 [0] include/socket.h:185 WARN Call to connect failed : Connection refused", "warning"),
        ("[W reducer.cpp:1300] Warning: find_unused_parameters=True was specified", "warning"),
        # c10's glog letter after a rank tag, Python logging's level glued to asctime, Ray's letter between stamps
        (
            "[rank2]:[W326 09:37:45.124598790 ProcessGroupNCCL.cpp:1487] Warning: destroy_process_group() was not called",
            "warning",
        ),
        ("2018-03-23 15:42:27,061:INFO: train loss:1.32708", "info"),
        ("[2024-01-01 10:00:00,123 W 123 456] worker.py:1 -- slow", "warning"),
        # no level: prose, plain output, an exception, a header named like a level, squeue's partition named "debug"
        ("3  debug bob   PENDING PartitionTimeLimit 1:00:00", None),
        ("I think the loss is fine", None),
        ("Epoch 1 loss 0.52", None),
        ("RuntimeError: CUDA error: out of memory", None),
        ("Error Message Summary:", None),
        ("Top-1 Error: 23.1", None),
        ("- I am here", None),
    ],
)
def test_the_level_is_read_from_the_records_header_whatever_the_layout(line: str, level: str | None) -> None:
    assert severity(line) == level


# an emitter no table names (spdlog's default layout), printing its start-up records
_SPDLOG = """[2014-10-31 23:46:59.678] [server] [info] Loading index from /data/index.bin
[2014-10-31 23:46:59.912] [server] [info] 1200 shards mapped
[2014-10-31 23:47:00.004] [server] [warning] Thread pool size not set, using 8
[2014-10-31 23:47:00.100] [server] [info] Accepting connections on port 9000"""


def test_a_log_of_records_below_error_level_is_a_weak_healthy() -> None:
    d = diagnose_log_text(_SPDLOG)
    assert d.label == "healthy" and d.confidence < 0.8 and "weak" in d.explanation


def test_an_info_record_that_speaks_of_a_failure_keeps_a_log_with_no_other_sign_unknown() -> None:
    d = diagnose_log_text(_SPDLOG.replace("1200 shards mapped", "Unable to open /data/extra.bin"))
    assert d.label == "unknown"


def test_an_error_level_record_is_an_error_quoted_never_healthy() -> None:
    d = diagnose_log_text(_SPDLOG.replace("[info] 1200 shards mapped", "[error] shard 3 is corrupt"))
    assert d.label == "unknown" and "[error] shard 3 is corrupt" in d.evidence[0]


@pytest.mark.parametrize("case_id", ["zf-0009", "zf-0002", "j-0047"])
def test_real_logs_of_records_below_error_level_are_weakly_healthy(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert record["label"] == "healthy" and d.label == "healthy" and d.confidence < 0.8


@pytest.mark.parametrize(
    "case_id",
    [
        "a-0164",  # TensorFlow's INFO records: "Unable to load cuDNN DSO", and the run stops at start-up
        "zf-0022",  # SkyPilot's status records list "Recent failures:" with a worker pending
    ],
)
def test_real_failures_made_of_records_are_not_called_healthy(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert record["label"] != "healthy" and d.label != "healthy"


# Python logging's "%(asctime)s - %(name)s - %(levelname)s - %(message)s" layout: an INFO record whose words say
# something failed, and the program went on
_INFO_FAILED = "2021-01-10 12:58:08,904 - data.loader - INFO - FAILED to reach the mirror, out of memory on the proxy"


def test_an_info_record_is_never_read_as_the_root_error_of_a_failed_run() -> None:
    assert (
        root_reading(Context.build(log_lines=[_INFO_FAILED, "2021-01-10 12:58:09,100 - trainer - INFO - go"])) is None
    )


def test_an_info_record_the_run_went_on_past_is_no_error_at_all() -> None:
    steps = "\n".join(f"2021-01-10 12:59:0{i},000 - trainer - INFO - step {i} loss 0.{9 - i}1" for i in range(4))
    d = diagnose_log_text(f"{_INFO_FAILED}\n{steps}")
    assert d.label == "healthy" and d.confidence == 0.8 and "printed an error" not in d.explanation


@pytest.mark.parametrize(
    "line",
    [
        # DGL's distributed GraphSAGE example prints each epoch's time per partition (examples/pytorch/graphsage/dist/
        # train_dist.py: "Part {}, Epoch Time(s): {:.4f}, sample+data_copy: …")
        "Part 7, Epoch Time(s): 20.8654, sample+data_copy: 3.0675, forward: 3.5795, backward: 10.0897",
        "epoch time: 12.5",
    ],
)
def test_an_epoch_timing_report_is_progress(line: str) -> None:
    d = diagnose_log_text("\n".join(line.replace("20.8654", f"20.86{i}") for i in range(3)))
    assert d.label == "healthy"


def test_one_quiet_reading_serves_the_error_lines_and_the_engines_choice() -> None:
    # a paste's column ("worker-1 | ") is undone before the header is read, for both readers alike
    lines = prepare([f"worker-1  | {_INFO_FAILED}", "worker-1  | ERROR - the job stopped"]).lines
    assert [ln.quiet for ln in lines] == [True, False]
    assert [ln.index for ln in error_looking(lines)] == [1]
    # TensorFlow 1's INFO libcuda probe is the reading alone, and yields to a scheduler's walltime kill after it
    # (glog's line prefix: https://github.com/google/glog#log-line-prefix-format)
    probe = "I tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:1066] failed to find libcuda.so on this system"
    assert prepare([probe]).lines[0].quiet
    assert diagnose_log_text(f"{probe}\n=>> PBS: job killed: walltime 72081 exceeded limit 72000").label == "timeout"


def test_the_emitter_an_error_record_names_is_its_channel() -> None:
    """wandb's terminal log ("wandb: ERROR …"), vLLM's process-tagged records ("(APIServer pid=23283) ERROR 08-01 …")
    and slurmstepd name their emitter before the level: one key per emitter and level, numbers blanked. A header of
    time stamps alone, an exception's message ("RuntimeError: CUDA error: …") and a bare "ERROR:" name none."""
    assert error_channel("wandb: ERROR Dropped streaming file chunk") == "wandb: ERROR"
    a = error_channel("(APIServer pid=23283) ERROR 08-01 21:34:51 [async_llm.py:704] AsyncLLM output_handler failed.")
    b = error_channel("(APIServer pid=9) ERROR 08-02 01:00:00 [serving.py:1] request failed")
    assert a == b == "(APIServer pid=#) ERROR"
    assert error_channel("slurmstepd: error: cgroup clean-up failed") == "slurmstepd: ERROR"
    for line in (
        "2019-10-31 17:02:15,476\tERROR services.py:1375 -- x",
        "RuntimeError: CUDA error: out of memory",
        "ERROR: Could not find a version",
    ):
        assert error_channel(line) is None, line


def test_a_time_stamp_that_spells_its_day_and_month() -> None:
    # logging's asctime with datefmt "%a %d %b %Y %H:%M:%S" (HF's old SQuAD utilities, zzzo-0112); prose is not a stamp
    assert severity("Wed 07 Sep 2022 07:54:03 - INFO - utils_squad1 -   Unable to find text: 'x' in 'y'") == "info"
    assert severity("March 3 12:00:01 - DEBUG - loader - cache miss") == "debug"
    assert severity("May I ask why ERROR shows up") is None
