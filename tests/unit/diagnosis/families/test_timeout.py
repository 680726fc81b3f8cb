"""The timeout family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases

TB = 'Traceback (most recent call last):\n  File "train.py", line 10, in <module>\n    main()\n'


@pytest.mark.parametrize("case_id", ["b-0004", "b-0132", "b-0061"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "timeout"


def test_lsf_and_slurm_time_limits() -> None:
    assert diagnose_log_text("TERM_RUNLIMIT: job killed after reaching LSF run time limit.\n").label == "timeout"
    slurm = "slurmstepd: error: *** JOB 42 ON n1 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT ***\n"
    d = diagnose_log_text(slurm)
    assert (d.label, d.fix.kind) == ("timeout", "increase_timeout_or_checkpoint")


@pytest.mark.parametrize(
    "log",
    [
        # sacct with only the State and ExitCode columns, seff, PBS/MOAB, a grid job, Kubernetes, a harness
        "       JobID      State ExitCode\n------------ ---------- --------\n5678            TIMEOUT      0:0\n"
        "5678.batch   CANCELLED     0:15\n",
        "Job ID: 5678\nState: TIMEOUT (exit code 0)\nCPU Efficiency: 99%\n",
        "MOAB_INFO:  job exceeded wallclock limit\n",
        "Job 5678 has exceeded its wall clock time limit and was killed\n",
        "  Warning  DeadlineExceeded  2m  job-controller  Job was active longer than specified deadline\n",
        "subprocess.TimeoutExpired: Command '['python', 'x.py']' timed out after 3600 seconds\n",
    ],
)
def test_time_limits_in_every_scheduler_wording(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("timeout", "increase_timeout_or_checkpoint"), log


def test_a_harness_time_limit_with_a_log_prefix() -> None:
    log = "Pass 1 (7200s): FAIL\n7369.2s\t59\t    Error (last 1500 chars):\n7369.2s\t60\t      Timeout expired\n"
    assert diagnose_log_text(log).label == "timeout"


@pytest.mark.parametrize(
    "log",
    [
        # Nextflow, modules/nextflow/src/main/groovy/nextflow/executor/local/LocalTaskHandler.groovy
        "Error executing process > 'ALIGN (s1)'\n\nCaused by:\n  Process exceeded running time limit (1h)\n",
        # snakemake-executor-plugin-slurm, snakemake_executor_plugin_slurm/__init__.py (report_job_error message)
        "Error in rule align:\n    message: SLURM-job '4242' failed, SLURM status is: 'TIMEOUT'. Reason: Step 0: None.\n",
        # submitit, submitit/core/core.py: "has not produced any output (state: …)"
        "submitit.core.utils.UncompletedJobError: Job 4242 (task: 0) with path /x/4242_0_result.pkl\n"
        "has not produced any output (state: TIMEOUT)\n",
        # submitit, submitit/core/job_environment.py (has_timed_out)
        "submitit INFO (2024-01-01 00:00:00,000) - Job has timed out. Ran 118 minutes out of requested 120 minutes.\n",
        # Grid Engine execd, MSG_EXECD_EXCEEDHWALLCLOCK_UU
        "05/04/2011 03:36:38|  main|master|W|job 48.1 exceeded hard wallclock time - initiate terminate method\n",
        # OpenPBS MOM, src/resmom/mom_main.c ("%s exceeded limit" after "=>> PBS: job killed: ")
        "=>> PBS: job killed: cput 3602 exceeded limit 3600\n",
        # HTCondor starter, "The job exceeded allowed execute duration of %s"
        "012 (77.000.000) 2024-01-01 10:00:00 Job was held.\n\tThe job exceeded allowed execute duration of 24:00:00\n",
        # AWS Batch statusReason
        "status: FAILED\nreason: Job attempt duration exceeded timeout\nexitCode: 137\n",
        # LSF job report
        "TERM_CPULIMIT: job killed after reaching LSF CPU usage limit.\n",
        # nbclient/papermill
        "nbclient.exceptions.CellTimeoutError: A cell timed out while it was being executed, after 600 seconds.\n",
    ],
)
def test_time_limits_of_workflow_managers_and_other_schedulers(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("timeout", "increase_timeout_or_checkpoint"), log
    assert d.confidence >= 0.8


def test_submitit_saying_not_timed_out_is_not_a_timeout() -> None:
    """submitit logs "Job has not timed out" when the signal was a preemption (TRAIN b-0108/b-0109 are preempted)."""
    log = (
        "submitit WARNING (2022-07-12 04:18:45,881) - Caught signal SIGHUP on n1: this job is preempted.\n"
        "submitit INFO (2022-07-12 04:18:45,881) - Job has not timed out. Ran 1 minutes out of requested 20 minutes.\n"
    )
    assert diagnose_log_text(log).label == "preempted"


def test_exit_140_is_a_weak_time_limit_cue_and_pbs_walltime_status_a_strong_one() -> None:
    # 140 = 128 + SIGUSR2, what LSF/Grid Engine send at a run-time limit: weaker than a stated limit
    d = diagnose_log_text("Process `foo (1)` terminated with an error exit status (140)\n")
    assert d.label == "timeout" and d.confidence < 0.8
    # OpenPBS src/include/job.h: JOB_EXEC_KILL_WALLTIME -29
    d = diagnose_log_text("    Exit_status = -29\n    resources_used.walltime = 24:00:07\n".replace(" = ", "="))
    assert d.label == "timeout"


@pytest.mark.parametrize(
    "log",
    [
        "Job 1234 exceeded its walltime limit and was killed\n",
        # CircleCI's no-output timeout
        "Too long with no output (exceeded 10m0s): context deadline exceeded\n",
        # sacct's State column for a job stopped at its --deadline (Slurm job state DEADLINE)
        "       JobID      State ExitCode\n------------ ---------- --------\n5678            DEADLINE      0:0\n",
    ],
)
def test_walltime_wording_and_the_deadline_state(log: str) -> None:
    assert diagnose_log_text(log).label == "timeout", log


def test_a_helper_command_timing_out_in_a_warning_does_not_stop_a_healthy_run() -> None:
    log = (
        "WARNING: Command '['nvidia-smi', '-q']' timed out after 10 seconds; GPU stats disabled\n"
        "epoch 1 step 100 loss 0.4321\nepoch 1 step 200 loss 0.4012\n"
    )
    assert diagnose_log_text(log).label == "healthy"


@pytest.mark.parametrize("case_id", ["k-0010", "k-0021"])
def test_a_start_up_or_response_timeout(case_id: str) -> None:
    """TorchServe's WorkerInitializationException "Backend worker did not respond in given time" (its
    default_response_timeout) and a server's "did not become ready within 300 s"."""
    d, _, record = diagnose_dev(case_id)
    assert (d.label, d.fix.kind) == ("timeout", "increase_timeout_or_checkpoint")
    assert d.label == record["label"]


