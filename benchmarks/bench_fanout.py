"""Log-reader fan-out: N tasks read by one reader per 5 tasks through the graph's Send fan-out, against reading
the same logs sequentially, measured in the same run.

    python benchmarks/bench_fanout.py                 # 1000 tasks, concurrency 8, 50 ms per log fetch
    python benchmarks/bench_fanout.py --tasks 200 --latency 0.2

The workflow really runs on the local backend (N small tasks). Each log fetch is given a fixed latency, as a
remote scheduler's log call has (OSMO's is a streaming HTTP request bounded by a capture timeout); the reading
and digesting is the real pipeline. Ideal speed-up = min(concurrency, readers); goal ≥ 0.8 of it.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langgraph.graph import END, START, StateGraph

from runshepherd.backends.base import Status
from runshepherd.backends.local import LocalBackend
from runshepherd.config import load_settings
from runshepherd.graph.context import Deps
from runshepherd.graph.state import SessionState
from runshepherd.logs import LogConfig
from runshepherd.nodes.fetch_logs import collect_tasks, fan_out, read_logs, read_logs_inline
from runshepherd.spec import load_spec_text
from runshepherd.subagents.logs_reader.graph import ReaderContext, chunk_tasks, logs_reader


class SlowLogs:
    """The local backend with a fixed latency on each log fetch (a remote scheduler's round trip)."""

    def __init__(self, inner: LocalBackend, latency: float) -> None:
        self.inner, self.latency, self.name = inner, latency, "local"

    def logs(self, *a: Any, **k: Any) -> Iterator[str]:
        time.sleep(self.latency)
        return self.inner.logs(*a, **k)

    def __getattr__(self, item: str) -> Any:
        return getattr(self.inner, item)


def _spec(n: int) -> str:
    tasks = "".join(
        f"  - name: t{i}\n    image: busybox\n    command: [bash, -c]\n"
        f'    args: ["for s in 1 2 3; do echo task {i} step $s/3 loss=0.$s; done"]\n'
        for i in range(n)
    )
    return f"workflow:\n  name: fan\n  resources:\n    default: {{cpu: 0.001, memory: 32Mi}}\n  tasks:\n{tasks}"


def _fanout_graph() -> Any:
    b = StateGraph(SessionState, context_schema=Deps)
    b.add_node("collect_tasks", collect_tasks)
    b.add_node("read_logs", read_logs)
    b.add_node("read_logs_inline", read_logs_inline)
    b.add_edge(START, "collect_tasks")
    b.add_conditional_edges("collect_tasks", fan_out, ["read_logs", "read_logs_inline"])
    b.add_edge("read_logs", END)
    b.add_edge("read_logs_inline", END)
    return b.compile()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--latency", type=float, default=0.05)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        local = LocalBackend(tmp / "state")
        sub = local.submit(load_spec_text(_spec(args.tasks)))
        deadline = time.time() + 600
        while local.query(sub.workflow_id).status.alive() and time.time() < deadline:
            time.sleep(0.5)
        ws = local.query(sub.workflow_id)
        assert ws.status is Status.COMPLETED, ws.status
        backend = SlowLogs(local, args.latency)
        settings = load_settings(environ={}, flags={"state_dir": str(tmp / "state")})
        tasks = [{"name": t.name, "status": t.status.value} for t in ws.tasks]
        chunks = chunk_tasks(tasks, settings.logs.tasks_per_reader)
        ctx = ReaderContext(
            backend=backend,
            config=LogConfig(**settings.logs.model_dump()),
            tail_lines=200,
            capture_timeout=settings.logs.capture_timeout_seconds,
        )

        t0 = time.perf_counter()
        for i, chunk in enumerate(chunks):  # baseline: one reader after another
            logs_reader.invoke(
                {"workflow_id": sub.workflow_id, "tasks": chunk, "reader": i, "attempt": 1, "alive": False}, context=ctx
            )
        sequential = time.perf_counter() - t0

        deps = Deps(backend=backend, settings=settings, session_id="fan", state_dir=tmp / "state")
        state = {
            "request": "fan",
            "attempt": {
                "n": 1,
                "workflow_id": sub.workflow_id,
                "submitted_at": None,
                "idempotency_key": "fan:1",
                "reason": "initial",
            },
            "last_status": {"status": "COMPLETED"},
        }
        t0 = time.perf_counter()
        out = _fanout_graph().invoke(state, {"max_concurrency": args.concurrency}, context=deps)
        fanned = time.perf_counter() - t0
    readers = len(chunks)
    assert len(out["reader_results"]) == readers
    ideal = min(args.concurrency, readers)
    speedup = sequential / fanned
    per_reader_seq = sequential / readers
    overhead = (fanned - sequential / ideal) / readers * args.concurrency
    print(
        f"{args.tasks} tasks, {readers} readers, max_concurrency {args.concurrency}, {args.latency * 1000:.0f} ms "
        "per log fetch"
    )
    print(f"  sequential readers: {sequential:.2f} s ({per_reader_seq * 1000:.0f} ms per reader)")
    print(
        f"  graph fan-out:      {fanned:.2f} s   speed-up {speedup:.2f}x of an ideal {ideal}x "
        f"= {speedup / ideal:.2f} of ideal (goal >= 0.8)"
    )
    print(f"  graph overhead per reader (beyond its own work): {max(0.0, overhead) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
