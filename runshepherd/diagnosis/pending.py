"""Why a job is waiting: scheduler messages in plain language, and quota vs capacity vs per-node fit.

Kubernetes FailedScheduling text and Slurm pending reasons are translated line by line (:func:`translate`);
:func:`explain_pending` then compares the request with the pools' GPU accounting and the nodes' sizes, using the
rule effective free = min(quota free, total free) (docs/architecture.md §6.4).
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from runshepherd import wording
from runshepherd.backends.base import Node, Pool

Kind = Literal["quota", "capacity", "node_fit", "placement", "storage", "priority", "dependency", "held", "unknown"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ResourceRequest(_Model):
    """What one task asks for (per replica)."""

    gpu: int = 0
    cpu: float = 0
    memory_gi: float = 0
    storage_gi: float = 0
    pool: str | None = None
    priority: str = "NORMAL"


class PendingReason(_Model):
    source: Literal["kubernetes", "slurm", "osmo"]
    kind: Kind
    plain: str
    evidence: str


class PendingExplanation(_Model):
    kind: Kind
    origin: Literal["quota", "capacity", "config", "user", "infra"]
    summary: str
    reasons: list[PendingReason] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    suggest_low_priority: bool = False
    largest_fit: ResourceRequest | None = None
    other_pools: list[str] = Field(default_factory=list, description="pools whose effective free GPUs fit the ask")


# ------------------------------------------------------------------------------------------- translation
_K8S: list[tuple[re.Pattern[str], Kind, str]] = [
    (
        re.compile(r"(?:(\d+) )?Insufficient nvidia\.com/gpu|didn't have enough resources?: GPUs?", re.I),
        "capacity",
        "{n}machines do not have enough free GPUs for this task",
    ),
    (re.compile(r"(?:(\d+) )?Insufficient cpu", re.I), "capacity", "{n}machines do not have enough free CPU cores"),
    (re.compile(r"(?:(\d+) )?Insufficient memory", re.I), "capacity", "{n}machines do not have enough free memory"),
    (
        re.compile(r"(?:(\d+) )?Insufficient ephemeral-storage", re.I),
        "capacity",
        "{n}machines do not have enough free disk space",
    ),
    (
        re.compile(r"(?:(\d+) )?node\(s\) didn't match (?:Pod's )?node (?:affinity/selector|selector|affinity)", re.I),
        "placement",
        "{n}machines are not of the type the task asks for (platform / hardware selector)",
    ),
    (
        re.compile(r"(?:(\d+) )?node\(s\) had (?:untolerated )?taint|that the pod didn't tolerate", re.I),
        "placement",
        "{n}machines are reserved or marked for other work (they carry a restriction this task does not accept)",
    ),
    (
        re.compile(r"(?:(\d+) )?node\(s\) were unschedulable", re.I),
        "placement",
        "{n}machines are closed for maintenance",
    ),
    (
        re.compile(
            r"unbound (?:immediate )?PersistentVolumeClaims|volume node affinity conflict|persistentvolumeclaim .* not found",
            re.I,
        ),
        "storage",
        "a storage volume the task needs is not available (not created yet, or in another zone)",
    ),
    (re.compile(r"Too many pods", re.I), "capacity", "machines already run as many tasks as they allow"),
    (
        re.compile(r"Preemption is not helpful for scheduling|preemption: 0/\d+ nodes are available", re.I),
        "capacity",
        "stopping lower-priority work would not free enough room either",
    ),
    (
        re.compile(r"exceeded quota|quota exceeded|over quota|exceeds? (?:the )?(?:pool|queue)'?s? quota", re.I),
        "quota",
        "the pool's GPU quota for your team is used up",
    ),
]

_SLURM: dict[str, tuple[Kind, str]] = {
    "Resources": ("capacity", "the partition has no free machines of the requested size right now"),
    "Priority": ("priority", "other jobs with higher priority are ahead of yours in the queue"),
    "ReqNodeNotAvail": ("placement", "a machine the job needs is unavailable (down, drained or reserved)"),
    "PartitionConfig": (
        "node_fit",
        "the request (CPUs, memory, GPUs) is larger than any machine in the partition allows; it will wait forever",
    ),
    "PartitionNodeLimit": ("node_fit", "the job asks for more machines than the partition allows"),
    "PartitionTimeLimit": ("node_fit", "the requested time limit is longer than the partition allows"),
    "PartitionDown": ("placement", "the partition is down"),
    "PartitionInactive": ("placement", "the partition is inactive"),
    "NodeDown": ("placement", "a machine the job needs is down"),
    "Dependency": ("dependency", "the job waits for another job it depends on to finish"),
    "DependencyNeverSatisfied": ("dependency", "the job depends on a job that failed, so it will never start"),
    "BeginTime": ("held", "the job was asked to start later (--begin)"),
    "Reservation": ("placement", "the job waits for its reservation to start"),
    "BadConstraints": ("node_fit", "no machine satisfies the job's constraints"),
}
# squeue's %R column: the reason, then for some reasons a detail after a comma ("(ReqNodeNotAvail,
# UnavailableNodes:gpu[01-04])", squeue(1))
_SLURM_REASON = re.compile(
    r"Reason=(?P<r>[A-Za-z]+)|\bPENDING\b.*\((?P<p>[A-Za-z]+)(?:,[^)]*)?\)\s*$|\bPD\b.*\((?P<q>[A-Za-z]+)(?:,[^)]*)?\)\s*$"
)
# scontrol's key=value reason is read first: its line ends with other fields in parentheses ("JobState=PENDING
# Reason=Resources Dependency=(null)", scontrol(1) show job), which are not squeue's %R column
_SCONTROL_REASON = re.compile(r"\bReason=(?P<r>[A-Za-z]+)")


def _slurm_kind(reason: str) -> tuple[Kind, str] | None:
    if reason in _SLURM:
        return _SLURM[reason]
    if reason.startswith(("QOS", "Assoc")):
        what = "your account's" if reason.startswith("Assoc") else "your quality-of-service"
        if "Wall" in reason or "Time" in reason:
            return "quota", f"{what} limit on run time is reached ({reason})"
        return "quota", f"{what} limit on GPUs/CPUs/jobs is reached ({reason}); it waits until your other jobs end"
    if reason.startswith("JobHeld"):
        who = "an administrator" if "Admin" in reason else "you (or a script)"
        return "held", f"the job is on hold, put there by {who}; it will not start until released"
    return None


def translate(lines: list[str]) -> list[PendingReason]:
    """Every scheduler reason found in ``lines``, in plain words, de-duplicated by meaning."""
    out: list[PendingReason] = []
    seen: set[str] = set()
    for line in lines:
        m = _SCONTROL_REASON.search(line) or _SLURM_REASON.search(line)
        if m:
            reason = m.group("r") or m.group("p") or m.group("q")
            if reason and reason != "None":
                k = _slurm_kind(reason)
                if k and k[1] not in seen:
                    seen.add(k[1])
                    out.append(PendingReason(source="slurm", kind=k[0], plain=k[1], evidence=line.rstrip()))
        for rx, kind, text in _K8S:
            km = rx.search(line)
            if km:
                n = km.group(1) if km.groups() and km.group(1) else ""
                plain = text.format(n=f"{n} " if n else "")
                if n == "1":  # "1 machine does not", never "1 machines do not"
                    plain = plain.replace("machines do not", "machine does not").replace("machines are", "machine is")
                if plain not in seen:
                    seen.add(plain)
                    out.append(PendingReason(source="kubernetes", kind=kind, plain=plain, evidence=line.rstrip()))
    return out


# ------------------------------------------------------------------------------------------- sizing
def size_to_capacity(value: float, threshold: float) -> int:
    """OSMO's sizing rule for one resource: floor(capacity×0.9) when capacity ≥ threshold, else capacity − 2."""
    return int(math.floor(value * 0.9)) if value >= threshold else max(int(value) - 2, 1)


