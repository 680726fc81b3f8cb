"""Pure mappings from OSMO CLI output to the backend models. No subprocesses here, so every rule is testable.

The eval fixtures are hand-written and differ from a real server in places (docs/architecture.md §6.4): a task status
"PENDING", Kubernetes-style event lines, logs without task prefixes. Both forms are accepted; real formats win.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from runshepherd.backends.base import (
    Event,
    Links,
    Node,
    Pool,
    Status,
    TaskState,
    TaskStatus,
    WorkflowStatus,
    WorkflowSummary,
)
from runshepherd.backends.credentials import Credential
from runshepherd.backends.osmo.models import (
    ErrorEnvelope,
    GroupQuery,
    ListEntry,
    PoolResponse,
    ResourceList,
    ResourcesEntry,
    SubmitResponse,
    TaskQuery,
    WorkflowList,
    WorkflowQuery,
)

BACKEND = "osmo"


# --------------------------------------------------------------------------------------------- statuses
def workflow_status(raw: str) -> Status:
    """Known values as they are; unknown ones by family, erring toward "still alive" so monitoring continues."""
    value = (raw or "").strip().upper()
    try:
        return Status(value)
    except ValueError:
        pass
    if value in ("CANCELED", "CANCELLED"):
        return Status.FAILED_CANCELED
    if "FAIL" in value or value == "ERROR":
        return Status.FAILED
    if value in ("SUCCEEDED", "SUCCESS", "DONE"):
        return Status.COMPLETED
    if value in ("RUNNING", "INITIALIZING"):
        return Status.RUNNING
    return Status.PENDING


def task_status(raw: str, timing: TaskQuery | GroupQuery) -> TaskStatus:
    """Task/group status; the fixtures' non-real "PENDING" becomes the queue stage its timestamps show."""
    value = (raw or "").strip().upper()
    try:
        return TaskStatus(value)
    except ValueError:
        pass
    if value in ("CANCELED", "CANCELLED"):
        return TaskStatus.FAILED_CANCELED
    if "FAIL" in value:
        return TaskStatus.FAILED
    if value in ("SUCCEEDED", "SUCCESS", "DONE"):
        return TaskStatus.COMPLETED
    if timing.start_time is not None:
        return TaskStatus.RUNNING
    if timing.initializing_start_time is not None:
        return TaskStatus.INITIALIZING
    if timing.scheduling_start_time is not None:
        return TaskStatus.SCHEDULING
    if timing.processing_start_time is not None:
        return TaskStatus.PROCESSING
    return TaskStatus.SUBMITTING


# --------------------------------------------------------------------------------------------- query
def parse_json(text: str) -> Any:
    """The JSON document in CLI output (some CLIs print a banner line first)."""
    text = text.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        start = min([i for i in (text.find("{"), text.find("[")) if i >= 0], default=-1)
        if start < 0:
            raise
        return json.loads(text[start:])


def workflow_from_query(q: WorkflowQuery, declared: dict[str, list[str]] | None = None) -> WorkflowStatus:
    """Map a query response. ``declared`` = output URLs per task from the spec (query JSON has none)."""
    declared = declared or {}
    status = workflow_status(q.status)
    tasks: list[TaskState] = []
    for g in q.groups:
        for t in g.tasks:
            ts = task_status(t.status, t)
            written = declared.get(t.name, []) if ts is TaskStatus.COMPLETED else []
            tasks.append(
                TaskState(
                    name=t.name,
                    group=g.name,
                    status=ts,
                    exit_code=t.exit_code,
                    failure_message=t.failure_message or (g.failure_message if ts.failed() else None),
                    retry_id=t.retry_id,
                    lead=t.lead or len(g.tasks) == 1,
                    node=t.node_name,
                    scheduling_start_time=t.scheduling_start_time,
                    start_time=t.start_time,
                    end_time=t.end_time,
                    outputs=list(written),
                )
            )
    outputs = [u for t in tasks for u in t.outputs]
    undeclared = [t for t in tasks if t.status is TaskStatus.COMPLETED and not declared.get(t.name)]
    if q.outputs and undeclared:
        outputs.append(q.outputs)  # intermediate storage: where tasks without declared outputs wrote
    failure = next((g.failure_message for g in q.groups if g.failure_message), None)
    return WorkflowStatus(
        workflow_id=q.name,
        name=workflow_name(q.name),
        status=status,
        pool=q.pool,
        backend=BACKEND,
        priority=q.priority or "NORMAL",
        submit_time=q.submit_time,
        start_time=q.start_time,
        end_time=q.end_time,
        queued_time=q.queued_time,
        duration=q.duration,
        exec_timeout=q.exec_timeout,
        queue_timeout=q.queue_timeout,
        tasks=tasks,
        links=Links(overview=q.overview, grafana=q.grafana_url, dashboard=q.dashboard_url),
        outputs=list(dict.fromkeys(outputs)),
        failure_message=failure if status.failed() else None,
    )


