"""The preempted family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases

TB = 'Traceback (most recent call last):\n  File "train.py", line 10, in <module>\n    main()\n'


@pytest.mark.parametrize("case_id", ["b-0112", "b-0110", "b-0030"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "preempted"


def test_a_node_lost_under_the_job_is_preemption() -> None:
    log = (
        "2022-02-15 16:53:52,096\tWARNING worker.py:1462 -- The node with node id: 8f2 and ip: 10.128.0.103 has been "
        "marked dead because the detector has missed too many heartbeats from it.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.origin, d.fix.kind) == ("preempted", "infra", "resubmit")


@pytest.mark.parametrize(
    "log",
    [
        # the platform took the job back: scheduler state columns, SIGTERM from outside, nodes going away
        "       JobID      State ExitCode\n------------ ---------- --------\n5678          PREEMPTED      0:0\n",
        "       JobID      State ExitCode\n------------ ---------- --------\n5678          NODE_FAIL      1:0\n",
        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 4321 got signal: 15\n",
        "WARNING:torch.distributed.elastic.agent.server.api:Received Signals.SIGTERM death signal, shutting down "
        "workers\n",
        "  exitcode  : -15 (pid: 4321)\n  error_file: <N/A>\n  traceback : Signal 15 (SIGTERM) received by PID 4321\n",
        "Message:        Pod was terminated in response to imminent node shutdown.\n",
        "ray.exceptions.NodeDiedError: Task failed due to the node dying.\n",
        "  Warning  Preempting  30s  kueue  Preempted to accommodate a workload (UID: 1) due to prioritization\n",
    ],
)
def test_platform_stops_in_every_wording(log: str) -> None:
    assert diagnose_log_text(log).label == "preempted", log


def test_sigterm_a_launcher_sends_its_own_workers_is_not_a_preemption() -> None:
    """torchrun sends SIGTERM to the other workers after one fails: that echo is not the platform's doing."""
    log = (
        "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 4322 closing signal SIGTERM\n"
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 4321)\n"
    )
    assert diagnose_log_text(log).label != "preempted"


def test_htcondor_moves_an_evicted_job() -> None:
    log = (
        "024 (6509789.000.000) 03/27 15:12:51 Job reconnection failed\n    Job not found at execution machine\n"
        "    Can not reconnect to slot1@node-10, rescheduling job\n"
    )
    assert diagnose_log_text(log).label == "preempted"


