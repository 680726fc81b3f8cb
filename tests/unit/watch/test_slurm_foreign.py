"""Parsing `scontrol show job -o` for jobs submitted outside RunShepherd (recorded lines, Slurm 23.x format)."""

from __future__ import annotations

from runshepherd.backends.slurm.foreign import array_rows, jobs_of

PLAIN = (
    "JobId=165 JobName=plainjob UserId=root(0) JobState=PENDING Reason=None ExitCode=0:0 "
    "SubmitTime=2026-11-30T13:58:23 Partition=debug Command=/tmp/sb/job.sh WorkDir=/tmp "
    "StdErr=/tmp/sb/plain-165.out StdIn=/dev/null StdOut=/tmp/sb/plain-165.out Power="
)
ARRAY = (
    "JobId=166 ArrayJobId=166 ArrayTaskId=3-5 JobName=wrap JobState=PENDING Reason=Resources Partition=debug "
    "SubmitTime=2026-11-30T13:58:23 StdOut=/tmp/sb/arr-%A_%a.out\n"
    "JobId=167 ArrayJobId=166 ArrayTaskId=1 JobName=wrap JobState=RUNNING Reason=None Partition=debug "
    "SubmitTime=2026-11-30T13:58:23 StdOut=/tmp/sb/arr-166_1.out\n"
    "JobId=168 ArrayJobId=166 ArrayTaskId=2 JobName=wrap JobState=RUNNING Reason=None Partition=debug "
    "SubmitTime=2026-11-30T13:58:23 StdOut=/tmp/sb/arr-166_2.out\n"
)


def test_a_plain_job_is_one_task_reading_its_own_output_file() -> None:
    [job] = jobs_of(PLAIN)
    assert (job.name, job.job_id, job.partition, job.stdout) == ("plainjob", "165", "debug", "/tmp/sb/plain-165.out")
    assert job.submit_time is not None and job.command == "/tmp/sb/job.sh"


def test_an_array_is_one_task_per_element_including_a_pending_range() -> None:
    jobs = jobs_of(ARRAY)
    assert [(j.name, j.job_id, j.stdout) for j in jobs] == [
        ("wrap_1", "166_1", "/tmp/sb/arr-166_1.out"),
        ("wrap_2", "166_2", "/tmp/sb/arr-166_2.out"),
        ("wrap_3", "166_3", "/tmp/sb/arr-166_3.out"),
        ("wrap_4", "166_4", "/tmp/sb/arr-166_4.out"),
        ("wrap_5", "166_5", "/tmp/sb/arr-166_5.out"),
    ]


def test_no_job_lines_means_no_jobs() -> None:
    assert jobs_of("slurm_load_jobs error: Invalid job id specified\n") == []


def test_squeue_rows_of_an_array_stand_for_each_element() -> None:
    text = "203|1-3|203|PENDING|Resources|\n203|4|207|RUNNING|None|\n"
    assert array_rows(text) == {
        "203_1": "203|PENDING|Resources|",
        "203_2": "203|PENDING|Resources|",
        "203_3": "203|PENDING|Resources|",
        "203_4": "207|RUNNING|None|",
    }
