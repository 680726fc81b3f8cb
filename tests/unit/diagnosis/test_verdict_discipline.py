"""Verdict discipline: "healthy" needs no error line and says how sure it is; an unexplained error is "unknown"."""

from __future__ import annotations

import pytest

from runshepherd.backends.base import Status
from runshepherd.diagnosis import DiagnosisInput, TaskRecord, diagnose, diagnose_log_text
from runshepherd.diagnosis.rules.family import words

from .families.real import diagnose_dev, read_by_rules


def test_an_error_line_no_family_knows_is_unknown_quoting_it() -> None:
    log = "loading shards\nstep 10 loss 2.31\nFATAL: frobnicator lost its marbles (code 7)\n"
    d = diagnose_log_text(log)
    assert d.label == "unknown"
    assert d.evidence == ["FATAL: frobnicator lost its marbles (code 7)"]
    assert "frobnicator lost its marbles" in d.explanation
    assert "full log" in d.fix.description


def test_glog_and_ray_error_severity_prefixes_are_errors() -> None:
    glog = "I0102 10:00:00.000 1 a.cc:1] started\nE0102 10:00:01.000 1 b.cc:9] widget pool drained\n"
    assert diagnose_log_text(glog).label == "unknown"
    ray = "(raylet) [2025-01-02 10:00:00,117 E 1357 1357] (raylet) thing.cc:30: gadget refused\n"
    assert diagnose_log_text(ray).label == "unknown"


def test_an_error_the_run_got_past_is_not_the_verdict() -> None:
    log = "ERROR: shard 3 unreadable, retrying in 2s\nattempt 2/3 succeeded\nstep 5 loss 0.4\nTraining completed\n"
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence >= 0.9


def test_healthy_confidence_follows_the_evidence() -> None:
    finished = diagnose_log_text("epoch 1 loss 0.3\nTraining completed.\n")
    progress = diagnose_log_text("epoch 1 loss 0.3\nepoch 2 loss 0.2\n")
    routine = diagnose_log_text("NCCL INFO Bootstrap : Using eth0\nUserWarning: something deprecated\n")
    assert [d.label for d in (finished, progress, routine)] == ["healthy"] * 3
    assert finished.confidence > progress.confidence > routine.confidence
    assert "finished" in finished.explanation and "progress" in progress.explanation
    assert "nothing in it shows progress" in routine.explanation


def test_counters_that_mention_errors_are_not_errors() -> None:
    d = diagnose_log_text("benchmark: 1000 requests, 0 errors, p50=41ms\nstep 3 loss 0.5\n")
    assert d.label == "healthy"


def test_logs_pasted_as_markdown_quotes_bullets_or_pytest_failures_read_the_same() -> None:
    quoted = "> step 3 loss 0.4\n> slurmstepd: error: *** JOB 7 ON n1 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT ***\n"
    assert diagnose_log_text(quoted).label == "timeout"
    pytest_e = "E   ModuleNotFoundError: No module named 'flash_attn'\n"
    d = diagnose_log_text(pytest_e)
    assert d.label == "missing_dependency" and d.evidence == ["E   ModuleNotFoundError: No module named 'flash_attn'"]
    bullet = "* E0108 22:07:45.954949 1 factory.go:660] Error scheduling default/kafka-0: pod has unbound immediate PersistentVolumeClaims\n"
    assert diagnose_log_text(bullet).label == "unschedulable"