_ID_RE = re.compile(r"^(?P<name>[a-zA-Z]([a-zA-Z0-9_-]*[a-zA-Z0-9])?)-\d+$")


def workflow_name(workflow_id: str) -> str:
    """OSMO ids are ``<spec name>-<n>``."""
    m = _ID_RE.match(workflow_id)
    return m.group("name") if m else workflow_id


def list_entries(data: Any) -> list[ListEntry]:
    """The rows of `osmo workflow list -t json` (`{"workflows": [...]}`)."""
    return WorkflowList.model_validate(data).workflows


def workflow_from_list(entry: ListEntry, last: WorkflowStatus) -> WorkflowStatus:
    """A status from one `workflow list` row: the row's workflow-level facts (status, times, pool, priority,
    links) over the tasks of the last full query — the list carries no tasks, so a caller queries the workflow
    again whenever its status differs from that query's."""
    return last.model_copy(
        update={
            "status": workflow_status(entry.status),
            "pool": entry.pool or last.pool,
            "priority": entry.priority or last.priority,
            "submit_time": entry.submit_time or last.submit_time,
            "start_time": entry.start_time,
            "end_time": entry.end_time,
            "queued_time": entry.queued_time,
            "duration": entry.duration,
            "links": Links(
                overview=entry.overview or last.links.overview,
                grafana=entry.grafana_url,
                dashboard=entry.dashboard_url,
            ),
        }
    )


def summaries_from_list(data: Any) -> list[WorkflowSummary]:
    rows = list_entries(data)
    return [
        WorkflowSummary(
            workflow_id=r.name,
            name=workflow_name(r.name),
            status=workflow_status(r.status),
            pool=r.pool,
            priority=r.priority or "NORMAL",
            submit_time=r.submit_time,
            start_time=r.start_time,
            end_time=r.end_time,
            duration=r.duration,
            overview_url=r.overview,
        )
        for r in rows
    ]


# --------------------------------------------------------------------------------------------- pools, nodes
def gpu_count(value: Any) -> int | None:
    """``resource_usage`` numbers arrive as strings ("12", sometimes "12.0"); unparsable → unknown."""
    if value is None or value == "":
        return None
    try:
        return int(float(str(value).strip()))
    except ValueError:
        return None


_POOL_STATUSES = ("ONLINE", "OFFLINE", "MAINTENANCE")


def pools_from_json(data: Any) -> list[Pool]:
    out: list[Pool] = []
    for node_set in PoolResponse.model_validate(data).node_sets:
        first: str | None = None
        for p in node_set.pools:
            u = p.resource_usage
            notes: list[str] = []
            if first is not None:
                notes.append(f"shares physical GPUs with pool {first} (same node set): free GPUs are not additive")
            first = first or p.name
            status = p.status.upper() if p.status and p.status.upper() in _POOL_STATUSES else "OFFLINE"
            if status == "MAINTENANCE":
                notes.append("in maintenance: submissions are refused")
            elif status == "OFFLINE":
                notes.append("offline: submissions are accepted but wait in the queue")
            out.append(
                Pool(
                    name=p.name,
                    description=p.description or "",
                    status=status,
                    backend=p.backend or BACKEND,
                    default_platform=p.default_platform,
                    quota_limit=gpu_count(u.quota_limit),
                    quota_used=gpu_count(u.quota_used),
                    quota_free=gpu_count(u.quota_free),
                    total_capacity=gpu_count(u.total_capacity),
                    total_usage=gpu_count(u.total_usage),
                    total_free=gpu_count(u.total_free),
                    notes=notes,
                )
            )
    return out


_UNITS = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "ki": 2**10, "mi": 2**20, "gi": 2**30, "ti": 2**40}
_QTY_RE = re.compile(r"^\s*([0-9.]+)\s*([kmgtKMGT]i?)?\s*$")


def quantity(value: Any) -> float | None:
    """A Kubernetes quantity ("1041285120Ki", "512Gi", "94", 8589934592000) as a plain number of units."""
    if value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    m = _QTY_RE.match(str(value))
    if not m:
        return None
    return float(m.group(1)) * _UNITS[(m.group(2) or "").lower()]


def _gi_from_bytes(value: Any) -> float | None:
    n = quantity(value)
    return None if n is None else n / 2**30


