"""The unschedulable family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases


@pytest.mark.parametrize("case_id", ["b-0014", "b-0117", "b-0184"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "unschedulable"


def test_a_scheduler_verdict_without_itemised_reasons() -> None:
    log = "  Warning  FailedScheduling  12s  default-scheduler  0/2 nodes are available: 2 Too many pods.\n"
    assert diagnose_log_text(log).label == "unschedulable"
    bare = "Warning FailedScheduling 3m default-scheduler 0/2 nodes are available.\n"
    d = diagnose_log_text(bare)
    assert (d.label, d.fix.kind) == ("unschedulable", "change_resources_or_wait")


@pytest.mark.parametrize(
    "log",
    [
        "salloc: error: QOSMaxSubmitJobPerUserLimit\n",
        "  Warning  Pending  4m  kueue-admission  couldn't assign flavors to pod set job: resource cpu unavailable "
        "in ClusterQueue\n",
    ],
)
def test_scheduler_limits_and_admission(log: str) -> None:
    assert diagnose_log_text(log).label == "unschedulable", log


def test_squeue_pending_reasons_without_parentheses() -> None:
    log = "$ squeue -h -o '%i %P %u %T %r %l'\n11 debug frank PENDING PartitionTimeLimit 2:00:00\n"
    assert diagnose_log_text(log).label == "unschedulable"


@pytest.mark.parametrize("case_id", ["b-0158", "b-0161"])
def test_slurm_node_configuration_refusal_is_unschedulable(case_id: str) -> None:
    """Slurm's "Requested node configuration is not available" is its node selector's verdict that the request
    "can never be satisfied" (src/slurmctld/node_scheduler.c): a placement refusal, not a malformed field."""
    d, _, record = diagnose_dev(case_id)
    assert (
        (d.label, d.fix.kind)
        == ("unschedulable", "change_resources_or_wait")
        == (
            record["label"],
            record["fix_kind"],
        )
    )
    assert d.confidence >= 0.9  # no rival validation_error signal on the same line


def test_slurm_invalid_field_stays_a_validation_error() -> None:
    log = "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified\n"
    assert diagnose_log_text(log).label == "validation_error"


@pytest.mark.parametrize(
    "log",
    [
        # Slurm node_scheduler.c _set_err_msg, printed before the refusal
        "sbatch: error: Memory specification can not be satisfied\n"
        "sbatch: error: Batch job submission failed: Requested node configuration is not available\n",
        # Slurm job_scheduler.c pending reason, as squeue's %R shows it
        "  123   gpu  train  alice PD  0:00  1 (Nodes required for job are DOWN, DRAINED or reserved for jobs in "
        "higher priority partitions)\n",
        # kubernetes/autoscaler cluster-autoscaler/FAQ.md (NotTriggerScaleUp event)
        "  Normal   NotTriggerScaleUp  10s  cluster-autoscaler  pod didn't trigger scale-up (it wouldn't fit if a new "
        "node is added)\n",
        # OpenPBS scheduler job comment ("Can Never Run" prefix + "Insufficient amount of resource: %s %s")
        "    comment = Can Never Run: Insufficient amount of resource: ngpus (R: 8 A: 4 T: 4)\n",
        # HTCondor condor_q -better-analyze
        "-- Schedd: submit.example.org : <10.0.0.1:9618?...\nNo successful match recorded.\n",
        # Ray Tune TrialRunner (TuneError)
        "ray.tune.error.TuneError: Insufficient cluster resources to launch trial: trial requested 1 CPUs, 1 GPUs, "
        "but the cluster has only 8 CPUs, 0 GPUs.\n",
        # Ray's insufficient_resources_manager (a WARNING line)
        "2025-10-01 17:35:16,658\tWARNING insufficient_resources_manager.py:163 -- Ignore this message if the cluster "
        "is autoscaling. No trial is running and no new trial has been started within the last 60 seconds. This could "
        "be due to the cluster not having enough resources available. You asked for 2.0 CPUs and 0 GPUs per trial, "
        "but the cluster only has 0 CPUs and 0 GPUs available.\n",
        # the clouds' capacity errors (GCE operation error code, EC2 API error code)
        "googleapiclient.errors.HttpError: ZONE_RESOURCE_POOL_EXHAUSTED: The zone 'projects/p/zones/us-central1-a' "
        "does not have enough resources available to fulfill the request.\n",
        "botocore.exceptions.ClientError: An error occurred (InsufficientInstanceCapacity) when calling the "
        "RunInstances operation: We currently do not have sufficient p4d.24xlarge capacity in the Availability Zone "
        "you requested (us-east-1a).\n",
    ],
)
def test_placement_refusals_outside_kubernetes_and_slurm_reasons(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("unschedulable", "change_resources_or_wait"), log


@pytest.mark.parametrize(
    "log",
    [
        # Ray's autoscaler and core worker report a placement they cannot make as warnings
        "(autoscaler +1m10s) Warning: The following resource request cannot be scheduled right now: {'GPU': 1.0}. "
        "This is likely due to all cluster resources being claimed by actors. Consider creating fewer actors or adding "
        "more nodes to this Ray cluster.\n",
        "2023-01-01 10:00:00,000\tWARNING worker.py:1866 -- The actor or task with ID ffff cannot be scheduled right "
        "now. You can ignore this message if this Ray cluster is expected to auto-scale or if you specified a "
        "runtime_env for this actor or task, which may take time to install.\n",
        # Slurm src/api/allocate.c: info("job %u queued and waiting for resources"), and nothing after it
        "srun: job 883122 queued and waiting for resources\n",
        # SkyPilot's managed-job status column (sky jobs queue)
        "ID  NAME   RESOURCES   SUBMITTED  TOT. DURATION  JOB DURATION  #RECOVERIES  STATUS\n"
        "3   train  1x[A100:8]  2 hrs ago  2h 1m          -             0            FAILED_NO_RESOURCE\n",
        # Slurm src/srun/launch.c: a step that cannot get its resources inside the allocation, never "Step created"
        "srun: Job 4242 step creation temporarily disabled, retrying (Requested nodes are busy)\n"
        "srun: Job 4242 step creation still disabled, retrying (Requested nodes are busy)\n",
    ],
)
def test_placements_reported_at_warning_level_or_still_waiting(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("unschedulable", "change_resources_or_wait"), log


def test_a_queued_job_that_got_its_nodes_and_trains_is_healthy() -> None:
    log = (
        "srun: job 883122 queued and waiting for resources\nsrun: job 883122 has been allocated resources\n"
        "epoch 1 step 10 loss 0.5123\n"
    )
    assert diagnose_log_text(log).label == "healthy"


def test_the_kubelet_refusing_a_placed_pod_for_lack_of_a_resource() -> None:
    # kubelet admission: pod status reason OutOf<resource>, message "Node didn't have enough resource: …"
    log = (
        "Status:       Failed\nReason:       OutOfnvidia.com/gpu\n"
        "Message:      Pod Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 0, capacity: 0\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("unschedulable", "change_resources_or_wait")


def test_a_placement_warning_the_autoscaler_resolved_is_history() -> None:
    # Ray says to ignore the warning on an autoscaling cluster: once training advances, it was placed
    log = (
        "(autoscaler +1m10s) Warning: The following resource request cannot be scheduled right now: {'GPU': 1.0}. "
        "This is likely due to all cluster resources being claimed by actors.\n"
        "(autoscaler +2m30s) Resized to 16 CPUs, 2 GPUs.\n"
        "Training iteration 1: loss=0.6931\n"
    )
    assert diagnose_log_text(log).label == "healthy"


@pytest.mark.parametrize("case_id", ["k-0007", "k-0008", "k-0009"])
def test_cloud_quota_refusal_is_unschedulable(case_id: str) -> None:
    """The cloud API refusing instances or accelerators over the account's quota: AWS's error code
    ResourceLimitExceeded (SageMaker CreateTrainingJob) and Google's google.rpc.QuotaFailure detail."""
    d, _, record = diagnose_dev(case_id)
    expected = ("unschedulable", "change_resources_or_wait")
    assert (d.label, d.fix.kind) == expected == (record["label"], record["fix_kind"])