def test_an_unexplained_error_the_run_kept_making_progress_past_is_a_less_sure_healthy() -> None:
    """Background clients (trackers, loggers) print errors while training goes on: steps after the line prove it."""
    log = (
        "wandb: Tracking run with wandb version 0.16.1\n"
        "Epoch 1:  12%|█▏        | 120/1000 [00:30<03:40,  4.0it/s, loss=2.31]\n"
        "2024-01-01 10:00:00,000 - root - ERROR - Failed to log metrics to MLflow: connection refused\n"
        "Epoch 1:  24%|██▍       | 240/1000 [01:00<03:10,  4.0it/s, loss=2.12]\n"
        "Epoch 1:  36%|███▌      | 360/1000 [01:30<02:40,  4.0it/s, loss=2.01]\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and d.confidence < 0.8
    stopped = "\n".join(log.splitlines()[:3])  # the same error as the last thing the run printed
    d = diagnose_log_text(stopped)  # never healthy: its words ("connection refused") give a weak reading
    assert d.label == "network_download" and d.confidence < 0.8 and "reading of one line" in d.explanation


def test_a_failure_the_run_went_on_past_is_not_the_verdict_but_one_it_repeats_is() -> None:
    bar = "Epoch 0:  {p}0%|███       | {p}00/1000 [01:00<02:20,  5.0it/s, loss=1.{p}]\n"
    tb = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3/site-packages/wandb/sdk/internal/internal_api.py", line 1234, in upload\n'
        "    resp = self.session.post(url)\n"
        "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='api.wandb.ai', port=443): Read timed out.\n"
    )
    went_on = bar.format(p=1) + tb + "".join(bar.format(p=p) for p in (2, 3, 4))
    d = diagnose_log_text(went_on)
    assert d.label == "healthy" and d.confidence < 0.8
    assert diagnose_log_text(bar.format(p=1) + tb).label != "healthy"
    # a NaN loss spoils the run while the steps go on: the progress lines are the evidence, not an excuse
    nan = "".join(f"step {i} - loss nan - lr 0.001\n" for i in range(5))
    assert diagnose_log_text(nan).label == "nan_loss"


_OOM_THEN_STEPS = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 10, in <module>\n'
    '    x = torch.zeros(10**12, device="cuda")\n'
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.73 TiB (GPU 0; 79.15 GiB total capacity)\n"
    "step 10 loss 0.5\nstep 20 loss 0.4\nstep 30 loss 0.3\n"
)


def test_a_failed_run_whose_only_error_it_went_past_is_named_by_that_error() -> None:
    """The same log reads the same under `diagnose WF` (status FAILED, exit 1) and `diagnose --log` (the log's own
    "exited with code 1"): the error it printed steps after is still what stopped it, never "unknown"."""
    from runshepherd.diagnosis import DiagnosisInput, diagnose
    from runshepherd.diagnosis.models import TaskRecord

    exited = _OOM_THEN_STEPS + "[train][osmo] Task exited with code 1\n"
    pasted = diagnose_log_text(exited)
    assert pasted.label == "gpu_oom" and "CUDA out of memory" in pasted.evidence[0]
    assert "then failed" in pasted.explanation
    lines = _OOM_THEN_STEPS.splitlines()
    wf = diagnose(
        DiagnosisInput(tasks=[TaskRecord(name="train", status="FAILED", exit_code=1)], log_lines={"train": lines})
    )
    assert [d.label for d in wf] == ["gpu_oom"]
    # no failed status and no exit code: the steps after it are the truest reading (the run may still be going)
    assert diagnose_log_text(_OOM_THEN_STEPS).label == "healthy"
    # exit 0 after it: it went on past it and finished
    assert diagnose_log_text(_OOM_THEN_STEPS + "Task exited with code 0\n").label == "healthy"
    # a later error no family knows is what stopped it, not the early one
    later = read_by_rules(_OOM_THEN_STEPS + "FATAL: frobnicator lost its marbles\nexit code 1\n")
    assert later.label == "unknown" and "frobnicator" in later.explanation


def test_a_hub_request_that_fell_back_to_the_cache_is_history() -> None:
    """huggingface_hub logs a failed request as "'<error>' thrown while requesting HEAD <url>" and datasets says
    "Will try to load from local cache"; with the cache serving it and training going on, the run is healthy."""
    log = (
        "Couldn't connect to the Hub: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max "
        "retries exceeded with url: /api/datasets/glue (Caused by NewConnectionError('Failed to establish a new "
        "connection: [Errno 101] Network is unreachable'))\")).\n"
        "Will try to load from local cache.\n"
        "Using the latest cached version of the dataset since glue couldn't be found on the Hugging Face Hub\n"
        "{'loss': 0.6931, 'learning_rate': 4.9e-05, 'epoch': 0.1}\n"
    )
    assert diagnose_log_text(log).label == "healthy"
    failed = log.splitlines()[0] + "\nOSError: We couldn't connect to 'https://huggingface.co' to load this file.\n"
    assert diagnose_log_text(failed).label == "network_download"


