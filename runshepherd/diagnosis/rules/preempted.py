"""The platform took the machine away: preemption, node failure, drain, spot reclaim, SIGTERM from outside."""

from __future__ import annotations

from runshepherd.diagnosis.positive import taken_off
from runshepherd.diagnosis.rules.base import PatternRule, pat
from runshepherd.diagnosis.rules.family import exits, family, words
from runshepherd.diagnosis.slurmstate import job_state_rule

_EXPL = (
    "The job was stopped by the platform, not by its own code: it was preempted by higher-priority work, or "
    "the machine it ran on failed or was taken away."
)
_FIX = (
    "Resubmit (at NORMAL priority if it ran as LOW, which can be preempted), and save checkpoints regularly so "
    "a restart resumes instead of starting over."
)

# the machine went away under the job (Ray's heartbeat detector, a TPU pod's lost workers); Ray and TensorFlow
# log it at warning or info level, so those lines are read too
_NODE_LOST = PatternRule(
    name="node_lost",
    label="preempted",
    origin="infra",
    fix_kind="resubmit",
    explanation=_EXPL,
    fix_description=_FIX,
    patterns=(
        pat(r"has been marked dead because the detector has missed too many heartbeats|lame workers found", 0.86),
        # the launcher itself was told to stop (torchrun's agent logs it as a warning): the platform's SIGTERM
        pat(r"Received (?:Signals?\.?SIGTERM|15) death signal", 0.66),
        # a preemption the program reports at warning level (snakemake's slurm executor: "A Job preemption
        # occured!"); a resumed run naming an earlier one is not this
        pat(
            r"(?<!previous )(?<!last )(?<!earlier )\b(?:job|task|run|cluster|node|instance|VM|pod|worker|trial)s?"
            r" (?:\S+ )?(?:was|has been|got|is being|is) preempted\b|\bJob preemption\s+occ?urr?ed\b",
            0.85,
        ),
    ),
    in_warnings=True,
)

# the kubelet's pod status or event, a job evicted from its node (positive.taken_off, the one definition: said of what
# runs the job or as its state, never of a cache's entries); at warning level the word is a cache's routine notice
_EVICTED = PatternRule(
    name="evicted",
    label="preempted",
    origin="infra",
    fix_kind="resubmit",
    explanation=_EXPL,
    fix_description=_FIX,
    patterns=(pat(taken_off("evicted"), 0.72),),
)

# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): preemption and spot reclamation in the
# schedulers' and clouds' words (Slurm's PREEMPTED and NODE_FAIL job states, Kubernetes' eviction of a pod, a spot
# VM reclaimed, host maintenance)
ROOT_WORDS = (
    words(
        r"\bpreempt\w*\b|\bspot (?:instance|vm|node)s?\b(?:[^.]|\.\S){0,40}\b(?:reclaim\w*|terminat\w*|interrupt\w*)\b"
        r"|\b(?:reclaim\w*|interrupt(?:ed|ion))\b(?:[^.]|\.\S){0,20}\b(?:instance|node|vm|spot)\b|\bevict\w*\b"
        r"|\bhost maintenance\b|\bnode (?:was )?(?:terminated|drained|shut ?down|lost|removed)\b|\bNODE_FAIL\b"
        # Slurm's NODE_FAIL reason ("DUE TO NODE FAILURE"), a requeued job, a spot "interruption notice", the
        # kubelet's graceful node shutdown
        r"|\bpre-empt\w*|\bnode failure\b|\brequeu\w*\b|\binterruption notice\b|\bgraceful node shutdown\b",
        0.6,
        "the job being preempted or its node taken away",
        # (a job its owner killed and requeued, LSF's TERM_REQUEUE_OWNER, is the owner's act, not the platform's)
        unless=r"\bby (?:the |its )?owner\b",
    ),
    # the node under the job went away: a node the cluster marks dead or not ready, shut down under its pods
    # (Kubernetes' NodeNotReady, NodeShutdown; Ray's "node … has been marked dead"; a node that died)
    words(
        r"\bnodes?\b(?:[^.]|\.\S){0,40}\b(?:died|is dead|marked (?:as )?dead|not ready|shut(?:ting)? down)\b"
        r"|\bNode ?Died\b|\bNodeNotReady\b|\bNodeShutdown\b",
        0.58,
        "the job's node going away under it",
    ),
)


