"""workflow-expert: writes or takes a spec, validates it, checks it against pools and nodes (mode 1);
applies a whole-spec fix for a diagnosis (mode 2). Never submits, never monitors.

A small compiled graph with its own private state; the parent passes pools and nodes in as data (experts do
not call backends) and the expert object through context.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NotRequired

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from runshepherd import wording
from runshepherd.backends.base import Node, Pool
from runshepherd.backends.pool_choice import PoolChoice, choose_pool, parse_auto, requested_gpu_type
from runshepherd.diagnosis.pending import largest_request, never_fits
from runshepherd.errors import UsageError
from runshepherd.experts.base import WorkflowExpert, draft_for
from runshepherd.request_text import REQUEST_MAX, too_long
from runshepherd.spec import SpecError, load_spec_file, load_spec_text


@dataclass
class ExpertContext:
    expert: WorkflowExpert


class ExpertState(TypedDict):
    mode: str  # "plan" | "fix"
    request: NotRequired[str]  # as it came through the door (`request_text.enter`)
    not_used: NotRequired[list[str]]  # the door's words for each part of it that was cut out
    spec_path: NotRequired[str | None]
    set_values: NotRequired[dict[str, Any]]
    cwd: NotRequired[str]
    pools: NotRequired[list[dict[str, Any]]]
    nodes: NotRequired[list[dict[str, Any]]]
    spec: NotRequired[str]
    base_dir: NotRequired[str | None]
    diagnosis: NotRequired[dict[str, Any]]
    on_host: NotRequired[bool]  # the backend runs tasks on the machine itself (`runs_on_host`); True if unsaid
    # outputs
    spec_name: NotRequired[str]
    pool: NotRequired[str | None]
    message: NotRequired[str]
    warnings: NotRequired[list[str]]
    missing: NotRequired[list[str]]
    substitute: NotRequired[str | None]
    error: NotRequired[str | None]
    cannot_start: NotRequired[str | None]  # why no node of the pool could ever run a task: never submitted
    refuses_unfit: NotRequired[bool]  # the scheduler refuses such a task itself (`backends.base.refuses_unfit`)
    new_spec: NotRequired[str | None]
    diff: NotRequired[str | None]
    fix_kind: NotRequired[str]
    explanation: NotRequired[str]


def route_mode(state: ExpertState) -> str:
    return "fix" if state.get("mode") == "fix" else "write"


def write(state: ExpertState, runtime: Runtime[ExpertContext]) -> dict[str, Any]:
    """A given spec is used unchanged; otherwise the expert drafts one from the request."""
    set_values = state.get("set_values") or {}
    if not state.get("spec_path") and len(state.get("request") or "") > REQUEST_MAX:  # e.g. via LangGraph's API
        return {"error": too_long(state.get("request") or "")}
    try:
        if spec_path := state.get("spec_path"):
            doc = load_spec_file(spec_path, set_values=set_values)
            return {
                "spec": doc.template_text,
                "base_dir": str(doc.base_dir) if doc.base_dir else None,
                "warnings": list(doc.warnings),
                "message": "using your spec unchanged",
                "error": None,
            }
        draft = draft_for(
            runtime.context.expert,
            state.get("request", ""),
            cwd=Path(state.get("cwd") or "."),
            not_used=state.get("not_used") or [],
        )
        doc = load_spec_text(
            draft.spec_text,
            source="drafted spec",
            set_values=set_values,
            base_dir=Path(draft.base_dir) if draft.base_dir else None,
        )
    except SpecError as exc:
        return {"error": str(exc)}
    understood = ", ".join(draft.understood) or "no parameters"
    return {
        "spec": draft.spec_text,
        "base_dir": draft.base_dir,
        "warnings": list(doc.warnings) + draft.notes,
        "missing": list(draft.missing),
        "substitute": draft.substitute,
        "message": f"wrote {doc.name} from your request ({understood})",
        "error": None,
    }


def check(state: ExpertState) -> dict[str, Any]:
    """Resource check and pool choice: effective free GPUs = min(quota free, total free); per-node fit."""
    if state.get("error"):
        return {}
    doc = load_spec_text(
        state["spec"],
        set_values=state.get("set_values") or {},
        base_dir=Path(base) if (base := state.get("base_dir")) else None,
    )
    wf = doc.workflow
    ask = largest_request(wf, None)  # the biggest single task request: what one node must hold
    need = {"cpu": ask.cpu, "memory": ask.memory_gi, "gpu": float(ask.gpu)}
    pools = state.get("pools") or []
    nodes = state.get("nodes") or []
    warnings = list(state.get("warnings") or [])
    chosen = state.get("pool") or wf.pool
    auto, gpu_type = parse_auto(chosen)
    gpu_type = gpu_type or requested_gpu_type(state.get("request") or "")  # "an H100 pool", "on H100s"
    if (auto or not chosen) and pools:
        known = [Pool.model_validate(p) for p in pools]
        gpus = wf.total_gpus()
        choice: PoolChoice | None
        try:
            choice = choose_pool(known, gpu_type, gpus)
        except UsageError as exc:  # no pool of that GPU type here: say so, then choose among all pools
            warnings.append(str(exc))
            choice = choose_pool(known, None, gpus) if any(p.status == "ONLINE" for p in known) else None
        chosen = choice.pool if choice else None
        if choice and (auto or gpus):  # a CPU-only request on the backend's only/default pool needs no GPU story
            warnings.append(f"pool chosen: {choice.reason}")
    elif auto:
        chosen = None  # no pool list from this backend: its default
    cannot_start = None
    unfit = never_fits(ask, [Node.model_validate(n) for n in nodes if not chosen or n.get("pool") == chosen])
    biggest = unfit.biggest if unfit is not None else None
    if biggest is not None and state.get("refuses_unfit"):
        warnings.append(
            f"no node in pool {chosen} can fit one task (needs cpu {wording.amount(need['cpu'])}, memory "
            f"{need['memory']:.1f}Gi, gpu {wording.amount(need['gpu'])}; the largest node has cpu {biggest.cpu_total:g}, memory "
            f"{biggest.memory_total_gi:.1f}Gi, gpu {biggest.gpu_total}) — as it is, it cannot start "
            "there: the scheduler refuses it at submit"
        )
    elif unfit is not None and biggest is not None:  # queued for ever: it could never start, so never submitted
        has = {"gpu": biggest.gpu_total, "cpu": biggest.cpu_total, "memory": biggest.memory_total_gi}
        unit = {"gpu": "", "cpu": "", "memory": "Gi"}
        a = wording.amount
        short = [f"{k} {a(need[k])}{unit[k]} (the largest node has {a(has[k])}{unit[k]})" for k in unfit.short]
        most = f"gpu {biggest.gpu_total:g}, cpu {biggest.cpu_total:g}, memory {biggest.memory_total_gi:.1f}Gi"
        cannot_start = (
            f"no node in pool {chosen} can hold one task: it asks for {', '.join(short) or 'more than any node has'}, "
            f"so it could never start there and is not submitted — ask for at most what one node has ({most}) in "
            "the request or the spec's resources, or run it where such a node exists (another pool, or another "
            "backend)"  # no flag named: the chat and MCP reach this plan too, and have no --pool or --backend
        )
    res = ", ".join(f"{k} {wording.amount(v)}{'Gi' if k == 'memory' else ''}" for k, v in need.items() if v)
    tasks = len(wf.all_tasks())
    return {
        "spec_name": wf.name,
        "pool": chosen,
        "warnings": warnings,
        "cannot_start": cannot_start,
        "message": f"{state.get('message', '')}: {wf.name} ({tasks} task{'s' if tasks != 1 else ''}, {res or 'no resource request'}) for pool {chosen}",
    }


def fix(state: ExpertState, runtime: Runtime[ExpertContext]) -> dict[str, Any]:
    """Mode 2: one pass over the whole spec; the same pool; the diff and the reason in plain words."""
    from runshepherd.backends.base import Node

    nodes = [Node.model_validate(n) for n in state.get("nodes") or []]
    proposal = runtime.context.expert.fix_spec(
        state["spec"],
        state["diagnosis"],
        nodes=nodes,
        base_dir=Path(base) if (base := state.get("base_dir")) else None,
        on_host=state.get("on_host", True),
    )
    explanation = proposal.explanation
    if proposal.other_changes:
        explanation += "; also " + "; ".join(proposal.other_changes)
    return {"new_spec": proposal.new_spec, "diff": proposal.diff, "fix_kind": proposal.kind, "explanation": explanation}


def build() -> Any:
    b = StateGraph(ExpertState, context_schema=ExpertContext)
    b.add_node("write", write)
    b.add_node("check", check)
    b.add_node("fix", fix)
    b.add_conditional_edges(START, route_mode, {"write": "write", "fix": "fix"})
    b.add_edge("write", "check")
    b.add_edge("check", END)
    b.add_edge("fix", END)
    return b.compile(name="workflow_expert")


workflow_expert = build()