def test_a_healthy_verdict_after_an_error_says_it_saw_the_error() -> None:
    """The explanation matches the log: a run that printed an error and went on is not described as error-free."""
    log = (
        "Epoch 1:  12%|█▏        | 120/1000 [00:30<03:40,  4.0it/s, loss=2.31]\n"
        "fatal: not a git repository (or any of the parent directories): .git\n"
        "Epoch 1:  24%|██▍       | 240/1000 [01:00<03:10,  4.0it/s, loss=2.12]\n"
        "Epoch 1:  36%|███▌      | 360/1000 [01:30<02:40,  4.0it/s, loss=2.01]\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "healthy" and "no error" not in d.explanation
    assert "went on past it" in d.explanation and "not a git repository" in d.explanation
    clean = diagnose_log_text("Epoch 1/3\n100/100 [====] - 5s 50ms/step - loss: 0.51\n")
    assert clean.label == "healthy" and "shows no error" in clean.explanation


@pytest.mark.parametrize(
    ("case_id", "quoted"),
    [
        ("t-0028", "Can't find 'adapter_config.json'"),
        ("w-0015", "This container was built for NVIDIA Driver Release 450.51 or later, but"),
    ],
)
def test_an_error_no_rule_names_is_read_by_the_families_words_before_unknown(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py): the root error line's own words (a library that cannot be
    loaded, a file that cannot be found, a driver release) point to a family. The verdict is weak, quotes the line
    and says it is a reading of that one line; the fix is the family's."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] and 0.5 <= d.confidence <= 0.65
    assert any(quoted in e for e in d.evidence) and "reading of one line" in d.explanation
    assert quoted[:30] in d.explanation and d.fix.kind != "none"


def test_the_root_line_reading_never_replaces_a_family_or_healthy_and_only_reads_failed_runs() -> None:
    wrote = "step 10 loss 0.4\nERROR: could not open shared object libfoo.so\n"
    assert diagnose_log_text(wrote).label == "missing_dependency"  # the line's words, read weakly
    # a family's own wording keeps its verdict and its confidence
    d = diagnose_log_text("Traceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'\n")
    assert d.label == "missing_dependency" and d.confidence >= 0.8 and "reading of one line" not in d.explanation
    # a run that went on past the error is still healthy
    past = "ERROR: could not open shared object libfoo.so\n" + "".join(f"step {i} loss 0.{i}\n" for i in range(1, 6))
    assert diagnose_log_text(past).label == "healthy"
    # a completed run is never read for a failure; a failed one is
    logs = {"t": ["ERROR: could not open shared object libfoo.so"]}
    done = diagnose(DiagnosisInput(status=Status.COMPLETED, tasks=[], log_lines=logs))
    assert [x.label for x in done] == ["healthy"]
    failed = diagnose(DiagnosisInput(tasks=[TaskRecord(name="t", status="FAILED")], log_lines=logs))
    assert [x.label for x in failed] == ["missing_dependency"] and failed[0].confidence <= 0.65
    # words no family's vocabulary knows stay "unknown"
    assert diagnose_log_text("FATAL: frobnicator lost its marbles (code 7)\n").label == "unknown"


def test_a_root_line_reading_is_weaker_than_any_family_wording() -> None:
    with pytest.raises(ValueError, match="outside 0.5-0.65"):
        words(r"\bboom\b", 0.8, "an explosion")


def test_a_printed_setting_named_like_a_failure_is_not_read_as_one() -> None:
    """torchrun prints its rendezvous settings ("'timeout': 900"), a pod spec its probe ("timeout=1s #failure=3"):
    the failure words there name settings, so the root-line reading does not take those lines."""
    dump = "  rdzv_configs     : {'rank': 0, 'timeout': 900, 'node_unit': 1}\n"
    assert diagnose_log_text(dump).label == "unknown"
    probe = "    Liveness:  http-get http://:8085/health-check delay=0s timeout=1s period=10s #success=1 #failure=3\n"
    assert diagnose_log_text(probe).label == "unknown"
    # the same words said of the run are read
    assert diagnose_log_text("rendezvous timed out after 900 seconds waiting for rank 1\n").label != "unknown"


