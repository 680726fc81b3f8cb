"""Pure Slurm mappings (no cluster needed): states, exit codes, sbatch flags, comments, squeue and scontrol text."""

from __future__ import annotations

import pytest

from runshepherd.backends.base import Status, TaskStatus, aggregate_status
from runshepherd.backends.slurm.jobs import (
    JobTag,
    dependency_arg,
    exit_code_of,
    parse_squeue,
    resource_args,
    time_limit_minutes,
    verdict,
)
from runshepherd.backends.slurm.nodes import gpu_count, nodes_of, pools_of
from runshepherd.spec.model import ResourceSpec


@pytest.mark.parametrize(
    ("state", "reason", "expected"),
    [
        ("PENDING", "Resources", TaskStatus.SCHEDULING),
        ("PENDING", "Dependency", TaskStatus.WAITING),
        ("CONFIGURING", "None", TaskStatus.INITIALIZING),
        ("RUNNING", "None", TaskStatus.RUNNING),
        ("COMPLETING", "None", TaskStatus.RUNNING),
        ("COMPLETED", "None", TaskStatus.COMPLETED),
        ("FAILED", "NonZeroExitCode", TaskStatus.FAILED),
        ("OUT_OF_MEMORY", "OutOfMemory", TaskStatus.FAILED),
        ("TIMEOUT", "TimeLimit", TaskStatus.FAILED_EXEC_TIMEOUT),
        ("CANCELLED", "None", TaskStatus.FAILED_CANCELED),
        ("CANCELLED", "DependencyNeverSatisfied", TaskStatus.FAILED_UPSTREAM),
        ("NODE_FAIL", "None", TaskStatus.FAILED_BACKEND_ERROR),
        ("BOOT_FAIL", "None", TaskStatus.FAILED_START_ERROR),
        ("PREEMPTED", "None", TaskStatus.RESCHEDULED),
        ("REQUEUED", "None", TaskStatus.RESCHEDULED),
    ],
)
def test_slurm_states_map_to_the_osmo_vocabulary(state: str, reason: str, expected: TaskStatus) -> None:
    assert verdict(state, reason, None).status is expected


def test_workflow_level_mapping_keeps_preempted_work_alive() -> None:
    for state in ("PREEMPTED", "REQUEUED", "PENDING", "CONFIGURING"):
        assert aggregate_status([verdict(state, "None", None).status]) is Status.PENDING
    assert aggregate_status([verdict("COMPLETING", "None", 0).status]) is Status.RUNNING
    assert aggregate_status([verdict("TIMEOUT", "TimeLimit", None).status]) is Status.FAILED_EXEC_TIMEOUT
    assert aggregate_status([verdict("CANCELLED", "None", None).status]) is Status.FAILED_CANCELED
    assert aggregate_status([verdict("NODE_FAIL", "None", None).status]) is Status.FAILED_BACKEND_ERROR
    assert aggregate_status([verdict("BOOT_FAIL", "None", None).status]) is Status.FAILED_START_ERROR


def test_oom_is_failed_with_an_oomkilled_message_and_unknown_states_are_not_guessed_done() -> None:
    oom = verdict("OUT_OF_MEMORY", "OutOfMemory", None)
    assert oom.oom and "OOMKilled" in (oom.message or "") and "JobState=OUT_OF_MEMORY" in (oom.message or "")
    assert verdict("FAILED", "NonZeroExitCode", 3).message.startswith("the command exited with code 3")
    assert verdict("SOMETHING_NEW", "None", None).status.alive()


def test_wait_status_decoding() -> None:
    assert exit_code_of(768) == 3
    assert exit_code_of(0) == 0
    assert exit_code_of(9) == 137  # killed by SIGKILL, as a shell reports it
    assert exit_code_of(None) is None


def test_sbatch_flags_from_resources_time_and_dependencies() -> None:
    res = ResourceSpec(cpu=1.5, memory="256Mi", gpu=2)
    assert resource_args(res) == ["--cpus-per-task=2", "--mem=256M", "--gres=gpu:2"]
    assert resource_args(ResourceSpec(memory="1.5Gi")) == ["--mem=1536M"]
    assert resource_args(ResourceSpec()) == []
    assert [time_limit_minutes(s) for s in (1, 60, 61, 3600)] == [1, 1, 2, 60]
    assert dependency_arg([]) == []
    assert dependency_arg(["11", "12"]) == ["--dependency=afterok:11:12", "--kill-on-invalid-dep=yes"]


def test_job_comment_round_trip_survives_odd_keys() -> None:
    tag = JobTag(workflow_id="train-3", task="eval", key="session 1;attempt=2")
    back = JobTag.parse(tag.comment())
    assert back == tag
    assert JobTag.parse("someone else's comment") is None
    assert JobTag.parse("(null)") is None


def test_parse_squeue_rows() -> None:
    text = (
        "41|FAILED|NonZeroExitCode|768|runshepherd;wf=a-1;task=t|2026-11-30T03:34:40|2026-11-30T03:34:41|"
        "2026-11-30T03:34:42|localnode|debug|\n"
        "42|PENDING|PartitionConfig|0||2026-11-30T03:35:00|2027-01-01T00:00:00|Unknown||debug|\n"
    )
    done, waiting = parse_squeue(text)
    assert (done.job_id, done.state, exit_code_of(done.wait_status)) == ("41", "FAILED", 3)
    assert done.tag and done.tag.workflow_id == "a-1" and done.nodes == "localnode"
    assert done.end_time is not None and done.start_time is not None
    assert waiting.start_time is None and waiting.end_time is None  # a forecast is not a start
    assert waiting.tag is None and waiting.reason == "PartitionConfig"


NODE = (
    "NodeName=gpu1 Arch=x86_64 CoresPerSocket=8 CPUAlloc=6 CPUTot=16 CPULoad=0.1 Gres=gpu:a100:4(S:0-1) "
    "NodeAddr=10.0.0.1 OS=Linux 6.1.0 #1 SMP RealMemory=65536 AllocMem=16384 FreeMem=50000 "
    "State=MIXED Partitions=gpu,all GresUsed=gpu:a100:1(IDX:0)\n"
    "NodeName=cpu1 CPUAlloc=0 CPUTot=4 Gres=(null) RealMemory=8192 AllocMem=0 State=DOWN+DRAIN Partitions=all\n"
)
PARTS = (
    "PartitionName=gpu Default=NO MaxTime=1-00:00:00 State=UP TotalCPUs=16 TotalNodes=1\n"
    "PartitionName=all Default=YES MaxTime=UNLIMITED State=UP TotalCPUs=20 TotalNodes=2\n"
)


def test_nodes_and_partitions_from_scontrol() -> None:
    assert gpu_count("gpu:a100:4(S:0-1)") == 4 and gpu_count("(null)") == 0 and gpu_count("gpu:2") == 2
    gpu_nodes = nodes_of(NODE, "gpu")
    assert [n.hostname for n in gpu_nodes] == ["gpu1"]
    n = gpu_nodes[0]
    assert (n.cpu_total, n.cpu_free, n.memory_total_gi, n.memory_free_gi) == (16, 10, 64, 48)
    assert (n.gpu_total, n.gpu_free) == (4, 3) and n.conditions == ["Ready"]
    assert nodes_of(NODE, "all")[1].conditions[0].startswith("NotReady")
    pools = {p.name: p for p in pools_of(PARTS, NODE)}
    assert (pools["gpu"].total_capacity, pools["gpu"].total_usage, pools["gpu"].total_free) == (4, 1, 3)
    assert "(default)" in pools["all"].description
