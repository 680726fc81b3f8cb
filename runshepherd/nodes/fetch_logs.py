"""fetch_logs: one logs-reader per five tasks. One task runs inline; two or more fan out with Send, bounded by
`max_concurrency` from config. Readers return digests, never raw lines."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send
from typing_extensions import TypedDict

from runshepherd.events import LogsReaders
from runshepherd.experts.base import DigestWriter
from runshepherd.graph.context import Deps, deps_of
from runshepherd.graph.state import SessionState, still_running, submitted_id
from runshepherd.logs import LogConfig
from runshepherd.nodes.common import emit
from runshepherd.subagents.logs_reader.graph import ReaderContext, chunk_tasks, logs_reader


def tasks_to_read(state: SessionState) -> list[dict[str, Any]]:
    """The tasks `collect_tasks` listed: every task that ran (FAILED_UPSTREAM never started, so has no log)."""
    return list(state.get("read_tasks") or [])


def collect_tasks(state: SessionState, runtime: Runtime[Deps]) -> dict[str, Any]:
    """List every task from the backend (the status snapshot in state is capped for size)."""
    deps = deps_of(runtime)
    ws = deps.backend.query(submitted_id(state))
    tasks = [{"name": t.name, "status": t.status.value} for t in ws.tasks if t.status.value != "FAILED_UPSTREAM"]
    readers = len(chunk_tasks(tasks, deps.settings.logs.tasks_per_reader))
    emit(LogsReaders(workflow_id=submitted_id(state), tasks=len(tasks), readers=readers))
    return {"tasks_per_reader": deps.settings.logs.tasks_per_reader, "read_tasks": tasks}


def fan_out(state: SessionState) -> Any:
    """Pure router: inline for one reader's worth of tasks, else one Send per chunk of five."""
    tasks = tasks_to_read(state)
    chunks = chunk_tasks(tasks, state.get("tasks_per_reader") or 5)
    if len(tasks) <= 1:
        return "read_logs_inline"
    alive = still_running(state)
    return [
        Send(
            "read_logs",
            {
                "workflow_id": submitted_id(state),
                "tasks": chunk,
                "reader": i,
                "attempt": state["attempt"]["n"],
                "alive": alive,
            },
        )
        for i, chunk in enumerate(chunks)
    ]


def _context(deps: Deps) -> ReaderContext:
    cfg = deps.settings.logs
    writer = None
    if deps.settings.expert != "heuristic":
        expert = deps.get_expert()
        writer = expert.write_digest if isinstance(expert, DigestWriter) else None
    return ReaderContext(
        backend=deps.backend,
        config=LogConfig(**cfg.model_dump()),
        tail_lines=cfg.tail_lines,
        capture_timeout=cfg.capture_timeout_seconds,
        writer=writer,
        readers=deps.log_readers,
    )


class ReadRequest(TypedDict):
    """The payload of one reader branch (a `Send` argument)."""

    workflow_id: str | None
    tasks: list[dict[str, Any]]
    reader: int
    attempt: int
    alive: bool


def read_logs(payload: ReadRequest, runtime: Runtime[Deps]) -> dict[str, Any]:
    """A Send branch: one reader over up to five tasks."""
    out = logs_reader.invoke(payload, context=_context(deps_of(runtime)))
    return {"reader_results": [out["result"]]}


def read_logs_inline(state: SessionState, runtime: Runtime[Deps]) -> dict[str, Any]:
    tasks = tasks_to_read(state)
    if not tasks:
        return {"reader_results": []}
    payload: ReadRequest = {
        "workflow_id": submitted_id(state),
        "tasks": tasks,
        "reader": 0,
        "attempt": state["attempt"]["n"],
        "alive": still_running(state),
    }
    out = logs_reader.invoke(payload, context=_context(deps_of(runtime)))
    return {"reader_results": [out["result"]]}
