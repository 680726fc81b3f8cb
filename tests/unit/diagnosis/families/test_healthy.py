"""The healthy family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.errorblock import prepare
from runshepherd.diagnosis.positive import is_progress

from .real import dev_case, diagnose_dev


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


@pytest.mark.parametrize(
    "log",
    [
        "2024-05-01 10:00:00,123 - launcher - INFO - Job 3 is PENDING, waiting for resources\n" * 4,
        "[2024-05-01 10:00:00] INFO: Waiting for job 3 to start (state: PENDING, reason: Resources)\n" * 3,
        "INFO 05-01 10:00:00 Pod trainer-0 status: Pending (Unschedulable)\n" * 3,
        "I0501 10:00:00.000000 1 agent.go:12] worker pod evicted, waiting for a node\n" * 3,
    ],
)
def test_notices_that_the_job_is_not_running_are_not_routine_noise(log: str) -> None:
    """A job still queued or taken off its machine says so at INFO: that is no sign of health."""
    assert diagnose_log_text(log).label != "healthy"


@pytest.mark.parametrize(
    "line",
    [
        "INFO cache.py:88] prefix cache: evicted 3 entries (LRU)",
        "INFO: Evicted 12 blocks from the KV cache",
        "INFO allocator.cc:120] After 1596 get requests, put_count=1209 evicted_count=1000 eviction_rate=0.82",
    ],
)
def test_a_cache_evicting_entries_is_not_a_job_taken_off_its_machine(line: str) -> None:
    """Evicted or preempted says the job is not running only of what runs it (a job, pod, task, node: one definition,
    positive.TAKEN_OFF, read by the routine reading and by the preempted family); a cache dropping its own entries is
    routine talk."""
    log = f"INFO: loading model from /models/m\n{line}\nINFO: serving on port 8000\n"
    d = diagnose_log_text(log)
    assert d.label == "healthy" and "routine" in d.explanation, line
    taken_off = log.replace(line, "INFO agent.go:12] worker pod evicted, waiting for a node")
    assert diagnose_log_text(taken_off).label != "healthy"


def test_an_info_notice_that_something_failed_is_not_routine_noise() -> None:
    """The routine reading asks of an INFO line what the records reading asks: does it speak of a failure? Apptainer's
    --nv finding no NVIDIA driver files on the host says so at INFO and WARNING, and the program then runs on the CPU."""
    log = (
        "INFO:    Could not find any NVIDIA binaries on this host!\n"
        "WARNING: You may need to edit /usr/local/etc/singularity/nvliblist.conf\n"
    )
    assert diagnose_log_text(log).label != "healthy"
    # the same notices with nothing failing in them stay routine
    assert diagnose_log_text(log.replace("Could not find any", "Found 3")).label == "healthy"


@pytest.mark.parametrize("rate", ["0.20 prompts/s", "0.09 batches/sec", "12.54 steps/s", "31199166.25 records/s"])
def test_any_unit_of_work_per_second_is_progress(rate: str) -> None:
    """A throughput is progress whatever the program calls its items: a read timeout retried while the run goes on
    counting its items at a measured rate is history, not the verdict. A transfer's speed (bytes or bits per second) is
    not the run's work."""
    log = (
        "'The read operation timed out' thrown while requesting GET https://huggingface.co/datasets/x/resolve/main/a.parquet\n"
        "Retrying in 1s [Retry 1/5].\n" + "".join(f"{n}/3000 items  ({rate})\n" for n in (200, 400, 600, 800))
    )
    assert diagnose_log_text(log).label == "healthy", rate
    assert not is_progress(prepare(["Received 255852544 of 9359913026 (2.7%), 243.8 MBs/sec"]).lines[0])
    assert not is_progress(prepare(["downloaded 12 files at 3.4 Mbits/s"]).lines[0])