def _gi_plain(value: Any) -> float | None:
    """``exposed_fields``/``usage_fields`` sizes: plain numbers are already Gi, suffixed ones are converted."""
    if value is None:
        return None
    if isinstance(value, str) and re.search(r"[A-Za-z]", value):
        n = quantity(value)
        return None if n is None else n / 2**30
    n = quantity(value)
    return n


def _node(entry: ResourcesEntry, pool: str, platform: str | None) -> Node:
    alloc = entry.platform_allocatable_fields.get(pool, {}).get(platform or "", {})
    avail = entry.platform_available_fields.get(pool, {}).get(platform or "", {})
    exposed, used = entry.exposed_fields, entry.usage_fields

    def total(key: str, raw_bytes: bool) -> float:
        if key in alloc:
            v = _gi_from_bytes(alloc[key]) if raw_bytes else quantity(alloc[key])
        else:
            v = _gi_plain(exposed.get(key)) if raw_bytes else quantity(exposed.get(key))
        return max(0.0, v or 0.0)

    def free(key: str, raw_bytes: bool, tot: float) -> float:
        if key in avail:
            v = _gi_from_bytes(avail[key]) if raw_bytes else quantity(avail[key])
        else:
            u = _gi_plain(used.get(key)) if raw_bytes else quantity(used.get(key))
            v = tot - u if u is not None else tot
        return min(tot, max(0.0, v or 0.0))

    cpu_t, mem_t, sto_t = total("cpu", False), total("memory", True), total("storage", True)
    gpu_t = total("gpu", False)
    return Node(
        hostname=entry.hostname,
        pool=pool,
        platform=platform,
        conditions=[str(c) for c in (entry.conditions or [])],
        taints=[_taint_text(t) for t in entry.taints],
        cpu_total=cpu_t,
        cpu_free=free("cpu", False, cpu_t),
        memory_total_gi=round(mem_t, 2),
        memory_free_gi=round(free("memory", True, mem_t), 2),
        storage_total_gi=round(sto_t, 2),
        storage_free_gi=round(free("storage", True, sto_t), 2),
        gpu_total=int(gpu_t),
        gpu_free=int(free("gpu", False, gpu_t)),
    )


def _taint_text(t: Any) -> str:
    if isinstance(t, dict):
        key, value, effect = t.get("key", ""), t.get("value"), t.get("effect", "")
        return f"{key}={value}:{effect}" if value else f"{key}:{effect}"
    return str(t)


def nodes_from_json(data: Any, pool: str | None = None) -> list[Node]:
    """One Node per (node, pool/platform) the node serves; capacity from ``platform_allocatable_fields``."""
    out: list[Node] = []
    for entry in ResourceList.model_validate(data).resources:
        pairs: list[tuple[str, str | None]] = []
        for p, plats in entry.pool_platform_labels.items():
            pairs.extend([(p, plat) for plat in plats] if plats else [(p, None)])
        if not pairs:
            for pp in entry.exposed_fields.get("pool/platform") or []:
                name, _, platform = str(pp).partition("/")
                pairs.append((name, platform or None))
        for p, plat in pairs:
            if pool is None or p == pool:
                out.append(_node(entry, p, plat))
    return out


# --------------------------------------------------------------------------------------------- events
_TS = r"(?P<ts>\d{4}[-/]\d\d[-/]\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)"
_WHO = r"\[(?P<task>[^\]\s]+)(?: retry-(?P<retry>\d+))?\]"
_CONDITION_RE = re.compile(
    _TS + r" " + _WHO + r" (?P<cond>\w+): (?P<st>True|False), Reason: (?P<reason>[^,]*), Message: (?P<msg>.*)$"
)
_EVENT_RE = re.compile(_TS + r" " + _WHO + r" (?P<reason>[A-Za-z][\w-]*): (?P<msg>.*)$")
_K8S_RE = re.compile(_TS + r"\s+(?:Normal|Warning)\s+(?P<reason>\S+)\s+(?P<msg>.*)$")


def parse_time(text: str) -> datetime:
    t = text.replace("/", "-").replace("Z", "+00:00")
    dt = datetime.fromisoformat(t)
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def events_from_text(lines: Iterable[str], default_task: str) -> list[Event]:
    """OSMO's two line kinds, plus the fixtures' ``kubectl get events`` style (attributed to ``default_task``)."""
    out: list[Event] = []
    for raw in lines:
        line = raw.rstrip()
        if m := _CONDITION_RE.match(line):
            out.append(
                Event(
                    time=parse_time(m["ts"]),
                    task=m["task"],
                    retry_id=int(m["retry"] or 0),
                    kind="condition",
                    condition=m["cond"],
                    condition_status=m["st"] == "True",
                    reason=m["reason"].strip() or m["cond"],
                    message=m["msg"].strip(),
                )
            )
        elif m := _EVENT_RE.match(line):
            out.append(
                Event(
                    time=parse_time(m["ts"]),
                    task=m["task"],
                    retry_id=int(m["retry"] or 0),
                    reason=m["reason"],
                    message=m["msg"].strip(),
                )
            )
        elif m := _K8S_RE.match(line):
            out.append(Event(time=parse_time(m["ts"]), task=default_task, reason=m["reason"], message=m["msg"].strip()))
    return out