@pytest.mark.parametrize(
    "log",
    [
        # Slurm src/api/step_launch.c: error("Node failure on %s", ...)
        "srun: error: Node failure on node017\nsrun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n",
        # Slurm src/slurmd/slurmstepd/req.c (the signal and requeue reasons)
        "slurmstepd: error: *** JOB 77 ON n1 CANCELLED AT 2024-05-01T10:00:00 DUE to SIGNAL Terminated ***\n",
        "slurmstepd: error: *** JOB 77 ON n1 CANCELLED AT 2024-05-01T10:00:00 DUE TO JOB REQUEUE ***\n",
        # Kubernetes DisruptionTarget condition (reason PreemptionByScheduler and its message)
        '  - type: DisruptionTarget\n    status: "True"\n    reason: PreemptionByScheduler\n'
        "    message: 'default-scheduler: preempting to accommodate a higher priority pod'\n",
        "    reason: DeletionByTaintManager\n    message: 'Taint manager: deleting due to NoExecute taint'\n",
        # AWS Batch statusReason for a reclaimed host
        "status: FAILED\nstatusReason: Host EC2 (instance i-0abc123) terminated.\n",
        "Job 1234 was requeued due to preemption\n",
        # LSF termination reasons: the host's load threshold, an administrator's requeue
        "TERM_LOAD: job killed after load exceeds threshold.\n",
    ],
)
def test_platform_stops_outside_the_known_formats(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("preempted", "resubmit"), log


def test_a_cancelled_line_with_a_time_limit_reason_is_not_a_preemption() -> None:
    log = "slurmstepd: error: *** STEP 5.0 ON n1 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***\n"
    assert diagnose_log_text(log).label == "timeout"


@pytest.mark.parametrize(
    "log",
    [
        # Ray core_worker: error_message "Actor died by preemption." (NodeDeathInfo AUTOSCALER_DRAIN_PREEMPTED)
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: Trainer\nActor died by preemption.\n",
        # Ray GCS health check on a node that stopped answering (UNEXPECTED_TERMINATION reason message)
        "The node was terminated: health check failed due to missing too many heartbeats\n",
        # snakemake-executor-plugin-slurm logs this banner with logger.warning
        "WARNING: ===== A Job preemption  occured! =====\n",
        "WARNING:root:Spot instance interruption notice received, stopping\n",
        # Slurm srun launch.c ("%s: %s %s: %s" with task_str "tasks" and the signal's name)
        "srun: error: node12: tasks 0-3: Terminated\n",
    ],
)
def test_preemptions_reported_at_warning_level_or_by_ray(log: str) -> None:
    assert diagnose_log_text(log).label == "preempted", log


def test_a_run_that_resumed_after_a_preemption_is_still_healthy() -> None:
    log = "WARNING: previous attempt was preempted, resuming from checkpoint\nepoch 3 loss 0.4321\n"
    assert diagnose_log_text(log).label == "healthy"


def test_a_cache_eviction_warning_is_not_a_pod_eviction() -> None:
    log = "WARNING: 12 entries evicted from the compile cache (Evicted: 12)\nepoch 2 step 50 loss 0.3120\n"
    assert diagnose_log_text(log).label == "healthy"


def test_slurm_node_fail_state_decides_over_its_node_down_reason() -> None:
    # scontrol show job; squeue's JOB STATE CODES (https://slurm.schedmd.com/squeue.html#SECTION_JOB-STATE-CODES):
    # NODE_FAIL "Job terminated due to failure of one or more allocated nodes"
    for state in ("NODE_FAIL", "BOOT_FAIL"):
        log = f"JobId=4242 JobName=train\n   JobState={state} Reason=NodeDown Dependency=(null)\n"
        assert diagnose_log_text(log).label == "preempted"


def test_taint_eviction_and_compute_engine_host_events() -> None:
    # kubernetes pkg/controller/tainteviction/taint_eviction.go: event reason TaintManagerEviction
    k8s = "  Normal   TaintManagerEviction  2m  taint-eviction-controller  Marking for deletion Pod default/train-0\n"
    assert diagnose_log_text(k8s).label == "preempted"
    # Compute Engine system events (https://cloud.google.com/compute/docs/instances/host-maintenance-overview)
    gce = "2024-05-01T03:12:44Z  compute.instances.hostError  train-vm-0  Instance terminated due to a host error\n"
    assert diagnose_log_text(gce).label == "preempted"


@root_line_cases(("t-0003", "DUE TO NODE FAILURE"), ("b-0025", "The actor died because its node has died"))
def test_root_line_vocabulary_reads_preempted(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "preempted", quoted)


def test_lsf_termination_reasons_of_the_platform_or_its_administrator() -> None:
    # bacct/bhist/bjobs termination reasons (https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_admin/termination_reasons_lsf.html)
    for reason in (
        "TERM_ADMIN: job killed by root or LSF administrator",
        "TERM_MC_RECALL: job killed by LSF due to multicluster job recall",
    ):
        log = f"Job <4242> exited; {reason}.\nExited with exit code 130.\n"
        d = diagnose_log_text(log)
        assert d.label == "preempted" and d.confidence < 0.8


@pytest.mark.parametrize(
    "log",
    [
        # EC2 StateReason codes (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_StateReason.html)
        "Instance i-0abc123 state: terminated (Server.SpotInstanceTermination)\n",
        "Server.SpotInstanceShutdown: The instance was stopped because the number of Spot requests with a maximum "
        "price equal to or higher than the Spot price exceeded available capacity\n",
        # Azure's Scheduled Events document for a spot VM about to be evicted
        '{"DocumentIncarnation": 1, "Events": [{"EventId": "A1", "EventType": "Preempt", "ResourceType": '
        '"VirtualMachine", "Resources": ["vm1"], "EventStatus": "Scheduled"}]}\n',
    ],
)
def test_the_clouds_own_codes_for_a_machine_taken_back(log: str) -> None:
    assert diagnose_log_text(log).label == "preempted"


def test_argo_steps_whose_pods_were_deleted_under_them_are_resubmitted() -> None:
    log = (
        "STEP                           TEMPLATE   PODNAME              DURATION  MESSAGE\n"
        " ✖ hm-prssb                     main                                       child 'hm-prssb-1' failed\n"
        "  ├-⚠ hybridize(1)               hm-prssb-1650539430  pod deleted\n"
        "  ├-⚠ hybridize(2)               hm-prssb-2321791285  pod deleted\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("preempted", "resubmit")


def test_a_cloud_vm_powered_off_under_the_job_is_taken_away() -> None:
    # a GCP spot worker polling for its termination notice, then the ACPI soft-off the preemption sends (e-0056)
    log = (
        "Jan 30 10:33:00Z worker-1 start-worker 2024/01/30 10:33:00 polling for termination-time\n"
        "Jan 30 10:33:08Z worker-1 systemd-logind Power key pressed.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("preempted", "resubmit")


def test_an_evicted_job_the_scheduler_ran_again_to_a_normal_end_is_not_preempted() -> None:
    # HTCondor's job event log: evicted, executing again, then "Normal termination (return value 0)" (zzzm-0120)
    evicted = (
        "001 (58019.000.000) 2022-07-20 10:50:49 Job executing on host: <10.0.0.7:9618>\n"
        "004 (58019.000.000) 2022-07-20 13:12:10 Job was evicted.\n"
        "\t(0) CPU times\n"
        "001 (58019.000.000) 2022-07-20 14:15:23 Job executing on host: <10.0.0.7:9618>\n"
    )
    done = "005 (58019.000.000) 2022-07-20 19:11:39 Job terminated.\n\t(1) Normal termination (return value 0)\n"
    assert diagnose_log_text(evicted + done).label == "healthy"
    assert diagnose_log_text(evicted).label == "preempted"


def test_a_worker_told_by_the_cloud_metadata_that_termination_is_imminent() -> None:
    # Taskcluster's generic-worker on a GCP spot VM (e-0057)
    log = (
        "Apr 25 18:31:13 worker-1 start-worker[882]: 2024/04/25 18:31:13 Disk available: 301409869824 bytes\n"
        "Apr 25 18:31:23 worker-1 start-worker[882]: 2024/04/25 18:31:23 GCP Metadata Service says termination is "
        "imminent\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("preempted", "resubmit")
