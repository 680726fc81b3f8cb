"""The timeout family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


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
