"""The platform took the machine away: preemption, node failure, drain, spot reclaim, SIGTERM from outside."""

from __future__ import annotations

from runshepherd.diagnosis.rules.base import PatternRule, pat
from runshepherd.diagnosis.rules.family import exits, family

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
        pat(r"Received Signals?\.?SIGTERM death signal", 0.66),
    ),
    in_warnings=True,
)

FAMILY = family(
    "preempted",
    origin="infra",
    fix_kind="resubmit",
    explanation=_EXPL,
    fix_description=_FIX,
    patterns=(
        pat(r"FAILED_PREEMPTED|DUE TO PREEMPTION|JobState=PREEMPTED|\|PREEMPTED\|", 0.97, flags=0),
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
        pat(r"CANCELLED AT \S+(?! DUE)", 0.7, flags=0),
        pat(r"TERM_PREEMPT\b", 0.95, flags=0),
        # HTCondor's job log: the execute node let the job go, and the schedd puts it elsewhere
        pat(r"\bJob was evicted\b|Job reconnection failed|\brescheduling job\b", 0.8),
        pat(r"\bEvicted\b|pod (?:was )?evicted", 0.72),
        pat(
            r"(?:Received|received|got|caught) (?:signal )?SIGTERM|SIGTERM received|Signal 15 \(SIGTERM\)|received signal 15"
            r"|\btask \d+: Terminated\b",
            0.6,
        ),
        # the launcher itself was told to stop (torchrun's agent, Python's subprocess): the platform's SIGTERM
        pat(r"SignalException: Process \d+ got signal: (?:15|SIGTERM)", 0.66),
    ),
    # FAILED_CANCELED is a person's cancel (CLI, chat, the scheduler's own cancel), never evidence of preemption
    rules=(_NODE_LOST,),
    statuses={"FAILED_PREEMPTED": 0.97, "FAILED_BACKEND_ERROR": 0.8},
    # 143 = SIGTERM from outside (too weak alone to decide: a person's cancel sends it too; with nothing else the
    # verdict is "unknown", never "healthy"); OSMO 3001/3006 = the platform stopped the task
    exit_codes=(exits(143, -15, strength=0.45), exits(3001, 3006, strength=0.85)),
)