FAMILY = family(
    "preempted",
    origin="infra",
    fix_kind="resubmit",
    explanation=_EXPL,
    fix_description=_FIX,
    in_warnings=True,  # schedulers, launchers and pollers often report this at warning or info level
    patterns=(
        pat(r"FAILED_PREEMPTED|DUE TO PREEMPTION|JobState=PREEMPTED|\|PREEMPTED\|", 0.97, flags=0),
        # Slurm's terminal job states for a node that failed under the job or never booted for it (squeue's JOB
        # STATE CODES, https://slurm.schedmd.com/squeue.html#SECTION_JOB-STATE-CODES: NODE_FAIL "terminated due to
        # failure of one or more allocated nodes", BOOT_FAIL "terminated due to launch failure"): the state decides
        # over the reason printed next to it (``Reason=NodeDown`` reads as a pending reason otherwise)
        pat(r"\bJobState=(?:NODE_FAIL|BOOT_FAIL)\b", 0.97, flags=0),
        pat(r"DUE TO NODE FAILURE|\bNODE_FAIL\b|FAILED_BACKEND_ERROR", 0.94, flags=0),
        pat(r"\b(?:was|been|got|is being) preempted\b|\bPreempted\b(?! by)|preempted by", 0.9),
        pat(
            r"spot (?:instance )?(?:interruption|reclaim)|instance (?:was )?(?:reclaimed|terminated by the provider)",
            0.9,
        ),
        pat(
            r"NodeNotReady|NodeShutdown|node (?:is )?(?:shutting down|was drained|being drained|not ready)|Node is not ready"
            r"|(?:imminent|graceful) node shutdown|NodeDiedError|\bnode (?:\S+ )?(?:has )?died\b",
            0.86,
        ),
        # the taint-eviction controller deleting a pod from a node that went unreachable or was tainted NoExecute
        # (event reason TaintManagerEviction, kubernetes pkg/controller/tainteviction/taint_eviction.go: "Marking for
        # deletion Pod %s"); Compute Engine's system events for a VM stopped under the job
        # (https://cloud.google.com/compute/docs/instances/host-maintenance-overview: compute.instances.hostError,
        # compute.instances.preempted, compute.instances.terminateOnHostMaintenance)
        pat(
            r"\bTaintManagerEviction\b.{0,80}Marking for deletion Pod"
            r"|\bcompute\.instances\.(?:hostError|preempted|terminateOnHostMaintenance)\b",
            0.86,
        ),
        pat(r"CANCELLED AT \S+(?!\S| DUE)", 0.7, flags=0),
        # a cloud VM shut down from outside while the job ran on it: Compute Engine preempts or stops a VM by an ACPI
        # soft-off (https://cloud.google.com/compute/docs/instances/preemptible: "sends a preemption notice … in the
        # form of an ACPI G2 Soft Off signal"), which systemd-logind logs as the power key ("Power key pressed.")
        pat(r"\bsystemd-logind(?:\[\d+\])?:? (?:Power key pressed|System is powering down)", 0.72, flags=0),
        # slurmstepd's other reasons (req.c): a requeue (by a preemption or an administrator), a signal from
        # outside (scancel, a preemption in CANCEL mode)
        pat(r"CANCELLED AT \S+ DUE TO JOB REQUEUE|CANCELLED AT \S+ DUE to SIGNAL", 0.72, flags=0),
        pat(r"TERM_PREEMPT\b", 0.95, flags=0),
        # LSF: killed because the host's load passed its threshold, or requeued by an administrator
        pat(r"\bTERM_(?:LOAD|REQUEUE_ADMIN)\b", 0.85, flags=0),
        # LSF's other reasons for a job the platform or its administrator ended (bacct/bhist/bjobs termination
        # reasons, https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_admin/termination_reasons_lsf.html): killed by root or
        # the administrator, after checkpointing (to migrate it), recalled by the multicluster scheduler, its run
        # window closed, its cloud host reclaimed, the CSM or Kubernetes integration failing; as weak as Slurm's
        # plain cancel above (the owner's own kill, TERM_OWNER, is not here)
        pat(r"\bTERM_(?:ADMIN|FORCE_ADMIN|CHKPNT|MC_RECALL|WINDOW|RC_RECLAIM|CSM_ALLOC|KUBE)\b", 0.7, flags=0),
        # HTCondor's job log: the execute node let the job go, and the schedd puts it elsewhere
        pat(r"\bJob was evicted\b|Job reconnection failed|\brescheduling job\b", 0.8),
        pat(
            r"(?:Received|received|got|caught) (?:signal )?SIGTERM|SIGTERM received|Signal 15 \(SIGTERM\)|received signal 15"
            r"|\btasks? [\d,-]+: Terminated\b",
            0.6,
        ),
        # the launcher itself was told to stop (torchrun's agent, Python's subprocess): the platform's SIGTERM
        pat(r"SignalException: Process \d+ got signal: (?:15|SIGTERM)", 0.66),
        # a shell's report of a child stopped by SIGTERM (the platform's polite stop; a time limit says so itself)
        pat(r"line \d+:\s+\d+ Terminated\b|^\W*Terminated\W*$", 0.6),
        # the pod's status reason when its node stopped reporting (older node controller)
        pat(r"\bNodeLost\b", 0.84, flags=0),
        # srun's report of a node of the allocation going down, and Slurm's state for a node that failed to boot
        pat(r"\bNode failure on \S+|\bBOOT_FAIL\b", 0.9),
        # preemption named as the cause or as a notice (the scheduler's, a cloud's, Kubernetes' DisruptionTarget
        # reason and message); a run that resumed after one is history (errorblock's benign list)
        pat(
            r"\b(?:due to|because of|caused by) (?:an? |the )?(?:spot |scheduler |node |instance |VM )?preemption\b"
            r"|\bpreemption (?:notice|signal|event|warning)\b|\bPreemptionByScheduler\b|preempting to accommodate"
            # Ray's node death info and actor error ("Actor died by preemption.", AUTOSCALER_DRAIN_PREEMPTED)
            r"|died by preemption|\bAUTOSCALER_DRAIN_PREEMPTED\b|\bDRAIN_NODE_REASON_PREEMPTION\b",
            0.88,
        ),
        # Kubernetes' other DisruptionTarget reasons (taint-based eviction of a lost node, pod GC of a deleted
        # node, the Eviction API, kubelet-initiated termination) and the node-controller's unresponsive node;
        # the cluster autoscaler draining the node for scale-down
        pat(
            r"\b(?:DeletionByTaintManager|DeletionByPodGC|EvictionByEvictionAPI|TerminationByKubelet)\b"
            r"|\bNode \S+ which was running pod \S+ is unresponsive|deleting pod for node scale down"
            # Ray's GCS on a node that stopped answering its health checks (UNEXPECTED_TERMINATION)
            r"|health check failed due to missing too many heartbeats",
            0.84,
        ),
        # the cloud took the machine: AWS Batch's statusReason for a reclaimed (spot) host, a preemptible/spot VM
        # stopped by the provider, a host-maintenance termination
        pat(
            r"Host EC2 \(instance \S+\) terminated|\b(?:preemptible|spot) (?:VM|instance|node|machine)s? (?:was |were |has been |got )?"
            r"(?:terminated|stopped|reclaimed|deleted|interrupted)|terminated for host maintenance|compute\.instances\.hostError",
            0.88,
        ),
        # EC2's state-change reason codes for an instance the platform stopped or took back (a spot reclaim, a
        # scheduled retirement; https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_StateReason.html) and
        # Azure's scheduled event for a spot VM about to be evicted (EventType "Preempt",
        # https://learn.microsoft.com/azure/virtual-machines/linux/scheduled-events)
        pat(
            r"\bServer\.(?:SpotInstanceShutdown|SpotInstanceTermination|ScheduledStop)\b"
            r"|[\"']?EventType[\"']?\s*[:=]\s*[\"']?Preempt\b",
            0.9,
            flags=0,
        ),
        # a worker that polls the cloud's metadata for a spot VM's end and was told it comes (Taskcluster's
        # generic-worker on GCP: "GCP Metadata Service says termination is imminent")
        pat(r"\btermination is imminent\b", 0.86),
        # salloc/srun when the allocation is taken away (a cancel or a preemption; a time limit says so itself)
        pat(r"Job allocation \d+ has been revoked", 0.6),
        # Argo Workflows' node message for a step whose pod was deleted under it (a node scale-down, a spot reclaim, an
        # eviction: workflow/controller "pod deleted"), printed as the step's message in `argo get`/`argo watch`
        pat(r"\bpod deleted(?: during operation)?\s*$", 0.7),
    ),
    # FAILED_CANCELED is a person's cancel (CLI, chat, the scheduler's own cancel), never evidence of preemption
    rules=(_NODE_LOST, _EVICTED, job_state_rule("preempted", "infra", "resubmit", _EXPL, _FIX)),
    statuses={"FAILED_PREEMPTED": 0.97, "FAILED_BACKEND_ERROR": 0.8},
    # 143 = SIGTERM from outside (too weak alone to decide: a person's cancel sends it too; with nothing else the
    # verdict is "unknown", never "healthy"); OSMO 3001/3006 = the platform stopped the task
    exit_codes=(exits(143, -15, strength=0.45), exits(3001, 3006, strength=0.85)),
    root_words=ROOT_WORDS,
)