def largest_fit(req: ResourceRequest, node: Node) -> ResourceRequest:
    """The largest request one such node can take: GPUs an even number ≤ the node's, the rest scaled (osmo §1.6)."""
    gpu = min(req.gpu, node.gpu_total)
    if gpu > 1 and gpu % 2:
        gpu -= 1
    share = (gpu / node.gpu_total) if node.gpu_total and req.gpu else 1.0
    cpu = min(req.cpu, max(1, math.floor(size_to_capacity(node.cpu_total, 30) * share))) if req.cpu else 0
    mem = (
        min(req.memory_gi, max(1, math.floor(size_to_capacity(node.memory_total_gi, 50) * share)))
        if req.memory_gi
        else 0
    )
    sto = req.storage_gi
    if req.storage_gi and node.storage_total_gi:
        sto = min(req.storage_gi, max(1, math.floor(size_to_capacity(node.storage_total_gi, 50) * share)))
    return ResourceRequest(gpu=gpu, cpu=cpu, memory_gi=mem, storage_gi=sto, pool=req.pool, priority=req.priority)


# ------------------------------------------------------------------------------------------- judgement
def request_of(spec_text: str, pool: str | None) -> ResourceRequest:
    """A spec's largest task request (what one machine must hold), read, never kept."""
    from runshepherd.spec import load_spec_text

    return largest_request(load_spec_text(spec_text, secrets="warn").workflow, pool)