def test_kaggles_session_limit() -> None:
    d = diagnose_log_text("Your notebook was stopped because it exceeded the max allowed execution duration.\n")
    assert d.label == "timeout"


def test_a_start_up_given_a_fixed_time() -> None:
    """TRAIN k-0026: Ray Train's controller gives the worker group 30 s to start (the runtime env install took
    longer) and retries; the fix is a longer start-up timeout."""
    d, _, record = diagnose_dev("k-0026")
    assert (
        (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("timeout", "increase_timeout_or_checkpoint")
    )


def test_slurm_deadline_state() -> None:
    # squeue's JOB STATE CODES: DEADLINE "Job terminated on deadline" (https://slurm.schedmd.com/squeue.html)
    d = diagnose_log_text("JobId=4242 JobName=train\n   JobState=DEADLINE Reason=DeadLine Dependency=(null)\n")
    assert d.label == "timeout"


@root_line_cases(("b-0063", "walltime 86415 exceeded limit 86400"))
def test_root_line_vocabulary_reads_timeout(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "timeout", quoted)


def test_a_wall_clock_limit_spelled_with_a_hyphen_is_a_time_limit() -> None:
    """A generic exception whose words are a time limit ("wall-clock limit", "time-limit") is that limit, not a bug
    in the program (the user_code_error reading yields to the words)."""
    log = 'Traceback (most recent call last):\n  File "run.py", line 9, in <module>\n    wait()\nRuntimeError: the job hit its wall-clock limit\n'
    assert diagnose_log_text(log).label == "timeout"


# TensorFlow 1 logs its failed libcuda probe at glog's INFO level and runs on the CPU
# (tensorflow/stream_executor/cuda/cuda_gpu_executor.cc; glog's line prefix: https://github.com/google/glog#log-line-prefix-format)
_TF_PROBE = (
    "I tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:1066] failed to find libcuda.so on this system: Failed "
    "precondition: could not dlopen DSO: libcuda.so.1; dlerror: libcuda.so.1: cannot open shared object file: No "
    "such file or directory"
)


def test_an_info_level_probe_yields_to_the_schedulers_walltime_kill() -> None:
    d, _, record = diagnose_dev("zi-0017")
    assert (d.label, record["label"]) == ("timeout", "timeout")
    assert any("walltime" in e for e in d.evidence)
    log = f"{_TF_PROBE}\nUsing TensorFlow backend.\nepoch 3 done\n=>> PBS: job killed: walltime 72081 exceeded limit 72000"
    assert diagnose_log_text(log).label == "timeout"


def test_an_info_level_line_alone_still_names_its_family() -> None:
    # demoted only against a louder signal of another family: alone, the probe's failure is still the reading
    assert diagnose_log_text(_TF_PROBE).label == "cuda_driver"


def test_steps_flushing_their_bars_after_the_jobs_time_limit_do_not_make_it_history() -> None:
    """Slurm cancels the job at its time limit, then each step; the other steps' progress bars (frames joined by
    carriage returns) flush their last frames between the cancel lines, each step's cancel glued to its last frame,
    and the log ends in the last step's cancel. The progress after the job's cancel is not the run going on past it:
    the log ends in the same failure (zzze-0006, an array of simulation steps, read healthy 0.65 before)."""
    bar = "PIC simulation process:  {p}%|###       | {n}/1000 [1:04:{s:02d}<1:57:23, 10.50s/it]"
    cancel = "slurmstepd: error: *** {what} ON node19 CANCELLED AT 2025-04-09T19:38:15 DUE TO TIME LIMIT ***"

    def frames(p: int, first: int) -> str:
        return "\r".join(bar.format(p=p, n=first + i, s=i) for i in range(5))

    log = "\n".join(
        [
            frames(99, 990) + "\r" + bar.format(p=100, n=1000, s=59),
            frames(40, 400) + "\rPIC simulation processsrun: Job step aborted: Waiting up to 47 seconds for job step",
            "srun: Job step aborted: Waiting up to 47 seconds for job step to finish.",
            cancel.format(what="JOB 1950051"),
            frames(33, 329) + cancel.format(what="STEP 1950051.0"),
            cancel.format(what="STEP 1950051.4"),
            frames(13, 130) + cancel.format(what="STEP 1950051.5"),
            "",
        ]
    )
    d = diagnose_log_text(log, "steps.log")
    assert d.label == "timeout", (d.label, d.explanation)


def test_a_time_limit_message_the_run_went_on_past_stays_history() -> None:
    """The other side: a time-limit line in the middle, then steps to the end, is still a run that went on."""
    log = "\n".join(
        [
            "step 1 loss 2.0",
            "WARNING: request timed out after 30 s, the time limit for the probe; continuing",
            *(f"step {i} loss {2.0 - i / 10:.2f}" for i in range(2, 8)),
        ]
    )
    assert diagnose_log_text(log, "went-on.log").label != "timeout"


def test_the_shells_report_of_sigusr2_is_the_run_limit() -> None:
    # an LSF job's .err ending where the run limit's SIGUSR2 killed it mid-bar (zzzo-0018)
    log = (
        "reconstructing:  98%|█████████▊| 98/100 [00:00<00:00, 136.39it/s]\n"
        "reconstructing: 100%|██████████| 100/100 [00:00<00:00, 136.23it/s]\n"
        "User defined signal 2\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("timeout", "increase_timeout_or_checkpoint")
    assert diagnose_log_text("handler for User defined signal 2 installed\nepoch 1 loss 0.5\n").label != "timeout"


def test_an_htcondor_site_holding_a_job_that_ran_past_its_hours() -> None:
    """CHTC's periodic_hold reason in the job's user log (zzzzk-0101, retired blind v25's miss); the job was then
    removed, so the hold is the time limit."""
    d, _, record = diagnose_dev("zzzzk-0101")
    assert d.label == record["label"] == "timeout"
    assert diagnose_log_text("Error: the job failed to complete the download\n").label != "timeout"


def test_a_time_limit_after_the_tasks_had_ended_with_an_error_is_not_what_stopped_the_run() -> None:
    """Dev zzzzzzzs-0702/0703 (blind v42, read as timeout at 0.97): every rank died on its own error, srun reported
    the tasks "Exited with exit code 1", and twelve hours later Slurm cancelled the idle job at its time limit. The
    program's error is the cause; a limit that stops running tasks is reported before srun's exit lines."""
    error = (
        "[rank0]: Traceback (most recent call last):\n"
        '[rank0]:   File "train.py", line 40, in <module>\n'
        "[rank0]:     summary(model, input_size=(3, 224, 224))\n"
        "[rank0]: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be "
        "the same\n"
    )
    exits = "srun: error: gpu-04: tasks 1-3: Exited with exit code 1\nsrun: error: gpu-04: task 0: Exited with exit code 1\n"
    limit = (
        "slurmstepd-gpu-04: error: *** JOB 148727 ON gpu-04 CANCELLED AT 2025-10-27T05:28:04 DUE TO TIME LIMIT ***\n"
    )
    assert diagnose_log_text(error + exits + limit).label == "user_code_error"
    # the limit stopping the running tasks: srun reports them after it
    assert diagnose_log_text("epoch 3 loss 0.41\n" + limit + exits).label == "timeout"
    assert diagnose_log_text("epoch 3 loss 0.41\n" + limit).label == "timeout"
    assert diagnose_dev("zzzzzzzs-0702")[0].label == "user_code_error"
    assert diagnose_dev("zzzzzzzs-0703")[0].label == "nan_loss"