# --------------------------------------------------------------------------------------------- logs
_FRAMING = (
    re.compile(r"^Workflow \S+ has (logs|events):\s*$"),
    re.compile(r"^Log stream has timed out or failed\."),
)


def strip_framing(lines: Iterable[str]) -> list[str]:
    """Drop the CLI's header and stream notices; keep every log line as printed."""
    return [ln.rstrip("\n") for ln in lines if not any(p.match(ln) for p in _FRAMING)]


# --------------------------------------------------------------------------------------------- submit, errors
_TEXT_ID_RE = re.compile(r"^Workflow ID\s*-\s*(?P<v>\S+)", re.MULTILINE)
_TEXT_OVERVIEW_RE = re.compile(r"^Workflow Overview\s*-\s*(?P<v>\S+)", re.MULTILINE)
_TEXT_DASH_RE = re.compile(r"^Workflow Dashboard\s*-\s*(?P<v>\S+)", re.MULTILINE)
_TEXT_WARN_RE = re.compile(r"^WARNING:\s*(?P<v>.+)$", re.MULTILINE)


def submit_response(text: str) -> SubmitResponse | None:
    """``SubmitResponse`` JSON, or the text form (``Workflow ID        - <id>`` …) some versions print."""
    try:
        data = parse_json(text)
        if isinstance(data, dict) and "name" in data:
            return SubmitResponse.model_validate(data)
    except (json.JSONDecodeError, ValueError):
        pass
    m = _TEXT_ID_RE.search(text)
    if not m:
        return None
    over, dash = _TEXT_OVERVIEW_RE.search(text), _TEXT_DASH_RE.search(text)
    return SubmitResponse(
        name=m["v"],
        overview=over["v"] if over else None,
        dashboard_url=dash["v"] if dash else None,
        warnings=[w["v"].strip() for w in _TEXT_WARN_RE.finditer(text)],
    )


_TEXT_ERR_RE = re.compile(r"^Error message:\s*(?P<msg>.*?)(?:\nError code:\s*(?P<code>\S+))?\s*$", re.DOTALL | re.M)


def error_envelope(stdout: str, stderr: str) -> ErrorEnvelope | None:
    """``{"message", "code"}`` (json mode) or ``Error message: …`` / ``Error code: …`` (text mode)."""
    for text in (stdout, stderr):
        try:
            data = parse_json(text)
            if isinstance(data, dict) and "message" in data:
                return ErrorEnvelope.model_validate(data)
        except (json.JSONDecodeError, ValueError):
            pass
        m = _TEXT_ERR_RE.search(text)
        if m:
            return ErrorEnvelope(message=m["msg"].strip(), code=m["code"])
    return None


def credentials_from_json(text: str) -> list[Credential]:
    """`osmo credential --format-type json list` → {"credentials": [{cred_name, cred_type, profile, …}]}; a text
    "No credentials found." (as the skill's fixtures print) is an empty list."""
    if not text.strip() or text.strip().lower().startswith("no credentials"):
        return []
    data = parse_json(text)
    rows = data.get("credentials", []) if isinstance(data, dict) else data
    return [
        Credential(
            name=str(r.get("cred_name") or r.get("name")),
            type=str(r.get("cred_type") or r.get("type") or "?"),
            profile=r.get("profile") or None,
        )
        for r in rows
        if isinstance(r, dict) and (r.get("cred_name") or r.get("name"))
    ]


def data_check(text: str) -> tuple[bool, str]:
    """`osmo data check` prints {"status": "pass"} or {"status": "fail", "error": "…"}; the skill's fixtures print
    "Access check successful." instead. Anything else is a failed check, quoted."""
    body = text.strip()
    try:
        data = parse_json(body)
    except ValueError:
        data = None
    if isinstance(data, dict) and "status" in data:
        if str(data["status"]).lower() == "pass":
            return True, "access check passed"
        return False, str(data.get("error") or "access check failed")
    if re.search(r"access check successful", body, re.IGNORECASE):
        return True, "access check passed"
    return False, body[:500] or "no answer from `osmo data check`"