def test_a_failure_word_naming_a_measured_quantity_is_not_a_failure() -> None:
    """A metric or counter named with a failure word, its value after it ("timeout rate: 0.00", "Timeout cases: 49
    299"), is a result the program reports at INFO, not a notice that something failed."""
    head = "2023-01-01 11:04:49, INFO: "
    log = (
        f"{head}human number: 20\n{head}Circle width: 8.48\n"
        f"{head}Testing success rate: 0.92, collision rate: 0.07, timeout rate: 0.00\n"
        f"{head}Timeout cases: 49 299\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and "routine" in d.explanation
    assert diagnose_log_text(log.replace("Timeout cases: 49 299", "Timeout while waiting for case 49")).label != (
        "healthy"
    )


def test_a_servers_pending_request_counter_is_not_a_job_state() -> None:
    line = "INFO 05-01 10:00:{:02d} metrics.py:341] Avg prompt throughput: 0.0 tokens/s, Running: 1 reqs, Pending: 0 reqs\n"
    assert diagnose_log_text("".join(line.format(s) for s in (0, 10, 20))).label == "healthy"


@pytest.mark.parametrize(
    "log",
    [
        # Slurm's COMPLETED state: scontrol show job, an sacct row, seff (every process exited 0)
        "JobId=1234 JobName=train\n   JobState=COMPLETED Reason=None Dependency=(null)\n   ExitCode=0:0\n",
        "       JobID    JobName      State ExitCode\n     4242424      train  COMPLETED      0:0\n",
        "Job ID: 4242424\nState: COMPLETED (exit code 0)\n",
        # submitit's last line of a job that returned (facebookincubator/submitit, core/submission.py)
        "submitit INFO (2024-01-01 11:00:00,000) - Job completed successfully\n",
        # Megatron-LM's print_datetime at the end of pretrain() (megatron/training/training.py)
        " iteration      500/     500 | lm loss: 6.32E+00 |\n[after training is done] datetime: 2024-05-01 10:00:00\n",
        # Snakemake once every job of the workflow is done
        "Finished job 0.\n3 of 3 steps (100%) done\n",
    ],
)
def test_a_finished_run_in_the_schedulers_and_launchers_own_words_is_healthy(log: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence >= 0.85 and "finished" in d.explanation, log


def test_a_workflow_stopped_half_way_is_not_called_finished() -> None:
    """Snakemake counts jobs as they finish; short of 100% the workflow may have been stopped (a time limit)."""
    d = diagnose_log_text("Finished job 3.\n3 of 10 steps (30%) done\n")
    assert d.label == "unknown"


@pytest.mark.parametrize(
    ("log", "why"),
    [
        # a server answering requests: uvicorn's access log with a 2xx status
        (
            'INFO:     Application startup complete.\nINFO:     172.17.0.1:52100 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n',
            "making progress",
        ),
        # Ray Tune's summary once the tuning loop returned (ray/tune/tune.py)
        (
            "2023-08-01 10:00:00,000\tINFO tune.py:1148 -- Total run time: 123.45 seconds (120.31 seconds for the tuning loop).\n",
            "making progress",
        ),
        # Lightning's Trainer reporting its accelerators and the model summary before fit
        (
            "GPU available: True (cuda), used: True\nTPU available: False, using: 0 TPU cores\n124 M     Trainable params\n",
            "started normally",
        ),
        # accelerate launch's notice of the defaults it used, printed as it starts the processes
        (
            "The following values were not passed to `accelerate launch` and had defaults used instead:\n\t`--num_processes` was set to a value of `2`\n",
            "started normally",
        ),
        # TensorFlow placing itself on a GPU (tensorflow/core/common_runtime/gpu/gpu_device.cc)
        (
            "I0000 00:00:1732096805.000000   12345 gpu_device.cc:2022] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 22279 MB memory:  -> device: 0\n",
            "started normally",
        ),
    ],
)
def test_more_emitters_positive_evidence(log: str, why: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "healthy" and why in d.explanation, log


@pytest.mark.parametrize(
    "line",
    [
        # XLA's slow-operation alarm while compiling (xla/service/slow_operation_alarm.cc), at error severity
        "E1105 10:00:30.123456  140000 slow_operation_alarm.cc:65] Constant folding an instruction is taking > 1s:",
        "E1105 10:00:31.123456  140000 slow_operation_alarm.cc:133] The operation took 2.1s",
        # gRPC's shutdown timeout as a JAX/TF process exits (grpc src/core/lib/surface/init.cc)
        "E0000 00:00:1738205048.894250    2795 init.cc:232] grpc_wait_for_shutdown_with_timeout() timed out.",
        # TensorFlow's duplicate plugin registration and its grappler layout optimiser skipping a node
        "W0000 00:00:1732096800.470000   12345 computation_placer.cc:177] computation placer already registered. "
        "Please check linkage and avoid linking the same target more than once.",
        "2023-05-02 11:22:40.000000: E tensorflow/core/grappler/optimizers/meta_optimizer.cc:954] layout failed: "
        "INVALID_ARGUMENT: Size of values 0 does not match size of permutation 4 @ fanin shape in model/dropout",
        # the program says it carries on another way (tensorflow/core/util/util.cc)
        "2023-10-10 10:00:00.000000: E tensorflow/core/util/util.cc:131] oneDNN supports DT_HALF only on platforms "
        "with AVX-512. Falling back to the default Eigen-based implementation if present.",
        # lines that say they are no failure: TF's BFC allocator (tsl/framework/bfc_allocator.cc), glibc's loader
        "2023-10-10 10:00:00.000000: W tensorflow/tsl/framework/bfc_allocator.cc:296] Allocator (GPU_0_bfc) ran out "
        "of memory trying to allocate 3.12GiB with freed_by_count=0. The caller indicates that this is not a failure, "
        "but may mean that there could be performance gains if more memory were available.",
        "ERROR: ld.so: object '/usr/lib/x86_64-linux-gnu/libtcmalloc.so.4' from LD_PRELOAD cannot be preloaded "
        "(cannot open shared object file): ignored.",
    ],
)
def test_benign_lines_at_error_severity_leave_a_working_run_healthy(line: str) -> None:
    d = diagnose_log_text(f"Epoch 1/10\n{line}\n100/100 [====] - 5s 50ms/step - loss: 0.51\n")
    assert d.label == "healthy", line


def test_only_an_unconditional_ignore_this_makes_a_line_harmless() -> None:
    """ "You can ignore this message if …" (Ray's pending-actor warning) says when it matters: it stays evidence."""
    conditional = (
        "WARNING worker.py:1245 -- The actor or task with ID ff01 cannot be scheduled right now. You can ignore this "
        "message if this Ray cluster is expected to auto-scale."
    )
    plain = (
        "W executor.cc:1197] Executor start aborting (this does not indicate an error and you can ignore this message)"
    )
    assert [ln.harmless for ln in prepare([conditional, plain]).lines] == [False, True]


def test_tagged_output_of_mpirun_and_ray_workers_is_read_like_plain_output() -> None:
    horovod = "[1,0]<stdout>:Epoch 1/90\n[1,0]<stdout>:  10/5005 [....] - ETA: 25:12 - loss: 6.9102\n"
    assert diagnose_log_text(horovod).label == "healthy"
    ray = "(RayTrainWorker pid=1234, ip=10.0.0.2) ModuleNotFoundError: No module named 'flash_attn'\n"
    d = diagnose_log_text(ray)
    assert d.label == "missing_dependency" and d.evidence == [ray.strip()]


@pytest.mark.parametrize(
    "head",
    [
        "2024-01-01 10:00:00,000 - INFO - ",  # logging's "%(asctime)s - %(levelname)s - %(message)s"
        "01/01/2024 10:00:00 - INFO - __main__ - ",  # the HF examples' format
        "[2024-01-01 10:00:00,000][__main__][INFO] - ",  # Hydra's job logging
        "[2024-01-01 10:00:00,000] [INFO] [runner.py:607:main] ",  # DeepSpeed's
        "2024-01-01 10:00:00 | INFO | fairseq.trainer | ",  # fairseq's
    ],
)
def test_info_notices_are_read_alike_in_every_logger_format(head: str) -> None:
    """One rule for every logger format: a log of INFO notices and no error is a weak "routine" healthy verdict
    (below the 0.8 that counts as sure), and the same notices before a kill or an error line are not healthy.

    (This replaces a test that called the ``- INFO -`` format alone "unknown" while ``[INFO]`` and ``| INFO |`` were
    already routine: the difference was the format, not the evidence. On the TRAIN split every routine verdict is a
    healthy run and no failure is a log of INFO notices alone; a job killed while it loads data leaves a kill, a
    time limit or an exit code in its log, which is an error line.)"""
    log = f"{head}loading dataset from /data/train\n{head}building model resnet50\n"
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence < 0.8 and "routine" in d.explanation, head
    assert diagnose_log_text(log + "Killed\n").label != "healthy"
    limit = "slurmstepd: error: *** JOB 7 ON n1 CANCELLED AT 2024-01-01T12:00:00 DUE TO TIME LIMIT ***\n"
    assert diagnose_log_text(log + limit).label == "timeout"


@pytest.mark.parametrize(
    ("log", "why"),
    [
        # the PyTorch CIFAR-10 tutorial's result line, and its quickstart's last word
        ("Finished Training\nAccuracy of the network on the 10000 test images: 54 %\n", "making progress"),
        ("Test Error: \n Avg loss: 1.234567 \n\nDone!\n", "making progress"),
        # rich's progress bar (Lightning's RichProgressBar) without a rate
        ("Epoch 3/9  ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 10/10 0:00:01 • 0:00:00\n", "making progress"),
        # xgboost's and LightGBM's evaluation lines
        ("[0]\tvalidation_0-rmse:0.48218\n[1]\tvalidation_0-rmse:0.46403\n", "making progress"),
        ("[100]\tvalid_0's auc: 0.912345\n", "making progress"),
        # Stable-Baselines3's logger table (common/logger.py HumanOutputFormat)
        (
            "| time/              |          |\n|    fps             | 1523     |\n|    total_timesteps | 2048     |\n",
            "making progress",
        ),
        # Optuna's log line for each finished trial
        (
            "[I 2024-01-01 10:00:00,000] Trial 3 finished with value: 0.912 and parameters: {'lr': 0.01}. Best is trial 3 with value: 0.912.\n",
            "making progress",
        ),
        # wandb's history and summary as a run ends
        ("wandb: Run history:\nwandb:   train/loss █▆▄▃▂▁\n", "making progress"),
        # Keras' model.summary() before fit, Triton's services, the HF Trainer's evaluation banner
        (
            'Model: "sequential"\nTotal params: 101,770 (397.54 KB)\nTrainable params: 101,770 (397.54 KB)\n',
            "started normally",
        ),
        (
            "I0101 10:00:00.000000 1 grpc_server.cc:2451] Started GRPCInferenceService at 0.0.0.0:8001\n",
            "started normally",
        ),
        ("***** Running Evaluation *****\n  Num examples = 872\n", "started normally"),
        # the scheduler shows the job running: squeue, scontrol, kubectl, and nvidia-smi's process table
        (
            "  JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n  12345       gpu    train    alice  R    1:23:45      1 node01\n",
            "started normally",
        ),
        ("JobId=12345 JobName=train\n   JobState=RUNNING Reason=None Dependency=(null)\n", "started normally"),
        (
            "NAME        READY   STATUS    RESTARTS   AGE\ntrainer-0   1/1     Running   0          5m\n",
            "started normally",
        ),
        ("|    0   N/A  N/A     12345      C   python                          20480MiB |\n", "started normally"),
        # evaluation results: lm-evaluation-harness's table (value, "±", stderr), scikit-learn's classification_report
        ("|hellaswag|      1|none  |     0|acc     |0.5734|±  |0.0049|\n", "making progress"),
        (
            "              precision    recall  f1-score   support\n\n           0       0.95      0.97      0.96       980\n",
            "making progress",
        ),
    ],
)
def test_progress_and_start_up_in_more_libraries_words(log: str, why: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "healthy" and why in d.explanation, log


def test_a_pending_job_in_squeue_is_not_running() -> None:
    log = "  JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n  12345       gpu    train    alice PD       0:00      1 (Resources)\n"
    assert diagnose_log_text(log).label != "healthy"


@pytest.mark.parametrize("case_id", ["j-0020", "j-0047", "l-0025"])
def test_a_log_of_info_notices_or_a_training_table_is_healthy(case_id: str) -> None:
    """A launcher's and a server's INFO-level notices with no error (a weak verdict), YOLO's epoch table."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "healthy"


def test_info_notices_with_an_error_line_are_not_healthy() -> None:
    log = (
        "[2025-03-19 10:01:24,600] [INFO] [real_accelerator.py:222:get_accelerator] Setting ds_accelerator to cuda\n"
        "INFO 09-03 16:28:17 [__init__.py:1773] Using max model len 32768\n"
        "ERROR 09-03 16:28:19 [core.py:700] EngineCore failed to start.\n"
    )
    assert diagnose_log_text(log).label == "unknown"


@pytest.mark.parametrize(
    "log",
    [
        # Rust's tracing format (text-generation-inference), logfmt (Ollama): INFO notices only
        '2024-03-01T10:00:00.123456Z  INFO text_generation_launcher: Args { model_id: "x" }\n'
        "2024-03-01T10:00:09.123456Z  INFO text_generation_router: router/src/main.rs:300: Connected\n",
        'time=2024-05-01T10:00:00.000Z level=INFO source=images.go:123 msg="total blobs: 5"\n'
        'time=2024-05-01T10:00:00.000Z level=INFO source=routes.go:1000 msg="Listening on 127.0.0.1:11434"\n',
    ],
)
def test_info_notices_in_other_log_formats_are_a_weak_healthy(log: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence < 0.8


@pytest.mark.parametrize(
    "log",
    [
        # llama.cpp's timings, ComfyUI, ultralytics' predict summary, Whisper's segments, the HF Trainer's return value
        "llama_print_timings:        eval time =    1234.56 ms /   127 runs   (    9.72 ms per token,   102.88 tokens "
        "per second)\n",
        "got prompt\nPrompt executed in 3.45 seconds\n",
        "Speed: 1.2ms preprocess, 5.0ms inference, 1.0ms postprocess per image at shape (1, 3, 640, 480)\n",
        "[00:00.000 --> 00:05.000]  Hello and welcome.\n[00:05.000 --> 00:09.000]  Today we talk about logs.\n",
        "TrainOutput(global_step=500, training_loss=0.41, metrics={'train_runtime': 120.5})\n",
        # a step that went through before the run: pip, a job Slurm accepted, a UI that loaded its model
        "Successfully installed accelerate-0.27.2 peft-0.8.2\n",
        "Submitted batch job 4242\n",
        "Model loaded in 4.2s (load weights from disk: 0.3s, create model: 0.5s).\n",
    ],
)
def test_inference_reports_and_completed_set_up_steps_are_positive_evidence(log: str) -> None:
    assert diagnose_log_text(log).label == "healthy"


def test_a_set_up_step_that_went_through_does_not_hide_a_later_error() -> None:
    log = "Successfully installed accelerate-0.27.2\nERROR: launcher crashed while starting the workers\n"
    assert diagnose_log_text(log).label == "unknown"


def test_xformers_naming_the_missing_triton_it_does_without_is_routine() -> None:
    log = (
        "A matching Triton is not available, some optimizations will not be enabled\n"
        "Error caught was: No module named 'triton'\n"
        "steps:  10%|█         | 100/1000 [01:40<15:00,  1.00it/s, loss=0.123]\n"
    )
    assert diagnose_log_text(log).label == "healthy"


def test_tensorflow_info_lines_count_as_routine_notices() -> None:
    log = (
        "2023-06-01 10:00:03.123456: I tensorflow/compiler/xla/service/service.cc:168] XLA service 0x7f0 initialized "
        "for platform CUDA (this does not guarantee that XLA will be used). Devices:\n"
        "2023-06-01 10:00:03.123456: I tensorflow/compiler/xla/service/service.cc:176]   StreamExecutor device (0): "
        "Tesla T4, Compute Capability 7.5\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence < 0.8


def test_a_listing_of_the_weights_a_run_wrote_is_weak_positive_evidence() -> None:
    """n-0005: the user pasted `ls -l` of the output directory (adapter_model.safetensors, train_results.json)."""
    d, _, record = diagnose_dev("n-0005")
    assert d.label == record["label"] == "healthy" and d.confidence < 0.8
    assert "weights or results files" in d.explanation
    # the same kind of listing beside the error it came with (b-0102) is still the error's verdict
    d, _, record = diagnose_dev("b-0102")
    assert d.label == record["label"] == "file_not_found"


def test_cmd_dir_listing_of_a_checkpoint_is_a_listing_too() -> None:
    log = " Directory of C:\\runs\\out\n\n01/09/2024  06:16 PM       104,868,128 model.safetensors\n"
    assert diagnose_log_text(log).label == "healthy"


@pytest.mark.parametrize(
    ("case_id", "cut"),
    [
        ("g-0015", slice(-5, None)),  # a pretty-printed dict of affixed losses ('training_loss': 0.4455536})
        ("a-0030", slice(-5, None)),  # opens on a warning's quoted source line; Lightning's LOCAL_RANK line
        ("m-0021", slice(-5, None)),  # opens inside a wrapped UserWarning (its indented signature lines)
        ("b-0152", slice(None, 8)),  # vLLM's INFO lines behind its "(EngineCore pid=45)" process tags
    ],
)
def test_short_pastes_of_healthy_runs_stay_healthy(case_id: str, cut: slice) -> None:
    """Forum posts paste a few lines: the head or the tail of a healthy run's log must still read as healthy."""
    text, record = dev_case(case_id)
    assert record["label"] == "healthy"
    d = diagnose_log_text("\n".join(text.splitlines()[cut]) + "\n", case_id)
    assert d.label == "healthy" and d.confidence <= 0.8


def test_affixed_loss_keys_do_not_show_a_run_went_on_past_its_error() -> None:
    """f-0005: DIGITS puts 'ERROR: error code -9' above the log, whose last lines are a test net's losses."""
    d, _, record = diagnose_dev("f-0005")
    assert d.label == record["label"] == "host_oom"


@pytest.mark.parametrize(
    "log",
    [
        # transformers' generation and tokenizer advice, printed bare by its default log handler
        "Setting `pad_token_id` to `eos_token_id`:50256 for open-end generation.",
        "The attention mask and the pad token id were not set. As a consequence, you may observe unexpected behavior. "
        "Please pass your input's `attention_mask` to obtain reliable results.",
        "max_steps is given, it will override any value given in num_train_epochs",
        "Asking to truncate to max_length but no maximum length is provided and the model has no predefined maximum "
        "length. Default to no truncation.",
        # torch.distributed.elastic on Windows
        "NOTE: Redirects are currently not supported in Windows or MacOs.",
    ],
)
def test_a_library_advice_printed_without_a_level_is_routine(log: str) -> None:
    d = diagnose_log_text(log + "\n")
    assert d.label == "healthy" and d.confidence <= 0.5


def test_advice_that_names_a_failure_is_not_routine() -> None:
    log = "Please make sure the model was saved: could not find adapter_model.bin\n"
    assert diagnose_log_text(log).label != "healthy"


def test_a_loss_blown_up_to_a_huge_exponent_is_not_progress() -> None:
    """As in j-0038's ESPnet report, whose CTC loss had diverged."""
    assert diagnose_log_text('    "main/loss_ctc": -5.671372443975481e+35,\n').label != "healthy"
    assert diagnose_log_text('    "main/loss_ctc": 15.803862244486808,\n').label == "healthy"


def test_lightning_advice_on_tensor_cores_is_routine() -> None:
    """Lightning's rank-zero info line, printed bare (accelerators/cuda.py)."""
    log = (
        "You are using a CUDA device ('NVIDIA GeForce RTX 4090') that has Tensor Cores. To properly utilize them, you "
        "should set `torch.set_float32_matmul_precision('medium' | 'high')` which will trade-off precision for "
        "performance.\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence <= 0.5


@pytest.mark.parametrize(
    ("case_id", "why"),
    [
        ("b-0153", "The run finished"),  # Trainer.log_metrics: "  train_runtime            = 0:36:58.55"
        ("b-0044", "The run finished"),  # wandb's run summary: "wandb:            train_runtime 473.0422"
        ("b-0189", "routine"),  # tokenizers' "To disable this warning, you can either:" and its indented options
        ("j-0010", "routine"),  # accelerate launch's defaults, cut: "To avoid this warning pass in values …"
    ],
)
def test_the_last_lines_of_healthy_runs_stay_healthy(case_id: str, why: str) -> None:
    text, record = dev_case(case_id)
    assert record["label"] == "healthy"
    d = diagnose_log_text("\n".join(text.splitlines()[-3:]) + "\n", case_id)
    assert d.label == "healthy" and why in d.explanation


def test_an_advisory_line_does_not_swallow_the_plain_lines_after_it() -> None:
    """j-0033's first lines: one bare advisory, then two plain lines that show nothing of the run (it later failed)."""
    text, record = dev_case("j-0033")
    assert record["label"] != "healthy"
    assert diagnose_log_text("\n".join(text.splitlines()[:3]) + "\n").label == "unknown"


@pytest.mark.parametrize(
    "log",
    [
        # YOLO's validation row for all classes (Class Images Instances P R mAP50 mAP50-95)
        "  all        128        929      0.684      0.587      0.651      0.436",
        "mAP@0.5: 0.812",
        # transformers' save_pretrained (configuration_utils / modeling_utils info lines)
        "Configuration saved in ./out/config.json\nModel weights saved in ./out/model.safetensors",
    ],
)
def test_evaluation_rows_and_saved_weights_are_progress(log: str) -> None:
    d = diagnose_log_text(log + "\n")
    assert d.label == "healthy" and "making progress" in d.explanation


_PROGRESS_LINES = (
    "Epoch 1:  45%|████▌     | 450/1000 [02:15<02:45,  3.33it/s, loss=0.512]\n"
    "Epoch 1:  46%|████▌     | 460/1000 [02:18<02:42,  3.33it/s, loss=0.511]\n"
)


@pytest.mark.parametrize(
    "last",
    [
        # libstdc++'s terminate handler (vterminate.cc), which aborts the process next
        "terminate called without an active exception",
        # torchrun's agent stopping the other workers after one failed, logged at WARNING (elastic's api.py)
        "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 1234 closing signal SIGTERM",
        # CPython's Py_FatalError
        "Fatal Python error: init_fs_encoding: failed to get the Python codec of the filesystem encoding",
        # Jupyter's and VS Code's notices of a dead kernel
        "Kernel Restarting: The kernel for train.ipynb appears to have died. It will restart automatically.",
        "The Kernel crashed while executing code in the current cell or a previous cell.",
        # GNU make, when the recipe running the training failed
        "make: *** [Makefile:3: train] Error 1",
    ],
)
def test_progress_that_ends_in_the_runtime_ending_the_process_is_not_healthy(last: str) -> None:
    d = diagnose_log_text(_PROGRESS_LINES + last + "\n")
    assert d.label != "healthy"
    assert diagnose_log_text(_PROGRESS_LINES).label == "healthy"


@pytest.mark.parametrize("case_id", ["p-0016", "p-0019"])
def test_progress_in_no_named_format(case_id: str) -> None:
    """TRAIN p-0016: a test loop's "Losses: 161.9 160.99 …" list; p-0019: timestamped bare rows "1, 8.812, 30.340,
    3.445" whose first column counts iterations. Progress, though nothing names the columns (a weaker verdict)."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "healthy"


def test_numeric_rows_are_progress_only_with_a_growing_counter_and_measured_values() -> None:
    rows = "".join(f"{i}, {1.0 / i:.4f}, {2.5 + i / 10:.3f}\n" for i in range(1, 5))
    d = diagnose_log_text(rows)
    assert d.label == "healthy" and d.confidence < 0.8 and "counter" in d.explanation
    csv = "epoch,train_loss,val_loss\n" + "".join(f"{i},{1.0 / i:.4f},{0.9 / i:.4f}\n" for i in range(1, 5))
    assert diagnose_log_text(csv).label == "healthy"
    # the counter does not grow (a table of measurements): no progress, only results printed (weaker, and said so);
    # the columns are integers (ids, sizes): neither
    same = diagnose_log_text("".join(f"3, {1.0 / i:.4f}, {2.5 + i / 10:.3f}\n" for i in range(1, 5)))
    assert same.label == "healthy" and same.confidence == 0.6 and "counter" not in same.explanation
    ints = "".join(f"{i} {i * 1024} {i * 7}\n" for i in range(1, 5))
    assert diagnose_log_text(ints).label == "unknown"


def test_a_tracker_thread_dying_does_not_stop_the_training() -> None:
    """TRAIN p-0031: wandb's file_stream thread dies ("Exception in thread Thread-5:", threading's excepthook) while
    the epochs go on; a thread of the program's own code dying is still an error."""
    d, _, record = diagnose_dev("p-0031")
    assert d.label == record["label"] == "healthy"
    head = "epoch 1 loss: 0.52\nepoch 2 loss: 0.48\nException in thread Thread-5:\nTraceback (most recent call last):\n"
    own = head + '  File "/work/loader.py", line 9, in run\n    x = q.get()\nRuntimeError: queue broken\n'
    assert diagnose_log_text(own).label != "healthy"


def test_a_count_of_work_done_out_of_a_total_is_progress() -> None:
    """A growing N/M count of one total ("Processed 1000/5000 images") or a markdown table led by an epoch count is
    progress in no named format (a weak verdict); dates, a count of attempts, or a count that does not grow are not."""
    done = "".join(f"Processed {k}000/5000 images\n" for k in (1, 2, 3))
    table = "| epoch | loss |\n|---|---|\n" + "".join(f"| {i} | {1.0 / i:.3f} |\n" for i in (1, 2, 3))
    for log in (done, table):
        d = diagnose_log_text(log)
        assert d.label == "healthy" and d.confidence < 0.8 and "counter" in d.explanation, log
    tries = "".join(f"Attempt {k}/5\n" for k in (1, 2, 3))
    dates = "".join(f"2024/01/0{k} start\n" for k in (1, 2, 3))
    same = "GPU 1/8 ready\n" * 3
    for log in (tries, dates, same):
        assert diagnose_log_text(log).label == "unknown", log


@pytest.mark.parametrize("case_id", ["t-0007", "t-0023", "v-0010"])
def test_scheduler_footers_framework_noise_and_a_loss_table(case_id: str) -> None:
    """t-0007: LSF's job report ends "Successfully completed." (a completion marker); t-0023: Ray's dashboard fails
    to start ("ERROR services.py:1375 -- Couldn't read dashboard.log file. … [Errno 2] No such file or directory")
    and Flower's rounds then report "fit progress: (1, 2.30…, …)"; v-0010: a table headed "Learning Rate  Train Loss
    Theta Loss …" with rows of decimals and no counter column. Before: unknown, file_not_found, unknown."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "healthy"


def test_lsf_exited_footer_and_a_table_without_a_loss_are_not_health() -> None:
    exited = "Sender: LSF System <lsfadmin@x>\nSubject: Job 1: <a> in cluster <c> Exited\nExited with exit code 1.\n"
    assert diagnose_log_text(exited).label != "healthy"
    table = "Alpha\tBeta\tGamma\n" + "0.1\t0.2\t0.3\n" * 4
    assert diagnose_log_text(table).label != "healthy"


def test_a_trackers_teardown_after_a_traceback_is_not_the_run_going_on() -> None:
    """t-0008: a CUDA OOM traceback, then wandb's exit hook prints "wandb: Run history:" and "wandb: train_loss
    4.5044"; before, that read as progress past the error and the verdict was unknown."""
    d, _, record = diagnose_dev("t-0008")
    assert d.label == record["label"] == "gpu_oom"


@pytest.mark.parametrize("case_id", ["x-0042", "z-0014", "z-0027", "zb-0002", "zb-0016", "x-0045", "za-0008"])
def test_job_reports_trial_tables_and_housekeeping_noise_of_healthy_runs(case_id: str) -> None:
    """x-0042: HTCondor's event log "(1) Normal termination (return value 0)"; z-0014: old Ray Tune's trial counts
    as a dict ("{'TERMINATED': 252, …}"); z-0027: a jobstats report "State: RUNNING … (in progress)"; zb-0002: the
    program's "Medians saved."; zb-0016: a tuner's one-row tables headed "loss"; x-0045: slurmstepd's cgroup
    clean-up errors after the run's output; za-0008: conda's CommandNotFoundError for `conda activate` in a batch
    shell, then a progress bar. Before: unknown ×5, unknown, user_code_error."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "healthy", d


def test_the_new_health_signals_do_not_hide_failures() -> None:
    condor = "005 (1.000.000) 2022-03-07 20:48:36 Job terminated.\n\t(1) Normal termination (return value 1)\n"
    assert diagnose_log_text(condor).label != "healthy"
    oom = "Epoch 1 loss 0.5\nslurmstepd: error: Detected 1 oom_kill event in StepId=5.batch. Some of the step tasks have been OOM Killed.\n"
    assert diagnose_log_text(oom).label == "host_oom"
    conda = (
        "CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.\n"
        'Traceback (most recent call last):\n  File "train.py", line 1, in <module>\n    import torch\n'
        "ModuleNotFoundError: No module named 'torch'\n"
    )
    assert diagnose_log_text(conda).label == "missing_dependency"
    one_table = "   loss    n_batch  opt\n-------  ---------  -----\n32.6939        512  adam\n"
    assert diagnose_log_text(one_table).label == "unknown"


def test_an_info_line_is_never_the_root_error() -> None:
    """y-0003: a vLLM server stopped with SIGTERM logs "(EngineCore pid=…) INFO … [shutdown] EngineCore: start
    mode=abort timeout=0s"; the root-line reading took that INFO line (its level behind a process tag) as the root
    error and called the run a timeout."""
    d, _, _ = diagnose_dev("y-0003")
    assert d.label != "timeout"
    assert not any(" INFO " in e for e in d.evidence), d.evidence


def test_a_bar_loading_weights_is_start_up_not_progress() -> None:
    """y-0001: a vLLM server start whose only counters are "Loading safetensors checkpoint shards: 2% Completed |
    1/49" went silent (the host ran out of memory); before, the loading bar read as progress and the run as healthy
    0.8. A training bar still counts."""
    d, _, _ = diagnose_dev("y-0001")
    assert d.label != "healthy"
    loading = "".join(
        f"Loading checkpoint shards: {k * 25}% Completed | {k}/4 [00:0{k}<00:01, 1.0s/it]\n" for k in (1, 2, 3)
    )
    assert diagnose_log_text(loading).label != "healthy"
    training = "".join(f"Epoch 1: {k * 25}%|██  | {k}/4 [00:0{k}<00:01, 1.0it/s, loss=0.{k}]\n" for k in (1, 2, 3))
    assert diagnose_log_text(training).label == "healthy"


@pytest.mark.parametrize(
    ("case_id", "quoted"),
    [
        ("zf-0002", "I slot update_slots"),  # llama.cpp's log, level letter after the elapsed time
        ("zf-0009", "[TRT-LLM] [I]"),  # TensorRT-LLM's bracketed severity
        ("zf-0021", "level=INFO"),  # ollama: gin's [GIN-debug] route table is debug output
        ("zh-0014", "PoolAllocator: After"),  # TensorFlow 1.x allocator growing its pool step after step
        ("zf-0012", "200 OK"),  # a 404 a client got from the server is not the server failing
        ("zg-0026", "saving checkpoint"),  # JAX probing a TPU the machine does not have
    ],
)
def test_emitters_info_severity_and_documented_harmless_lines_are_not_failures(case_id: str, quoted: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "healthy" and any(quoted in e for e in d.evidence), d


@pytest.mark.parametrize(
    ("line", "benign"),
    [
        ('INFO:     127.0.0.1:56148 - "GET /v1/models HTTP/1.1" 404 Not Found', True),
        ('INFO:     127.0.0.1:56148 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error', False),
        ("I0808 20:59:00.964296 1 xla_bridge.py:328] Unable to initialize backend 'tpu': INTERNAL: Failed", True),
        ("RuntimeError: Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices.", False),
        (
            "I0105 14:05:05.749943 1 xla_bridge.py:660] Unable to initialize backend 'cuda': Found cuSOLVER version",
            False,
        ),
    ],
)
def test_only_the_documented_harmless_wordings_are_benign(line: str, benign: bool) -> None:
    from runshepherd.diagnosis.errorblock import is_benign

    assert is_benign(line) is benign


def test_an_error_in_an_info_severity_format_still_fails_the_run() -> None:
    log = (
        "[07/04/2024-13:50:35] [TRT-LLM] [I] Set gemm_plugin to bfloat16.\n"
        "[07/04/2024-13:50:36] [TRT-LLM] [E] Traceback (most recent call last):\nRuntimeError: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp\n"
    )
    assert diagnose_log_text(log).label != "healthy"


def test_a_command_typed_at_the_prompt_after_the_run_is_not_the_runs_failure() -> None:
    # the results printed, then tmux commands typed at the bash prompt: "-bash: capture-pane: command not found"
    d, _, record = diagnose_dev("zd-0020")
    assert d.label == record["label"] == "healthy"
    after = "epoch 1 loss: 0.51\nepoch 2 loss: 0.42\nuser@gpu01:~/run$ nvitop\n-bash: nvitop: command not found\n"
    assert diagnose_log_text(after).label == "healthy"
    # a launcher typed there is a run that could not start; with no run before the prompt the shell's word stands
    relaunch = "epoch 1 loss: 0.51\nepoch 2 loss: 0.42\n$ torchrun --nproc_per_node 2 train.py\n-bash: torchrun: command not found\n"
    assert diagnose_log_text(relaunch).label == "missing_dependency"
    assert diagnose_log_text("$ nvitop\n-bash: nvitop: command not found\n").label == "missing_dependency"


def test_a_counter_that_counts_fractions_of_an_epoch_is_progress() -> None:
    """TRAIN zi-0002 (retired v9, unknown "no error and no progress" before): a Torch7 job prints rows of "fraction
    of the epochs done, loss" ("99.780317659915\t0.82659873962402") and then "The loss after 5 epochs is …". The
    counter column grows though it counts fractions: progress in no named format, a weak verdict."""
    d, _, record = diagnose_dev("zi-0002")
    assert d.label == record["label"] == "healthy" and d.confidence < 0.8 and "counter" in d.explanation
    rows = "".join(f"{k / 4:.4f}\t{1.0 / k:.5f}\n" for k in range(1, 5))
    assert diagnose_log_text(rows).label == "healthy"
    # a decimal first column that does not grow (a constant learning rate, a falling loss) is no counter
    same = "".join(f"0.0002\t{1.0 / k:.5f}\n" for k in range(1, 5))
    falling = "".join(f"{2.0 / k:.4f}\t{1.0 / k:.5f}\n" for k in range(1, 5))
    assert diagnose_log_text(same).label == diagnose_log_text(falling).label == "unknown"


def test_errors_of_an_emitter_the_run_already_went_on_past() -> None:
    """TRAIN zm-0010 (retired v9, file_not_found before): a YOLOv8 run whose wandb sync logs "wandb: ERROR Dropped
    streaming file chunk" while the epochs go on, then "32 epochs completed in 0.037 hours.", then a run of "wandb:
    ERROR Error while calling W&B API: run … not found … (<Response [404]>)". An emitter whose error the run went on
    past before it finished is a side channel: its later errors are not the run's failure."""
    d, _, record = diagnose_dev("zm-0010")
    assert d.label == record["label"] == "healthy" and d.confidence < 0.8 and "went on past" in d.explanation
    steps = "".join(f"epoch {k} loss: {1.0 / k:.3f}\n" for k in range(1, 5))
    side = "tracker: ERROR upload of chunk 3 dropped\n" + steps + "Training completed.\n"
    late = "tracker: ERROR run abc not found (<Response [404]>)\n"
    assert diagnose_log_text(side + late).label == "healthy"
    # another emitter's error after the finish, or the same emitter's error with no finish before it, still counts
    other = "srun: error: node1: task 0: Exited with exit code 1\n"
    assert diagnose_log_text(side + other).label != "healthy"
    cut = "slurmstepd: error: cgroup clean-up failed\n" + steps
    limit = "slurmstepd: error: *** JOB 7 ON node1 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***\n"
    assert diagnose_log_text(cut + limit).label == "timeout"


def test_a_stray_line_the_program_then_worked_on_past_for_minutes() -> None:
    """TRAIN zi-0015 (retired v9, permission_or_auth before): LSF's wrapper prints "Unable to open log file.
    Permission denied" (no level of its own) before the Python program starts; Ray Tune then logs its own INFO and
    WARNING records from 17:02:15 to 17:11:41 and returns its analysis. Minutes of the program's own records after a
    line, and no error after it, show the run worked on past it (a weak verdict: nothing shows steps)."""
    d, _, record = diagnose_dev("zi-0015")
    assert d.label == record["label"] == "healthy" and d.confidence < 0.6 and "went on past" in d.explanation
    stray = "Unable to open log file. Permission denied\n"
    records = "".join(
        f"2024-05-01 10:{m:02d}:00,000\tINFO worker.py:12 -- trial {m} reported\n" for m in range(0, 10, 2)
    )
    assert diagnose_log_text(stray + records).label == "healthy"
    # the same records within seconds of it, an error after them, or the program's own error record: not past it
    quick = "".join(f"2024-05-01 10:00:{s:02d},000\tINFO worker.py:12 -- shutting down {s}\n" for s in range(0, 10, 2))
    assert diagnose_log_text(stray + quick).label != "healthy"
    assert diagnose_log_text(stray + records + "RuntimeError: the trial runner stopped\n").label != "healthy"
    own = "2024-05-01 09:59:00,000\tERROR io.py:3 -- Unable to open log file. Permission denied\n"
    assert diagnose_log_text(own + records).label != "healthy"


def test_a_debug_record_the_program_started_up_past() -> None:
    """TRAIN zl-0011 (retired v9, file_not_found before): vLLM's SageMaker shim logs "[DEBUG] … No customer script
    custom_sagemaker_invocation_handler function found: HandlerFileNotFoundError", then the server comes up ("Application
    startup complete."), answers a request and shuts down. A record its emitter logs at debug level, followed by the
    program's start-up and no error, did not stop the run."""
    d, _, record = diagnose_dev("zl-0011")
    assert d.label == record["label"] == "healthy" and d.confidence < 0.8 and "went on past" in d.explanation
    probe = "2024-05-01 10:00:00 [DEBUG] loader.py:71: No custom handler found: File '/opt/model.py' not found\n"
    up = "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)\n"
    assert diagnose_log_text(probe + up).label == "healthy"
    # at info level, or with an error after the start-up, it still counts
    info = probe.replace("[DEBUG]", "[INFO]")
    assert diagnose_log_text(info + up).label != "healthy"
    assert diagnose_log_text(probe + up + "ERROR:    Exception in ASGI application\n").label != "healthy"


def test_docker_runs_notice_that_it_pulls_the_image_first_is_not_a_missing_file() -> None:
    # docker run prints it whenever the image is not in the local store yet, then pulls it and runs the container
    log = (
        "Unable to find image 'python:3.12-slim' locally\n"
        "3.12-slim: Pulling from library/python\n"
        "Digest: sha256:0f3c\n"
        "Status: Downloaded newer image for python:3.12-slim\n"
        "accuracy 0.91\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy", d


def test_lightgbm_reporting_an_exception_is_not_healthy_whatever_its_info_lines_said() -> None:
    """LightGBM's command-line program prints "Met Exceptions:" and the exception's text when it stops on one (its
    documented failed record, formats/frameworks.py): the [Info] notices before it are not a working run."""
    info = (
        "[LightGBM] [Info] Finished loading parameters\n[LightGBM] [Info] Finished loading data in 0.09 seconds\n"
        "[LightGBM] [Info] Number of positive: 3716, number of negative: 3284\n"
        "[LightGBM] [Info] This is the GPU trainer!!\n[LightGBM] [Info] Total Bins 6143\n"
        "[LightGBM] [Info] Number of data: 7000, number of used features: 28\n"
    )
    assert diagnose_log_text(info).label == "healthy"
    assert diagnose_log_text(info + "Met Exceptions:\nNo OpenCL device found\n").label != "healthy"


def test_an_error_the_program_falls_back_from_right_after_is_not_what_ended_it() -> None:
    """A program that says, right after an error (on its line or after the error's own message lines), that it goes
    on another way ("falling back to/on", "using X instead") caught the error: it did not stop the program. Health
    still needs positive evidence; a traceback between the error and the fallback, or the same failure read again
    after it, keeps the error."""
    err = (
        "Error loading tokenizer 'acme/m': acme/m is not a local folder and is not a valid model identifier listed on "
        "'https://huggingface.co/models'\n"
        "If this is a private repository, make sure to pass a token having permission to this repo\n"
    )
    run = "Running test: concurrency=1\n  Run 1/3...\n  Run 2/3...\n  Run 3/3...\nAverage latency: 202.33 ms\n"
    fell = "Falling back to 'gpt2' tokenizer as approximation.\n"
    assert diagnose_log_text(err + fell + run).label == "healthy"
    assert diagnose_log_text(err + run).label != "healthy"
    # the next record's fallback
    same = (
        "ERROR server.rs:1672: Failed to import python tokenizer ModuleNotFoundError: No module named 'transformers'\n"
    )
    nxt = "WARN server.rs:1440: Odd tokenizer detected, falling back on legacy tokenization\n"
    served = "INFO server.rs:2266: Connected\nINFO Serving on http://0.0.0.0:8080\n"
    assert diagnose_log_text(same + nxt + served).label == "healthy"
    assert diagnose_log_text(same + served).label == "missing_dependency"
    # a traceback between: the fallback answers another handler
    tb = 'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\nOSError: boom\n'
    assert diagnose_log_text(err + tb + fell + run).label != "healthy"


def test_fine_tuning_said_done_is_training_said_done() -> None:
    """ "Finetuning done!" and "Fine-tuning completed" are the program's statement that its training finished, as
    "training done" is: a completion marker, also past an earlier record logged at a high level."""
    log = (
        "INFO:__main__:Loaded Dataset\nCRITICAL:__main__:Starting finetuning\nINFO:__main__:Finetuning done!\n"
        "INFO:__main__:Model and tokenizer saved to results\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and "Finetuning done!" in d.evidence[0], d
    assert diagnose_log_text("2025-02-24 18:20:09,092 INFO: Fine-tuning completed\n").label == "healthy"
    # a fine-tuning begun, or one step of it done, is not the run's end
    assert diagnose_log_text("CRITICAL:__main__:Starting finetuning\nINFO:__main__:Finetuning step done\n").label != (
        "healthy"
    )


def test_a_tagged_process_that_reports_its_steps_after_its_own_exception_caught_it() -> None:
    """An uncaught exception ends its process: a process (tagged by its launcher, Ray's "(TaskRunner pid=N)") that
    prints its own steps and metrics after a traceback caught it. Another process' lines after it, or only
    shutdown chatter, prove nothing; nor does a later traceback of its own."""
    t = "\x1b[36m(TaskRunner pid=5257)\x1b[0m "
    before = t + "Training Progress: 100%|##########| 6/6 [20:33<00:00, 211.53s/it]\n"
    tb = (
        t
        + "Traceback (most recent call last):\n"
        + t
        + '  File "/x/torch/utils/data/_utils/signal_handling.py", line 73, in handler\n'
        + t
        + "    _error_if_any_worker_fails()\n"
        + t
        + "RuntimeError: DataLoader worker (pid 563735) is killed by signal: Killed.\n"
    )
    after = (
        t
        + "step:6 - actor/entropy:0.2491 - critic/score/mean:0.8125 - response_length/mean:118.5\n"
        + t
        + "step:6 - timing_s/gen:41.27 - timing_s/update_actor:12.93 - perf/throughput:1250.4\n"
        + t
        + "Final validation metrics: {'val-core/acc/mean@1': 0.9685}\n"
    )
    assert diagnose_log_text(before + tb + after).label == "healthy"
    assert diagnose_log_text(before + tb).label != "healthy"
    other = after.replace("TaskRunner pid=5257", "WorkerDict pid=6001")
    assert diagnose_log_text(before + tb + other).label != "healthy"
    assert diagnose_log_text(before + tb + after + tb).label != "healthy"


def test_a_later_notice_that_falls_back_from_its_own_problem_does_not_answer_the_failure_above() -> None:
    """A fallback speaks for the error just above it only when it states no problem of its own: JAX's start-up
    notice ("… a CUDA-enabled jaxlib is not installed. Falling back to cpu.") printed after a run's NaN stop is that
    library's own event (the original corpus's nan_loss_07 and preempted_07 read healthy 0.65 when it counted)."""
    log = "\n".join(
        [
            "[2024-03-11 09:12:07] 10/1563 [======>.......] - ETA: 1:01 - loss: 3.1597 - accuracy: 0.51",
            "[2024-03-11 09:12:08] 200/1563 [======>.......] - ETA: 1:02 - loss: 2.8748 - accuracy: 0.52",
            "[2024-03-11 09:12:09] Detected NaN loss at step 850; terminating.",
            "[2024-03-11 09:12:12] srun: error: gpu-node-3: task 0: Exited with exit code 1",
            "[2024-03-11 09:12:14] W0311 09:12:04.123456 139912 xla_bridge.py:863] An NVIDIA GPU may be present on this"
            " machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.",
        ]
    )
    assert diagnose_log_text(log, "nan.log").label == "nan_loss"


def test_a_fallback_right_after_an_error_still_answers_it() -> None:
    log = "\n".join(
        [
            "loading tokenizer",
            "Error loading tokenizer 'my-model': my-model is not a local folder and is not a valid model identifier",
            "Falling back to 'gpt2' tokenizer as approximation.",
            "all done",
        ]
    )
    assert diagnose_log_text(log, "fb.log").label == "healthy"


def test_a_count_of_work_towards_its_total_after_a_warning_shows_the_run_went_on() -> None:
    # shape of zzzf-0003 (dev): torch's too-old-driver warning, then the evaluation counts its samples to the total
    # and reports its scores. Before: cuda_driver 0.94 on the warning
    counted = "".join(f"  {split}: {n}/4000\n" for split in ("train", "valid") for n in range(0, 4000, 640))
    log = (
        "/opt/env/lib/python3.10/site-packages/torch/cuda/__init__.py:188: UserWarning: CUDA initialization: The "
        "NVIDIA driver on your system is too old (found version 12040).\n"
        "  return torch._C._cuda_getDeviceCount() > 0\n"
        "CNN-1, frozen thresholds, n=4000 per split\n" + counted + "  generalisation gap = +0.0106\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy", d
    # the same warning with the count stopped after two lines: no sign the run got past it
    cut = log.split("  train: 1280/4000")[0]
    assert diagnose_log_text(cut).label == "cuda_driver"


def test_the_pytorch_tutorials_time_since_progress_is_progress() -> None:
    # "%s (%d %d%%) %.4f" of the seq2seq and char-RNN tutorials, run to 100% (zzzs-0107)
    rows = [f"52m {s}s (- 0m {9 - s}s) ({100300 + 100 * s} {99 + s // 6}%) 0.19{s}\n" for s in range(0, 7, 3)]
    d = diagnose_log_text("".join(rows))
    assert d.label == "healthy"
    assert diagnose_log_text("".join(r.replace("(- ", "(") for r in rows)).label == "unknown"


def test_kaldis_job_footer_with_code_zero_is_a_finished_job() -> None:
    # utils/parallel/run.pl appends "# Ended (code N)" with the command's exit status
    log = (
        "# gmm-init-mono data/lang/topo 39 exp/mono/0.mdl exp/mono/tree\n# Started at Fri Apr 14 06:15:38 CDT 2023\n#\n"
        "WARNING (gmm-init-mono[5.5]:main():gmm-init-mono.cc:145) Variance flooring applied to 2 dimensions\n"
        "# Accounting: time=1 threads=1\n# Ended (code 0) at Fri Apr 14 06:15:39 CDT 2023, elapsed time 1 seconds\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence >= 0.85
    assert diagnose_log_text(log.replace("(code 0)", "(code 1)")).label != "healthy"


@pytest.mark.parametrize(
    "log",
    [
        # stable-baselines' (v2) PPO2 table, indented by the thread's quoting (zzzzc-0012)
        " --------------------------------------\n | nupdates                 | 782           |\n"
        " | policy_loss              | -0.011813248  |\n | total_timesteps      | 100096        |\n",
        # Moses' train-model.perl announcing its steps (zzzzd-0107, zzzo-0022)
        "(8) learn generation model @ Sun Jul 31 17:23:50 UTC 2022\n  no generation model requested, skipping step\n"
        "(9) create moses.ini @ Sun Jul 31 17:23:50 UTC 2022\n",
    ],
)
def test_progress_of_an_older_rl_library_and_of_a_statistical_mt_pipeline(log: str) -> None:
    assert diagnose_log_text(log).label == "healthy"


def test_a_wall_time_summary_is_the_runs_end_but_not_a_recovery() -> None:
    done = "Total time 15.09201717376709s for 9 iterations.\n"
    d = diagnose_log_text(done)
    assert d.label == "healthy" and d.confidence >= 0.8
    # printed under a failed step it does not make the failure healthy
    failed = (
        "2026-03-18 13:43:24,567 [ERROR]   clean FAILED after 0.6s: 'Index' object has no attribute 'tz'\n"
        "2026-03-18 13:43:24,568 [ERROR]   Pipeline aborted at step 'clean'.\n"
        "  Total time: 90.6s\n"
        "2026-03-18 13:43:24,569 [INFO]   Failed steps: clean\n"
    )
    assert diagnose_log_text(failed).label != "healthy"


def _records(timesteps: list[str], rewards: list[str]) -> str:
    return "".join(
        f"timesteps               {t}\nwall_time               7.1{i}5775e+03\nmean_episode_rewards    {r}\n"
        f"Name: {752 + i}, dtype: float64\n"
        for i, (t, r) in enumerate(zip(timesteps, rewards, strict=True))
    )


def test_records_printed_one_field_per_line_with_a_growing_counter_are_progress() -> None:
    log = _records(["2.467430e+07", "2.470707e+07", "2.473984e+07"], ["5.21e+01", "4.38e+01", "5.21e+01"])
    assert diagnose_log_text(log).label == "healthy"
    # a counter that does not grow is no work counted
    stuck = _records(["2.467430e+07"] * 3, ["5.21e+01", "4.38e+01", "5.21e+01"])
    assert diagnose_log_text(stuck).label == "unknown"


def test_rdkit_refusing_single_molecules_while_the_loader_goes_on_is_healthy() -> None:
    """Retired v29 zzzzzg-0105 and zzzzzg-0106 (both unknown, the maintainers called the messages expected): RDKit
    logs each molecule it cannot sanitize or parse and returns None for it; the loader skips it and goes on. A caller
    that chokes on the None raises its own error, which is read."""
    log = (
        "Constructing molecules from SMILES:  22%|##        | 305/1417 [00:00<00:02, 465.19it/s]\n"
        "RDKit ERROR: [11:20:56] Explicit valence for atom # 7 O, 3, is greater than permitted\n"
        "[11:20:56] Explicit valence for atom # 7 O, 3, is greater than permitted\n"
        "[16:19:54] ERROR: Could not sanitize molecule ending on line 77\n"
        "Constructing molecules from SMILES:  56%|#####     | 788/1417 [00:06<00:11, 55.14it/s]\n"
    )
    assert diagnose_log_text(log).label == "healthy"
    choked = log + (
        "Traceback (most recent call last):\n"
        '  File "featurize.py", line 40, in <module>\n'
        "    n = mol.GetNumAtoms()\n"
        "AttributeError: 'NoneType' object has no attribute 'GetNumAtoms'\n"
    )
    assert diagnose_log_text(choked).label == "user_code_error"
    for case_id in ("zzzzzg-0105", "zzzzzg-0106"):
        assert diagnose_dev(case_id)[0].label == "healthy", case_id


def test_text_the_logs_encoding_lost_is_never_read_as_routine_noise() -> None:
    """A Windows console's message decoded with the wrong code page ('llamafactory-cli' is not a command, in GBK read
    as UTF-8) is unreadable, not routine: beside a routine warning the log is unknown, never healthy."""
    d, _, record = diagnose_dev("zzzzzzza-0112")
    assert record["label"] == "missing_dependency" and d.label == "unknown"
    log = "UserWarning: TypedStorage is deprecated.\n  return self.fget.__get__(instance, owner)()\n"
    assert diagnose_log_text(log).label == "healthy"
    lost = "\ufffd" * 12
    assert diagnose_log_text(log + f"'train' {lost}\n{lost}\n").label == "unknown"


def test_a_banner_drawn_in_block_characters_is_not_progress_after_an_uncaught_error() -> None:
    """stdout is block-buffered under a redirect, so a program's start-up banner can land below the traceback that
    ended it; ASCII art of █ blocks with no count beside it is no progress bar, and the error stays the reading."""
    banner = ["       █████      █████", "      ░░███      ░░███", "  ████████  ██████ ░███████", "  ░░░░ ░░░░░░ ░░░░"]
    log = "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "train.py", line 9, in <module>',
            "    model.to(device)",
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB. GPU 0 has a total capacity of "
            "3.68 GiB of which 14.38 MiB is free.",
            "",
            *banner,
            "Autodetected device type: cuda",
            "Vocab size: 32,768",
        ]
    )
    assert not any(is_progress(ln) for ln in prepare(log.splitlines()).lines if "█" in ln.text)
    assert is_progress(prepare(["train: 45%|████▌     | 45/100 [00:10<00:12, 4.5it/s]"]).lines[0])
    assert diagnose_log_text(log).label == "gpu_oom"


def test_a_drivers_completion_after_a_command_it_ran_failed_with_a_code_is_not_healthy() -> None:
    """A pipeline driver that logs its child command's non-zero code and then its own "COMPLETE" did not run to a
    good end: the stated code is a failure no later finish line undoes."""
    log = "\n".join(
        [
            "2025-12-28 05:06:18 | INFO | STAGE 3: evaluation",
            "2025-12-28 05:06:18 | INFO | Running: python scripts/evaluate.py --model out/final",
            "2025-12-28 05:06:19 | ERROR | Command failed with code 1",
            "2025-12-28 05:06:19 | INFO | EXPERIMENT COMPLETE",
            "2025-12-28 05:06:19 | INFO | Total time: 13h 35m 12s",
            "2025-12-28 05:06:19 | INFO | Results saved to: experiment_outputs",
        ]
    )
    d = diagnose_log_text(log)
    assert d.label != "healthy" and "Command failed with code 1" in " ".join(d.evidence)