def largest_request(workflow: Any, pool: str | None) -> ResourceRequest:
    """A workflow's largest task request (`Workflow.largest_request`) as the per-node fit reads it."""
    need = workflow.largest_request()
    return ResourceRequest(gpu=need.gpu, cpu=need.cpu, memory_gi=need.memory_gi, storage_gi=need.storage_gi, pool=pool)


Short = Literal["gpu", "cpu", "memory"]


class NodeFit(_Model):
    """No machine of a pool can hold one task: its largest machine, and what the task asks more of than it has."""

    biggest: Node
    short: list[Short]


def never_fits(request: ResourceRequest, nodes: list[Node]) -> NodeFit | None:
    """The per-node fit, the one place it is judged (the plan's `cannot_start`, `explain_pending`, `status`): a
    task must fit one machine, however much the pool has in total. None when a machine of ``nodes`` (one pool's)
    holds all of it, or when no machine is known."""
    asked: dict[Short, float] = {"gpu": request.gpu, "cpu": request.cpu, "memory": request.memory_gi}

    def has(n: Node) -> dict[Short, float]:
        return {"gpu": n.gpu_total, "cpu": n.cpu_total, "memory": n.memory_total_gi}

    if not nodes or any(all(has(n)[k] >= v for k, v in asked.items()) for n in nodes):
        return None
    biggest = max(nodes, key=lambda n: (n.gpu_total, n.cpu_total, n.memory_total_gi))
    return NodeFit(biggest=biggest, short=[k for k, v in asked.items() if v and v > has(biggest)[k]])


def never_fits_summary(request: ResourceRequest, unfit: NodeFit, pool: str | None) -> str:
    """The sentence for a task no machine of ``pool`` can hold (`explain_pending`, and `status` of a queued run)."""
    too_big = [{"gpu": "GPUs", "cpu": "CPUs", "memory": "GiB of memory"}[k] for k in unfit.short]
    return (
        f"No single machine{f' in pool {pool}' if pool else ''} can ever hold this task: it asks for "
        + ", ".join(_ask(request, w) for w in too_big)
        + f", and the largest machine has {_have(unfit.biggest, too_big)}. Waiting will not help."
    )


def explain_pending(
    events: list[str], pools: list[Pool], nodes: list[Node], request: ResourceRequest
) -> PendingExplanation:
    """Why the request waits, and what would make it start."""
    reasons = translate(events)
    pool = next((p for p in pools if p.name == request.pool), pools[0] if len(pools) == 1 else None)
    pool_nodes = [n for n in nodes if pool is None or n.pool == pool.name]
    suggestions: list[str] = []
    where = f" in pool {pool.name}" if pool else ""

    # 1. per-node fit: a task must fit one machine, however much the pool has in total
    if (unfit := never_fits(request, pool_nodes)) is not None:
        fit = largest_fit(request, unfit.biggest)
        summary = never_fits_summary(request, unfit, pool.name if pool else None)
        suggestions.append(
            f"Ask for at most what one machine has, e.g. gpu: {fit.gpu}, cpu: {int(fit.cpu)}, "
            f"memory: {wording.memory(fit.memory_gi)}"
            + (f", storage: {wording.memory(fit.storage_gi)}" if fit.storage_gi else "")
            + " — or split the work over several tasks (multi-node training)."
        )
        others = _pools_fitting(pools, request, exclude=pool)
        if others:
            suggestions.append("Or use a pool with bigger machines: " + ", ".join(others))
        return PendingExplanation(
            kind="node_fit",
            origin="capacity",
            summary=summary,
            reasons=reasons,
            suggestions=suggestions,
            largest_fit=fit,
            other_pools=others,
        )

    # 2. quota vs capacity from the pool's GPU accounting
    if pool is not None and request.gpu:
        qf, tf = pool.quota_free, pool.total_free
        others = _pools_fitting(pools, request, exclude=pool)
        if qf is not None and tf is not None and qf < request.gpu <= tf:
            summary = (
                f"Your team's GPU quota{where} is used up ({qf} of the quota free, you ask for {request.gpu}), "
                f"but the pool has {wording.count(tf, 'GPU')} physically free."
            )
            suggestions.append(
                "Resubmit with LOW priority to borrow idle GPUs — warning: LOW-priority work can be "
                "preempted (stopped) when the owners need the GPUs back, so save checkpoints."
            )
            if others:
                suggestions.append("Or use a pool with room: " + ", ".join(others))
            return PendingExplanation(
                kind="quota",
                origin="quota",
                summary=summary,
                reasons=reasons,
                suggestions=suggestions,
                suggest_low_priority=True,
                other_pools=others,
            )
        if tf is not None and tf < request.gpu:
            summary = (
                f"The pool{where} is full: {wording.count(tf, 'GPU')} free in total and the task needs {request.gpu}. "
                "Lower priority will not help because the GPUs are physically in use."
            )
            suggestions.append("Wait for running work to finish, ask for fewer GPUs, or use another pool.")
            if others:
                suggestions.append("Pools with room now: " + ", ".join(others))
            return PendingExplanation(
                kind="capacity",
                origin="capacity",
                summary=summary,
                reasons=reasons,
                suggestions=suggestions,
                other_pools=others,
            )
        free_per_node = max((n.gpu_free for n in pool_nodes), default=None)
        if free_per_node is not None and free_per_node < request.gpu:
            summary = (
                f"The pool{where} has {wording.count(tf, 'GPU') if tf is not None else 'some GPUs'} free in total, but they are "
                f"spread over machines: no single machine has {request.gpu} free right now (at most "
                f"{free_per_node})."
            )
            suggestions.append(
                f"Wait for a machine to free up, or ask for at most {wording.count(free_per_node, 'GPU')} per task."
            )
            return PendingExplanation(
                kind="node_fit",
                origin="capacity",
                summary=summary,
                reasons=reasons,
                suggestions=suggestions,
                other_pools=others,
            )

    # 3. no accounting verdict: go by what the scheduler said
    return _from_reasons(reasons)