def test_a_refusal_repeated_after_please_retry_is_not_gone_past() -> None:
    """SageMaker's CapacityError says "Please retry using a different ML instance type": the same refusal on the
    next attempt is that failure repeated, not a later user-code error the program went on to."""
    d, _, record = diagnose_dev("k-0014")
    assert d.label == record["label"] == "unschedulable"


def test_jax_resource_exhausted_without_quota_is_not_unschedulable() -> None:
    log = "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 8.00GiB\n"
    assert diagnose_log_text(log).label != "unschedulable"


def test_colab_refusing_a_gpu_for_usage_limits() -> None:
    log = "Cannot connect to GPU backend\nYou cannot currently connect to a GPU due to usage limits in Colab.\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("unschedulable", "change_resources_or_wait")


def test_squeue_reason_with_its_detail_after_a_comma() -> None:
    """squeue(1) prints some reasons with a detail: ``(ReqNodeNotAvail, UnavailableNodes:gpu[01-04])``."""
    log = (
        "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n"
        "            123456       gpu    train    alice PD       0:00      1 (ReqNodeNotAvail, UnavailableNodes:gpu[01-04])\n"
    )
    assert diagnose_log_text(log).label == "unschedulable"


def test_azure_refusing_a_deployment_over_the_subscriptions_core_quota() -> None:
    d, _, record = diagnose_dev("n-0012")
    assert (
        (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("unschedulable", "change_resources_or_wait")
    )


def _tune_status(running_for: str, requested: str, trials: str) -> str:
    return (
        "== Status ==\n"
        f"Current time: 2022-11-02 10:05:51 (running for {running_for})\n"
        "Using FIFO scheduling algorithm.\n"
        f"Resources requested: {requested}\n"
        f"Number of trials: {trials}\n"
    )


def test_ray_tune_trials_pending_for_minutes_with_nothing_reserved() -> None:
    """TRAIN k-0025: Ray Tune's status table (tune/progress_reporter.py) eight minutes in, the only trial PENDING
    and 0/1 GPUs reserved: the trainer asks for more GPUs than the cluster has. The first status print, or a trial
    that got its resources, is no such evidence."""
    d, _, record = diagnose_dev("k-0025")
    assert (
        (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("unschedulable", "change_resources_or_wait")
    )
    start = _tune_status("00:00:00.14", "0/20 CPUs, 0/1 GPUs, 0.0/12.14 GiB heap", "1/1 (1 PENDING)")
    assert diagnose_log_text(start).label != "unschedulable"
    running = _tune_status("00:08:20.53", "2.0/20 CPUs, 1.0/1 GPUs, 0.0/12.14 GiB heap", "2/2 (1 PENDING, 1 RUNNING)")
    assert diagnose_log_text(running).label != "unschedulable"


def test_exception_class_named_for_missing_capacity() -> None:
    # the exception line of TRAIN case k-0012 alone: SkyPilot's ResourcesUnavailableError names the failure by its
    # class (sky/exceptions.py), whatever its message says
    line = (
        "sky.exceptions.ResourcesUnavailableError: Failed to provision all possible launchable resources. "
        "Relax the task's resource requirements: 1x Kubernetes({'H100': 1})\n"
    )
    tb = 'Traceback (most recent call last):\n  File "launch.py", line 3, in <module>\n    sky.launch(task)\n'
    assert diagnose_log_text(tb + line).label == "unschedulable"


@root_line_cases(
    ("b-0014", "0/6 nodes are available"),
    ("b-0067", "No available node types can fulfill resource request"),
    ("b-0114", "unavailable in ClusterQueue"),
)
def test_root_line_vocabulary_reads_unschedulable(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "unschedulable", quoted)


def test_lsf_pending_reason_resource_requirements() -> None:
    # bjobs -p (https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_command_ref/bjobs.p.1.html)
    log = (
        "job <3866> from user (alice) pending in status <PEND>\n with pending reason:\n"
        " Non-candidate host pending reasons (4 of 4 hosts):\n   Job's resource requirements not satisfied: 4 hosts;\n"
    )
    assert diagnose_log_text(log).label == "unschedulable"


def test_a_cluster_that_does_not_have_enough_resources() -> None:
    log = 'Traceback (most recent call last):\n  File "launch.py", line 9, in <module>\n    submit()\nRuntimeError: The cluster does not have enough resources to run this job.\n'
    assert diagnose_log_text(log).label == "unschedulable"


def test_lsf_pending_reasons_with_their_host_counts() -> None:
    # bjobs -p / -l (https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_command_ref/bjobs.p.1.html): each reason with the
    # number of hosts that gave it, whatever the reason's words
    log = "PENDING REASONS:\n Job's resource requirements not satisfied: 3 hosts;\n Not enough job slot(s): 1 host;\n"
    assert diagnose_log_text(log).label == "unschedulable"
    # a sentence that happens to end in a host count is not a bjobs reason list
    assert diagnose_log_text("Epoch 3: loss 0.41\nUsing 2 hosts\n").label == "healthy"


@pytest.mark.parametrize(
    "log",
    [
        '    "message": "The following quota metrics exceed quota limits: '
        'aiplatform.googleapis.com/custom_model_training_nvidia_l4_gpus",\n    "status": "RESOURCE_EXHAUSTED"\n',
        "GCP (europe-west4-a)  (gpus=A100-80GB:1, a2-ultragpu-1g, ...)  Found no quota for a2-ultragpu-1g on-demand "
        "instances in region europe-\n",
    ],
)
def test_a_cloud_quota_that_refuses_the_accelerators_is_unschedulable(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("unschedulable", "change_resources_or_wait")


def test_a_step_whose_cpu_binding_falls_outside_the_allocation_never_launches() -> None:
    log = (
        "srun: error: CPU binding outside of job step allocation, allocated CPUs are: 0x03F03F.\n"
        "srun: error: Task launch for StepId=6602862.0 failed on node gnode2: Unable to satisfy cpu bind request\n"
        "srun: error: Application launch failed: Unable to satisfy cpu bind request\n"
        "srun: Job step aborted\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("unschedulable", "change_resources_or_wait")
    assert "--cpu-bind" in d.fix.description


@pytest.mark.parametrize(
    "line",
    [
        # older Ray Tune, per trial and in lower case (zzzt-0010, zzzt-0013)
        "2024-12-27 12:22:27,422\tWARNING trial_executor.py:305 -- Ignore this message if the cluster is autoscaling. "
        "You asked for 5.0 cpu and 2.0 gpu per trial, but the cluster only has 72.0 cpu and 1.0 gpu. Stop the tuning "
        "job and adjust the resources requested per trial (possibly via `resources_per_trial` or via `num_workers` "
        "for rllib) and/or add more resources to your Ray runtime.",
        # the kubelet's admission refusal for a device the node's plugin cannot give (zzzr-0106)
        "  Warning  UnexpectedAdmissionError  110s  kubelet, node-1  Allocate failed due to requested number of "
        "devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected",
        # a launcher that gave up waiting for its nodes (zzzt-0004)
        "RuntimeError: Maximum wait time reached, but only 1/32 nodes came up. Aborting.",
    ],
)
def test_capacity_that_never_came_is_unschedulable(line: str) -> None:
    d = diagnose_log_text(line + "\n")
    assert (d.label, d.fix.kind) == ("unschedulable", "change_resources_or_wait")


def test_kubectl_pods_still_pending_after_minutes() -> None:
    d, _, _ = diagnose_dev("zzzy-0010")  # `kubectl get pods`, both pods Pending for 4m6s (retired blind v22)
    assert d.label == "unschedulable"
    young = "NAME    READY   STATUS    RESTARTS   AGE\npod1    0/1     Pending   0          12s\n"
    assert diagnose_log_text(young).label != "unschedulable"  # seconds old: the scheduler may not have looked yet


def test_mpirun_asking_for_more_slots_than_the_allocation_has() -> None:
    log = (
        "--------------------------------------------------------------------------\n"
        "There are not enough slots available in the system to satisfy the 8 slots\n"
        "that were requested by the application:\n  python\n\n"
        "Either request fewer slots for your application, or make more slots available\nfor use.\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "unschedulable" and d.fix.kind == "change_resources_or_wait"