@pytest.mark.parametrize(
    ("last", "etype"),
    [
        # the built-in classes whose names do not end in Error/Exception/Exit/Interrupt
        # (https://docs.python.org/3/library/exceptions.html#exception-hierarchy)
        ('Exception: data file "train.bin" is corrupted', "Exception"),
        ("StopIteration", "StopIteration"),
        ("ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)", "ExceptionGroup"),
    ],
)
def test_a_builtin_exception_of_any_name_after_progress_is_never_healthy(last: str, etype: str) -> None:
    progress = "".join(f"Epoch {i}/10 loss {1 / i:.3f}\n" for i in range(1, 5))
    bare = diagnose_log_text(progress + last + "\n")
    assert bare.label != "healthy", (etype, bare.explanation)
    tb = 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n    step()\n'
    d = diagnose_log_text(progress + tb + last + "\n")
    assert d.label == "user_code_error" and any(etype in e for e in d.evidence), d.explanation


@pytest.mark.parametrize(
    "line",
    [
        # GNU's "file:line:column: error: …" (https://www.gnu.org/prep/standards/html_node/Errors.html): a CUDA
        # extension a run builds as it goes (a JIT op) failing to compile
        '/root/.cache/torch_extensions/fused_adam/multi_tensor_adam.cu:12:5: error: identifier "__hadd2" is undefined',
        # the EDG/MSVC "file(line): error …" of nvcc and cl.exe
        'csrc/kernel.cu(45): error: identifier "__hadd2" is undefined',
    ],
)
def test_a_compiler_error_after_progress_is_never_healthy(line: str) -> None:
    progress = "".join(f"Epoch {i}/10 loss {1 / i:.3f}\n" for i in range(1, 5))
    d = diagnose_log_text(progress + line + "\n")
    assert d.label != "healthy", d.explanation
    assert line in d.evidence


def test_a_command_line_tools_failure_mark_is_an_error_never_healthy() -> None:
    # spaCy's downloader (wasabi's msg.fail) after a 100% progress bar
    log = (
        "Fetching 7 files: 100%|██████████████████████████| 7/7 [00:00<00:00, 41883.21it/s]\n\n"
        "✘ No compatible package found for 'en_core_news_sm' (spaCy v3.7.4)\n"
    )
    d = read_by_rules(log)  # the rules quote it; the retrained fallback (stop 60) proposes a family for it
    assert d.label == "unknown" and any("No compatible package" in e for e in d.evidence)
    assert diagnose_log_text(log).label != "healthy"
    # a run's own result summary with a cross is not an error line
    summary, _, record = diagnose_dev("zzz-0012")  # "❌ Not solved (Target: 475.0, Best: 27.00)"
    assert summary.label == record["label"] == "healthy"


def test_an_optuna_trial_that_failed_is_quoted_never_no_error() -> None:
    # logged at warning level while the study goes on: the trial, the job's work, raised
    log = (
        "Sampler: tpe - Pruner: median\n"
        "[W 2020-06-25 11:09:18,251] Setting status of trial#0 as TrialState.FAIL because of the following error: "
        "TypeError(\"__init__() got an unexpected keyword argument 'nminibatches'\")\n"
    )
    d = read_by_rules(log)
    assert d.label != "healthy" and any("TrialState.FAIL" in e for e in d.evidence)


def test_an_evaluation_printing_nan_for_its_result_is_no_routine_healthy_log() -> None:
    warn = (
        "/lib/python3.6/site-packages/numpy/core/fromnumeric.py:2957: RuntimeWarning: Mean of empty slice.\n"
        "  out=out, **kwargs)\n"
    )
    d = diagnose_log_text(warn + "mAP:  nan\n" + warn + "mean dice:nan(nan)\n")
    assert d.label == "unknown" and d.evidence == ["mAP:  nan"] and "not a number" in d.explanation
    assert diagnose_log_text(warn + "mAP:  0.412\n" + warn + "mean dice:0.80(0.02)\n").label == "healthy"
    assert diagnose_dev("zzzzzzl-0208")[0].label != "healthy"