def _from_reasons(reasons: list[PendingReason]) -> PendingExplanation:
    if not reasons:
        return PendingExplanation(
            kind="unknown",
            origin="capacity",
            summary="The job is waiting, and the scheduler gave no reason yet.",
            suggestions=["Check again in a few minutes; look at the pool's free GPUs."],
        )
    rank: list[Kind] = ["node_fit", "quota", "storage", "placement", "held", "dependency", "capacity", "priority"]
    kind = min((r.kind for r in reasons), key=lambda k: rank.index(k) if k in rank else len(rank))
    origin = {"quota": "quota", "placement": "config", "storage": "config", "held": "user", "dependency": "user"}.get(
        kind, "capacity"
    )
    summary = "The job is waiting because " + "; ".join(r.plain for r in reasons[:3]) + "."
    tips = {
        "capacity": "Wait for running work to finish, ask for fewer GPUs/CPUs/memory, or use another pool.",
        "priority": "Wait; or use a pool/partition with a shorter queue.",
        "quota": "Wait for your other jobs to finish, or (OSMO) resubmit with LOW priority — it may be preempted.",
        "node_fit": "Lower the request to what one machine has (or the partition's limits); waiting will not help.",
        "placement": "Check the requested platform/partition/node list; remove the constraint or pick another pool.",
        "storage": "Create the volume (or use one in the same zone) before the task starts.",
        "held": "Release the job (`scontrol release <id>`) or ask the administrator.",
        "dependency": "Check the job it depends on; if that one failed, cancel this one and resubmit.",
    }
    return PendingExplanation(
        kind=kind,
        origin=origin,
        summary=summary,
        reasons=reasons,
        suggestions=[tips.get(kind, tips["capacity"])],
        suggest_low_priority=kind == "quota",
    )


def _ask(req: ResourceRequest, what: str) -> str:
    return {
        "GPUs": wording.count(req.gpu, "GPU"),
        "CPUs": wording.count(float(req.cpu), "CPU"),
        "GiB of memory": f"{req.memory_gi:g} GiB of memory",
    }[what]


def _have(node: Node, whats: list[str]) -> str:
    vals = {
        "GPUs": wording.count(node.gpu_total, "GPU"),
        "CPUs": wording.count(float(node.cpu_total), "CPU"),
        "GiB of memory": f"{node.memory_total_gi:g} GiB of memory",
    }
    return ", ".join(vals[w] for w in whats)


def _pools_fitting(pools: list[Pool], req: ResourceRequest, exclude: Pool | None) -> list[str]:
    out = []
    for p in pools:
        if exclude is not None and p.name == exclude.name or p.status != "ONLINE":
            continue
        eff = p.effective_gpu_free()
        if eff is not None and eff >= max(req.gpu, 1):
            out.append(f"{p.name} ({wording.count(eff, 'GPU')} free)")
    return out
