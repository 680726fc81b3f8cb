"""logs-reader: read up to five tasks' logs in parallel (whole logs through the streaming file scanner where the
backend offers them, else a tail bounded by a capture timeout), digest them with the streaming pipeline, and return a ≤300-word markdown digest plus compact per-task facts.

Raw lines never leave this subagent: only redacted, bounded facts and the digest do.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, NotRequired

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from typing_extensions import TypedDict

from runshepherd.logs import LogConfig, TaskDigest, count_tokens, digest_to_markdown
from runshepherd.subagents.logs_reader.pool import SharedReaders

MAX_TASKS_PER_READER = 5
MAX_ERROR_LINES_PER_READER = 50
MAX_FACT_CHARS = 300


@dataclass
class ReaderContext:
    backend: Any
    config: LogConfig
    tail_lines: int = 2000
    capture_timeout: float = 5.0
    writer: Callable[[str], str] | None = None  # a model that rewrites the extraction as prose (LLM path)
    readers: SharedReaders | None = None  # a sweep's readers, shared by all its points (else this reader's own)


class ReaderState(TypedDict):
    workflow_id: str
    tasks: list[dict[str, Any]]  # [{name, status}]
    reader: int
    attempt: int
    alive: bool
    digests: NotRequired[list[dict[str, Any]]]
    result: NotRequired[dict[str, Any]]


def _read_one(ctx: ReaderContext, workflow_id: str, task: dict[str, Any], alive: bool) -> TaskDigest:
    # The whole log where the backend has it; else a tail, whose live stream is bounded by the capture timeout
    # (a streaming log does not end while its task runs: the skill's 5 s rule). The reader (numpy, the cue scanner)
    # loads here, when a log is first read, not in every process that builds the session graph.
    from runshepherd.logs.tasklog import digest_task

    return digest_task(
        ctx.backend,
        workflow_id,
        task["name"],
        status=task.get("status"),
        config=ctx.config,
        tail_lines=ctx.tail_lines,
        capture_timeout=ctx.capture_timeout if alive else None,
        now=datetime.now(UTC),
    )


def fetch(state: ReaderState, runtime: Runtime[ReaderContext]) -> dict[str, Any]:
    tasks = state["tasks"][:MAX_TASKS_PER_READER]
    ctx = runtime.context
    if ctx.readers is not None:  # in a sweep: the tasks join the readers every point shares
        jobs = [partial(_read_one, ctx, state["workflow_id"], t, state["alive"]) for t in tasks]
        digests = ctx.readers.read(jobs)
        return {"digests": [d.model_dump(mode="json") for d in digests]}
    with ThreadPoolExecutor(max_workers=max(1, len(tasks)), thread_name_prefix="logs-reader") as pool:
        digests = list(pool.map(lambda t: _read_one(ctx, state["workflow_id"], t, state["alive"]), tasks))
    return {"digests": [d.model_dump(mode="json") for d in digests]}


def _clip(s: str | None) -> str | None:
    return s if s is None or len(s) <= MAX_FACT_CHARS else s[: MAX_FACT_CHARS - 1] + "…"


def summarise(state: ReaderState, runtime: Runtime[ReaderContext]) -> dict[str, Any]:
    digests = [TaskDigest.model_validate(d) for d in state.get("digests") or []]
    markdown = digest_to_markdown(digests, max_words=runtime.context.config.digest_words)
    if runtime.context.writer is not None:
        markdown = runtime.context.writer(markdown)
    budget = MAX_ERROR_LINES_PER_READER
    facts: dict[str, dict[str, Any]] = {}
    statuses = {t["name"]: t.get("status") for t in state["tasks"]}
    for d in digests:
        name = d.task or "?"
        failed = str(statuses.get(name) or "").startswith("FAILED")
        errors = [_clip(x) for x in d.error_lines[:budget]] if failed else []
        budget -= len(errors)
        facts[name] = {
            "stage": d.stage,
            "progress": d.progress.model_dump(mode="json", exclude={"line"}) if d.progress else None,
            "metrics": d.latest_metrics(),
            "flags": list(d.flags)[:10],
            "root_error": _clip(d.root_error),
            "error_lines": errors,
            "eta_seconds": d.eta_seconds,
            "last_update": d.last_update.isoformat() if d.last_update else None,
            "stale": d.stale,
            "redactions": sum(d.redactions.values()),
            "lines_read": d.lines_read,
        }
    return {
        "result": {
            "reader": state["reader"],
            "attempt": state["attempt"],
            "tasks": [t["name"] for t in state["tasks"]],
            "markdown": markdown,
            "tokens": count_tokens(markdown),
            "facts": facts,
        }
    }


def build() -> Any:
    b = StateGraph(ReaderState, context_schema=ReaderContext)
    b.add_node("fetch", fetch)
    b.add_node("summarise", summarise)
    b.add_edge(START, "fetch")
    b.add_edge("fetch", "summarise")
    b.add_edge("summarise", END)
    return b.compile(name="logs_reader")


logs_reader = build()


def chunk_tasks(tasks: list[dict[str, Any]], per_reader: int = MAX_TASKS_PER_READER) -> list[list[dict[str, Any]]]:
    per = max(1, min(per_reader, MAX_TASKS_PER_READER))
    return [tasks[i : i + per] for i in range(0, len(tasks), per)]
