"""The job cannot be placed: scheduler messages (Kubernetes FailedScheduling, Slurm pending reasons)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.errorblock import Line, is_benign
from runshepherd.diagnosis.fixes import fix_unschedulable
from runshepherd.diagnosis.pending import _from_reasons, translate
from runshepherd.diagnosis.positive import positive_evidence
from runshepherd.diagnosis.prefilter import Gated
from runshepherd.diagnosis.rules.base import ORDER_EVENT, ORDER_STATUS, Context, FunctionRule, PatternRule, Signal, pat
from runshepherd.diagnosis.rules.family import family, words

_MARKERS = re.compile(
    r"FailedScheduling|Error scheduling|error selecting node for pod|Unschedulable|\d+/\d+ nodes are available|Insufficient nvidia\.com/gpu|Reason=\w+|"
    r"\b(?:PENDING|PD)\b.*\(\w+(?:,[^)]*)?\)\s*$|FAILED_QUEUE_TIMEOUT|queue[_ ]timeout|didn't have enough resources|exceeded quota",
)

_MARKERS_G = Gated.of(_MARKERS)
# scontrol's reason beside a state that is not PENDING is not a wait for placement: a requeued job waits out its
# BeginTime (slurm.schedmd.com/job_reason_codes.html), an ended one names why it ended (NonZeroExitCode, TimeLimit)
_NOT_PENDING = re.compile(r"\bJobState=(?!PENDING\b)[A-Z_]+")


def _unschedulable(ctx: Context) -> list[Signal]:
    lines: list[tuple[int, str]] = []
    # A task with an exit code was placed and ran: a pending reason in its events (it waited for Resources on a
    # busy cluster, then started) is history, not why it failed. Its own log can still say it (Ray placement).
    for order, ln in ctx.texts_for(_MARKERS_G, events=ctx.exit_code is None):
        if _MARKERS_G.search(ln.text, ln.folded) and "Reason=None" not in ln.text and not _NOT_PENDING.search(ln.text):
            lines.append((order if order < 0 else ln.index, ln.raw.rstrip()))
    reasons = translate([raw for _, raw in lines])
    queue_timeout = ctx.status == "FAILED_QUEUE_TIMEOUT" or any(
        "QUEUE_TIMEOUT" in r or "queue_timeout" in r.lower() for _, r in lines
    )
    if not reasons and not queue_timeout:
        return _no_node_fits(ctx)
    # Slurm "Reason=NonZeroExitCode"/"TimeLimit" are end states, not pending reasons: translate() ignores them.
    expl = _from_reasons(reasons) if reasons else None
    summary = expl.summary if expl else "The job waited in the queue longer than its queue timeout and was dropped."
    if queue_timeout and expl:
        summary += " It waited longer than its queue timeout and was dropped."
    origin = expl.origin if expl else "capacity"
    if origin not in ("quota", "capacity", "config", "user", "infra"):
        origin = "capacity"
    suggestion = " ".join(expl.suggestions) if expl else "Ask for less, pick another pool, or raise the queue timeout."
    evidence = [r.evidence for r in reasons[:2]] if reasons else [lines[0][1] if lines else f"status: {ctx.status}"]
    order = ORDER_STATUS if ctx.status == "FAILED_QUEUE_TIMEOUT" else min((o for o, _ in lines), default=ORDER_EVENT)
    return [
        Signal(
            "unschedulable",
            origin,
            0.95,
            order,
            evidence,
            summary,
            "change_resources_or_wait",
            suggestion,
            detail={"kind": expl.kind if expl else "capacity"},
        )
    ]


# the scheduler's verdict without a reason it itemises (``0/2 nodes are available``, Ray's autoscaler and
# ``ray status`` demands that no node type can meet)
_NO_FIT = re.compile(
    r"FailedScheduling|\b0/\d+ nodes are available|No available node types can fulfill resource request"
    r"|cannot be scheduled right now|\d\+ pending (?:placement groups|tasks/actors)|Error scheduling \S+: "
    # Slurm's limit reason codes (QOSMaxSubmitJobPerUserLimit, AssocGrpGRES…) and its accounting refusal;
    # Kueue's admission that cannot assign a flavor
    r"|\b(?:QOS|Assoc)(?:Max|Grp|Min)\w*(?:Limit|PerUser|PerAccount|GRES|Node|Cpu|Mem)\w*\b"
    r"|couldn't assign flavors to pod set"
    r"|\bPENDING\s+\(?(?:Partition(?:TimeLimit|NodeLimit|Config|Down|Inactive)|ReqNodeNotAvail)\b"
    # Kubernetes' older scheduler wording, the cluster autoscaler's NotTriggerScaleUp, Volcano's and Karpenter's
    r"|No nodes are available that match all of the (?:following )?predicates|pod didn't trigger scale-up"
    r"|\b\d+/\d+ nodes are unavailable|\bNotEnoughResources\b|incompatible with (?:nodepool|provisioner)"
    r"|no instance type (?:satisfied|has enough|met)"
    # PBS's scheduler comment on a queued job, Grid Engine's "scheduling info", HTCondor's -better-analyze
    r"|(?:Can Never Run|Not Running): Insufficient amount of|\bcannot run (?:globally|in queue|in any queue|in PE)\b"
    r"|No successful match recorded"
    # Ray Tune refusing a trial the cluster cannot hold
    r"|Insufficient cluster resources to launch trial"
    # the kubelet refusing a pod it was given because the node's device plugin has no free device of the kind asked
    # for (an UnexpectedAdmissionError event: "Allocate failed due to requested number of devices unavailable for
    # nvidia.com/gpu. Requested: 1, Available: 0")
    r"|\bUnexpectedAdmissionError\b|requested number of devices unavailable for"
    # a launcher that waited for the nodes it asked for and gave up ("Maximum wait time reached, but only 1/32 nodes
    # came up")
    r"|\bonly \d+/\d+ nodes? (?:came up|(?:are|were) (?:up|ready|available))\b"
    # the cloud has no capacity (or quota) for the machines asked for: GCE, EC2, Azure, SkyPilot's summary
    r"|ZONE_RESOURCE_POOL_EXHAUSTED|does not have enough resources available to fulfill the request"
    r"|\bInsufficientInstanceCapacity\b|We currently do not have sufficient \S+ capacity|\bSkuNotAvailable\b"
    r"|\b(?:Zonal)?AllocationFailed\b|\bQUOTA_EXCEEDED\b|\bQuota '[A-Z0-9_]+' exceeded|\bVcpuLimitExceeded\b"
    r"|\bMaxSpotInstanceCountExceeded\b|ResourcesUnavailableError|Failed to provision all possible launchable resources"
    r"|Failed to acquire resources in all (?:zones|regions)|\bInsufficientCapacity\w*|\bCapacityError\b"
    r"|\bFAILED_NO_RESOURCE\b"  # SkyPilot's managed-job status when no cloud could provision it
    # LSF's pending reasons as bjobs -p/-l lists them, each with the number of hosts that gave it ("Job's resource
    # requirements not satisfied: 3 hosts;", "Not enough job slot(s): 1 host;", under "PENDING REASONS:" or
    # "Candidate host pending reasons", https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_command_ref/bjobs.p.1.html)
    r"|^\s*[A-Z][^:;]{3,120}: \d+ hosts?;\s*$"
    # the cloud API refusing the request for instances or accelerators over the account's quota: AWS's error code
    # (SageMaker CreateTrainingJob, "ResourceLimitExceeded: You have exceeded an SageMaker resource limit") and
    # Google's error detail type for a quota check failure (google.rpc.QuotaFailure, status RESOURCE_EXHAUSTED)
    r"|\bResourceLimitExceeded\b|google\.rpc\.QuotaFailure|\bQuota failure for project\b"
    # Azure's compute quota refusals (Azure ML deployments and compute, VM creation): "Not enough quota available
    # for Standard_DS3_v2 …", "Operation could not be completed as it results in exceeding approved … quota"
    r"|Not enough quota available for|results in exceeding approved [\w -]+ quota"
    # Vertex AI's refusal of a custom job over the project's accelerator quota ("The following quota metrics exceed
    # quota limits: aiplatform.googleapis.com/custom_model_training_nvidia_l4_gpus") and SkyPilot's per-region
    # verdict when a cloud grants no quota for the instance type ("Found no quota for a2-ultragpu-1g on-demand
    # instances in region …")
    r"|quota metrics exceed quota limits|Found no quota for \S+ (?:on-demand |spot )?instances"
    # the pod's PodScheduled condition (kubectl get pod -o yaml / describe), Volcano's gang verdict
    r"|\breason:\s*Unschedulable\b|\bPodScheduled\s+False\b|tasks in gang unschedulable"
    # Slurm's pending reason spelled out (squeue %R), with its own spaces and commas
    r"|Nodes required for job are DOWN, DRAINED"
    # PBS/Torque and Grid Engine refusing at qsub a job no queue can hold (Slurm's node-configuration refusal)
    r"|Job exceeds queue resource limits|cannot satisfy (?:queue|server) max \w+ requirement"
    r"|job violates queue and/or server resource limits|\bno suitable queues\b"
    # the kubelet refusing a pod the scheduler placed (its admission re-check: status reason OutOf<resource>)
    r"|Node didn't have enough resource: |\bOutOf(?:nvidia\.com/gpu|cpu|memory|pods|ephemeral-storage)\b"
)
_NO_FIT_G = Gated.of(_NO_FIT)


def _placed_later(ctx: Context, idx: int) -> bool:
    """The run started or made progress after a warning that it could not be placed (an autoscaler added nodes)."""
    later = positive_evidence(ctx.log.lines[idx + 1 :])
    return later is not None and later[0] in ("finished", "progress", "started")


def _no_node_fits(ctx: Context) -> list[Signal]:
    # read at every level: Ray and the kube-scheduler report a placement they cannot make as a warning or info line
    hits = [
        (o if o < 0 else ln.index, ln.raw.rstrip())
        for o, ln in ctx.texts_for(_NO_FIT_G, warnings=True)
        if _NO_FIT_G.search(ln.text, ln.folded)
        and not (ln.warning and (is_benign(ln.text, ln.folded) or _placed_later(ctx, ln.index)))
    ]
    if not hits:
        return []
    # each refusal is its own signal: a request refused again after a retry (or the cloud's "please retry" advice)
    # is the same failure repeated, not one the program went on past
    return [
        Signal(
            "unschedulable",
            "capacity",
            0.9,
            order,
            [h for _, h in hits[i : i + 2]],
            "The scheduler cannot place the job: no machine has the resources it asks for free (or of that kind).",
            "change_resources_or_wait",
            "Ask for resources one machine can offer (GPUs, CPUs, memory per task), pick another pool or "
            "partition, or wait for capacity.",
        )
        for i, (order, _) in enumerate(hits[:3])
    ]


# Slurm's controller refusing a job it can never place (docs: node_scheduler.c, "ESLURM_REQUESTED_NODE_CONFIG_
# UNAVAILABLE if request can never be satisfied", with the detail of which per-node request failed) or one its
# QOS/association/partition limits forbid. It is the scheduler's placement verdict, not a malformed field (those,
# "Invalid account/partition/qos/gres specification", stay validation_error): the request has to change.
SLURM_PLACEMENT_REFUSAL = (
    r"Requested node configuration is not available|Requested partition configuration not available now"
    r"|(?:CPU count per node|Memory specification|Temporary disk specification"
    r"|Socket, core and/or thread specification) can not be satisfied|Job violates accounting/QOS policy"
)
_SLURM_NEVER_FITS = PatternRule(
    name="slurm_never_fits",
    label="unschedulable",
    origin="capacity",
    fix_kind="change_resources_or_wait",
    explanation="Slurm refused the job: no node of the partition can ever satisfy what it asks for per node (CPUs, "
    "memory, GPUs, features or node count), or the account's QOS/partition limits forbid it. Waiting will not help.",
    fix_description="Ask for what one node of the partition offers (`sinfo -o '%P %D %c %m %G %f'` lists CPUs, memory, "
    "GPUs and features per node; some cores may be reserved for the system), fewer nodes or less time, or pick a "
    "partition/QOS that allows it.",
    patterns=(pat(SLURM_PLACEMENT_REFUSAL, 0.95),),
)

# Ray's insufficient-resources manager warns (at WARNING level) when trials or training cannot start
_RAY_WAITING = PatternRule(
    name="ray_insufficient_resources",
    label="unschedulable",
    origin="capacity",
    fix_kind="change_resources_or_wait",
    explanation="The Ray cluster does not have the resources the trials or training workers ask for, so they never "
    "started.",
    fix_description="Ask for fewer CPUs/GPUs per worker or trial (ScalingConfig, resources_per_trial, num_workers), "
    "or add nodes with those resources to the cluster.",
    # (older Ray Tune words it per trial: "You asked for 5.0 cpu and 2.0 gpu per trial, but the cluster only has 72.0
    # cpu and 1.0 gpu")
    patterns=(pat(r"cluster not having enough resources available|but the cluster only has [\d.]+ CPUs?\b", 0.85),),
    in_warnings=True,
)

# a step whose CPU binding asks for CPUs the job was not given: srun's launch fails on the node ("CPU binding outside
# of job step allocation, allocated CPUs are: 0x…", then "Unable to satisfy cpu bind request", src/slurmd and
# src/srun): the request (--cpu-bind, --cpus-per-task, tasks per node) does not fit the allocation
_SLURM_BINDING = PatternRule(
    name="slurm_cpu_binding",
    label="unschedulable",
    origin="capacity",
    fix_kind="change_resources_or_wait",
    explanation="Slurm could not launch the step: its CPU binding asks for CPUs outside what the job was allocated "
    "on the node, so the tasks never started.",
    fix_description="Make the step fit the allocation: drop or change --cpu-bind, or request the CPUs the tasks "
    "bind to (--cpus-per-task, --ntasks-per-node, --exclusive).",
    patterns=(pat(r"Unable to satisfy cpu bind request|CPU binding outside of job step allocation", 0.86),),
)

# srun/salloc announce a job that waits in the queue (src/api/allocate.c, src/salloc/salloc.c) and then that it got
# its nodes; a log that ends still waiting shows a job the scheduler has not placed
# (and srun inside an allocation whose step cannot get its CPUs/GPUs: src/srun/launch.c "step creation temporarily
# disabled, retrying (Requested nodes are busy)" until "Step created for …")
_QUEUED = re.compile(
    r"\bjob \d+ queued and waiting for resources|\bPending job allocation \d+"
    r"|step creation (?:temporarily|still) disabled, retrying",
    re.IGNORECASE,
)
_ALLOCATED = re.compile(
    r"has been allocated resources|Granted job allocation|are ready for job|Nodes are ready for job|Step created for",
    re.IGNORECASE,
)
_QUEUED_G, _ALLOCATED_G = Gated.of(_QUEUED), Gated.of(_ALLOCATED)


def _still_queued(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    queued = next((ln for ln in lines if _QUEUED_G.search(ln.text, ln.folded)), None)
    if queued is None:
        return []
    rest = lines[queued.index + 1 :]
    if any(_ALLOCATED_G.search(ln.text, ln.folded) for ln in rest) or positive_evidence(rest) is not None:
        return []
    return [
        Signal(
            "unschedulable",
            "capacity",
            0.7,
            queued.index,
            [queued.raw.rstrip()],
            "The job was still waiting in the queue when the log ends: the scheduler had not found nodes with the "
            "resources it asks for (the log shows no allocation).",
            "change_resources_or_wait",
            "Check why it waits (`squeue -j JOBID -o '%R'`, `scontrol show job JOBID`): ask for fewer or smaller "
            "nodes, less time, another partition, or wait for capacity.",
        )
    ]


# Ray Tune's status table (tune/progress_reporter.py): "Current time: … (running for 00:08:20.53)", "Resources
# requested: 0/20 CPUs, 0/1 GPUs …", "Number of trials: 1/1 (1 PENDING)". Every trial still PENDING with nothing
# reserved, minutes after the experiment started: the trials ask for more than the cluster has
_TUNE_RUNNING_FOR = re.compile(r"\(running for (\d+):(\d\d):(\d\d)")
_TUNE_NOTHING_RESERVED = re.compile(r"^Resources requested: 0(?:\.0)?/[\d.]+ CPUs, 0(?:\.0)?/[\d.]+ GPUs")
_TUNE_ALL_PENDING = re.compile(r"^Number of trials: (\d+)/\d+ \((\d+) PENDING\)\s*$")
TUNE_PENDING_MINUTES = 5


def _tune_trials_never_start(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    minutes = 0
    nothing: Line | None = None
    for ln in lines:
        if "running for" in ln.folded and (m := _TUNE_RUNNING_FOR.search(ln.text)) is not None:
            minutes, nothing = 60 * int(m.group(1)) + int(m.group(2)), None
        elif ln.text.startswith("Resources requested") and _TUNE_NOTHING_RESERVED.match(ln.text):
            nothing = ln
        elif nothing is not None and (m := _TUNE_ALL_PENDING.match(ln.text)) is not None:
            if m.group(1) == m.group(2) and minutes >= TUNE_PENDING_MINUTES:
                ev = [nothing.raw.rstrip(), ln.raw.rstrip()]
                return [
                    Signal(
                        "unschedulable",
                        "capacity",
                        0.74,
                        ln.index,
                        ev,
                        f"Ray Tune has been running for {minutes} minutes and every trial is still PENDING with no "
                        "CPU or GPU reserved: the trials ask for more resources than the cluster has, so none starts.",
                        "change_resources_or_wait",
                        "Ask for fewer CPUs/GPUs per trial or training worker (resources_per_trial, ScalingConfig's "
                        "num_workers and use_gpu), or add nodes with those resources to the cluster.",
                    )
                ]
    return []


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): the Kubernetes scheduler's FailedScheduling
# words ("0/3 nodes are available", "Insufficient nvidia.com/gpu", "didn't match Pod's node affinity"), Slurm's
# pending reasons and sbatch's refusal ("Requested node configuration is not available", ReqNodeNotAvail), and a
# cloud without the capacity or quota to provision
ROOT_WORDS = (
    words(
        r"\bunschedulable\b|\b\d+ Insufficient [\w./-]+|\b\d+/\d+ nodes are available\b|\bno nodes? (?:available|found"
        r"|match)|\bdidn't match (?:Pod's )?node\b|\bReqNodeNotAvail\b|\brequested node configuration is not "
        r"available\b|\bunable to allocate resources\b|\b(?:not enough|insufficient) (?:resources|capacity|nodes|gpus"
        r"|instances)\b|\b(?:does|do)(?:n't| not) have (?:enough|sufficient) (?:\w+ )?(?:resources|capacity|nodes|gpus|instances)\b|\b(?:resources?|capacity|instances?|nodes?) (?:are |is )?(?:not available|unavailable)\b"
        r"|\b(?:failed|unable|could not|cannot) (?:to )?provision\w*|\bprovision\w* (?:failed|timed out|error)\b"
        r"|\b(?:wait\w*|timed out)\b(?:[^.]|\.\S){0,60}\bto be (?:provisioned|allocated|scheduled)\b|\bout of capacity\b|\bquota\b(?:[^.]|\.\S){0,40}\b(?:exceeded|reached|insufficient)\b",
        0.62,
        "resources the cluster or cloud cannot provide (no node fits, no capacity or quota)",
        unless=r"\b(?:disk|storage|inode)s?\b",
    ),
    # Ray's autoscaler ("No available node types can fulfill resource request"), the Kubernetes scheduler's unbound
    # volume claims, Slurm's refusal by policy ("Job violates accounting/QOS policy")
    words(
        r"\bcan(?:not|'t)? fulfill\b|\bno available node\b|\bunbound (?:immediate )?PersistentVolumeClaims\b"
        r"|\bviolates (?:\w+/)?(?:accounting|QOS)\b",
        0.62,
        "resources the cluster or cloud cannot provide (no node fits, no capacity or quota)",
    ),
    # a resource the queue or cluster does not have ("resource cpu unavailable in ClusterQueue", Kueue's admission)
    words(
        r"\bresources?\b(?:\s+[\w./-]+){0,2}\s+(?:is |are )?(?:not available|unavailable)\b",
        0.6,
        "resources the cluster or cloud cannot provide (no node fits, no capacity or quota)",
    ),
)


FAMILY = family(
    "unschedulable",
    origin="capacity",
    fix_kind="change_resources_or_wait",
    explanation="The scheduler cannot place the job: no node has the resources it asks for free.",
    fix_description="Ask for less, pick another pool, or wait for capacity.",
    # hosted notebooks refusing an accelerator because the account's quota is used up (Colab: "Cannot connect to
    # GPU backend. You cannot currently connect to a GPU due to usage limits in Colab.")
    patterns=(
        pat(r"cannot currently connect to a (?:GPU|TPU) due to usage limits|Cannot connect to GPU backend", 0.88),
        # LSF's host-based pending reason for hosts that cannot give what the job asks for (bjobs -p,
        # https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_command_ref/bjobs.p.1.html: "Job's resource requirements not
        # satisfied: 4 hosts;")
        pat(r"Job's resource requirements not satisfied", 0.8),
        # Open MPI's mpirun asked for more process slots than the allocation (or hostfile) gives it
        # (help-orte-rmaps-base.txt: "There are not enough slots available in the system to satisfy the 8 slots")
        pat(r"There are not enough slots available in the system to satisfy the \d+\s+slots", 0.86),
        # `kubectl get pods`: a pod not ready, still Pending after a minute or more (its AGE column), never
        # scheduled onto a node; its events would say why (weaker than FailedScheduling, which names the reason)
        pat(r"^\S+\s+0/\d+\s+Pending\s+\d+\s+(?:\d+[dhm])+(?:\d+s)?(?:\s|$)", 0.72, flags=0),
    ),
    rules=(
        FunctionRule("unschedulable", _unschedulable),
        _SLURM_NEVER_FITS,
        _SLURM_BINDING,
        _RAY_WAITING,
        FunctionRule("still_queued", _still_queued),
        FunctionRule("tune_trials_never_start", _tune_trials_never_start),
    ),
    applies=("failed", "running"),
    fixer=fix_unschedulable,
    # exception classes named for capacity the cluster or cloud does not have (SkyPilot's ResourcesUnavailableError,
    # https://docs.skypilot.co/en/latest/reference/api.html; an InsufficientCapacity error of a cloud SDK)
    exceptions=r"(?:^|\.)(?:ResourcesUnavailable|InsufficientCapacity|InsufficientResources|NoCapacity)\w*(?:Error|Exception)?$",
    root_words=ROOT_WORDS,
)
