"""Orchestration costs, each against a baseline measured in the same run.

    python benchmarks/bench_orchestration.py            # all
    python benchmarks/bench_orchestration.py --polls 10000

1. overhead of a whole session beyond the job's own runtime (local backend; goal < 1 s)
2. how soon the monitor notices a status change on the local backend (goal < 0.5 s)
3. backend calls per workflow-hour under the cadence policy vs a fixed 10 s poll
4. checkpoint bytes per monitor return and DB size after N polls, without and with pruning (goal ≤ 2 KB/return)
5. `orchestrate --help` cold start vs `python -c pass` (goal ≤ 0.3 s)
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from runshepherd.backends.base import Links, Status, TaskState, TaskStatus, WorkflowStatus
from runshepherd.backends.local import LocalBackend
from runshepherd.config import Cadence, load_settings
from runshepherd.graph.builder import compile_graph
from runshepherd.graph.checkpoint import compact, compact_saver_class, prune
from runshepherd.graph.context import Deps
from runshepherd.nodes.cadence import interval

SLEEP_SPEC = """\
workflow:
  name: sleeper
  resources:
    default: {{cpu: 1, memory: 128Mi}}
  tasks:
  - name: sleeper
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo step 1/1; sleep {seconds}; echo done > {{{{output}}}}/done.txt"]
"""


def _session(tmp: Path, spec: Path, backend: Any, **deps_kw: Any) -> tuple[float, list[tuple[float, dict]]]:
    settings = load_settings(environ={}, flags={"state_dir": str(tmp / "state")})
    deps = Deps(
        backend=backend,
        settings=settings,
        session_id=f"b{time.time_ns()}",
        state_dir=tmp / "state",
        auto_yes=True,
        cwd=tmp,
        download_root=tmp / "home",
        **deps_kw,
    )
    conn = sqlite3.connect(str(tmp / "sessions.sqlite"), check_same_thread=False)
    saver = compact_saver_class()(conn)
    saver.setup()
    graph = compile_graph(saver)
    events: list[tuple[float, dict]] = []
    t0 = time.perf_counter()
    for _mode, chunk in graph.stream(
        {"request": "bench", "spec_path": str(spec)},
        {"configurable": {"thread_id": deps.session_id}},
        context=deps,
        stream_mode=["custom"],
        durability="sync",
    ):
        events.append((time.time(), chunk))
    wall = time.perf_counter() - t0
    conn.close()
    return wall, events


def bench_overhead(runs: int) -> None:
    seconds = 2.0
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        spec = tmp / "sleep.yaml"
        spec.write_text(SLEEP_SPEC.format(seconds=seconds))
        base = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run(["bash", "-c", f"echo step 1/1; sleep {seconds}"], check=True, capture_output=True)
            base.append(time.perf_counter() - t0)
        overheads, notice = [], []
        for _ in range(runs):
            backend = LocalBackend(tmp / "state")
            wall, events = _session(tmp, spec, backend)
            wid = next(e["workflow_id"] for _, e in events if e.get("event") == "submitted")
            ws = backend.query(wid)
            task = ws.tasks[0]
            job = (task.end_time - task.start_time).total_seconds()
            overheads.append(wall - job)
            done_at = next(t for t, e in events if e.get("event") == "status" and e.get("to") == "COMPLETED")
            end = ws.end_time or task.end_time
            notice.append(done_at - end.replace(tzinfo=end.tzinfo or UTC).timestamp())
    print("1. session overhead beyond the job's own runtime (local backend, 2 s job)")
    print(f"   direct subprocess: {statistics.median(base):.3f} s  (baseline, same command)")
    print(
        f"   overhead (session wall − job runtime): median {statistics.median(overheads):.3f} s, "
        f"max {max(overheads):.3f} s   goal < 1 s"
    )
    print("2. status change noticed after the job ended (monitor wakes on the supervisor's signal)")
    print(f"   median {statistics.median(notice) * 1000:.0f} ms, max {max(notice) * 1000:.0f} ms   goal < 500 ms")


def bench_calls_per_hour() -> None:
    """The real cadence function over a simulated hour of an unchanged RUNNING workflow."""
    policy = Cadence()

    def count(training: bool) -> int:
        t, polls, unchanged = 0.0, 0, 0
        while t < 3600:
            polls += 1
            t += interval(policy, training=training, unchanged_polls=unchanged, override=None)
            unchanged += 1
        return polls

    fixed = int(3600 / 10)
    print("3. status queries per workflow-hour (RUNNING, no change)")
    for label, training in (("training job", True), ("short job", False)):
        n = count(training)
        print(f"   {label:<13} cadence policy: {n:>4}   fixed 10 s: {fixed}   ratio {n / fixed:.2f}")
    print(
        f"   (local backend only: + one log-tail read per {policy.progress_every:g} s while RUNNING for the "
        "progress line; other backends read logs only at polls)"
    )


class _Spinning:
    """A backend double that stays RUNNING and signals a change at once: polls as fast as the graph can go."""

    name = "bench"
    cheap_logs = False

    def __init__(self) -> None:
        now = datetime.now(UTC)
        self.ws = WorkflowStatus(
            workflow_id="spin-1",
            name="spin",
            status=Status.RUNNING,
            backend="bench",
            pool="p",
            submit_time=now,
            start_time=now,
            links=Links(),
            tasks=[TaskState(name="t", group="t-group", status=TaskStatus.RUNNING, lead=True)],
        )
        self.queries = 0

    def pools(self) -> list:
        return []

    def resources(self, pool: str | None = None) -> list:
        return []

    def find_by_key(self, key: str) -> str | None:
        return "spin-1"

    def query(self, wid: str) -> WorkflowStatus:
        self.queries += 1
        return self.ws

    def wait_for_change(self, wid: str, timeout: float) -> bool:
        return True

    def logs(self, *a: Any, **k: Any):
        return iter(())

    def events(self, *a: Any, **k: Any) -> list:
        return []


def bench_checkpoints(polls: int) -> None:
    from langgraph.errors import GraphRecursionError

    spec_text = SLEEP_SPEC.format(seconds=1)
    results = {}
    for mode in ("no pruning", "pruned every 25 returns"):
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d)
            spec = tmp / "s.yaml"
            spec.write_text(spec_text)
            backend = _Spinning()
            settings = load_settings(environ={}, flags={"state_dir": str(tmp / "state")})
            deps = Deps(
                backend=backend, settings=settings, session_id="cp", state_dir=tmp / "state", auto_yes=True, cwd=tmp
            )
            db = tmp / "sessions.sqlite"
            conn = sqlite3.connect(str(db), check_same_thread=False)
            saver = compact_saver_class()(conn)
            saver.setup()
            graph = compile_graph(saver)
            per = settings.cadence.polls_per_checkpoint
            returns = polls // per
            cfg = {"configurable": {"thread_id": "cp"}, "recursion_limit": returns + 10}
            sizes = []
            steps = 0
            t0 = time.perf_counter()
            try:
                for _ in graph.stream(
                    {"request": "spin", "spec_path": str(spec)},
                    cfg,
                    context=deps,
                    stream_mode="updates",
                    durability="sync",
                ):
                    steps += 1
                    if mode.startswith("pruned") and steps % 25 == 0:
                        prune(conn, "cp")
                    if steps in (20, 20 + 200):
                        conn.commit()
                        sizes.append(_db_bytes(conn))
            except GraphRecursionError:
                pass
            wall = time.perf_counter() - t0
            if mode.startswith("pruned"):
                prune(conn, "cp")
                compact(conn)
            final = _db_bytes(conn)
            file_size = db.stat().st_size + (
                Path(str(db) + "-wal").stat().st_size if Path(str(db) + "-wal").exists() else 0
            )
            conn.close()
            results[mode] = (sizes, final, file_size, backend.queries, wall)
    print(f"4. checkpoints: {polls} polls = {polls // Cadence().polls_per_checkpoint} monitor returns")
    for mode, (sizes, final, file_size, queries, wall) in results.items():
        per_return = (sizes[1] - sizes[0]) / 200 if len(sizes) == 2 else float("nan")
        print(
            f"   {mode:<24} bytes/return {per_return:,.0f}   checkpoint data at end {final / 1024:,.0f} KiB   "
            f"file {file_size / 1024:,.0f} KiB   ({queries} queries in {wall:.1f} s)"
        )
    print("   goal ≤ 2 KB per return (no pruning); pruning keeps the DB bounded")


def _db_bytes(conn: sqlite3.Connection) -> int:
    cp = conn.execute("SELECT coalesce(sum(length(checkpoint) + length(metadata)), 0) FROM checkpoints").fetchone()[0]
    wr = conn.execute("SELECT coalesce(sum(length(value)), 0) FROM writes").fetchone()[0]
    has_blobs = conn.execute("SELECT 1 FROM sqlite_master WHERE name='rs_blobs'").fetchone()
    bl = conn.execute("SELECT coalesce(sum(length(text)), 0) FROM rs_blobs").fetchone()[0] if has_blobs else 0
    return int(cp + wr + bl)  # long texts (specs) are stored once in rs_blobs: counted there


def bench_cold_start(runs: int) -> None:
    exe = Path(sys.executable).parent / "orchestrate"
    cmd = [str(exe), "--help"] if exe.exists() else [sys.executable, "-m", "runshepherd.cli.main", "--help"]

    def t(c: list[str]) -> float:
        xs = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run(c, check=True, capture_output=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
            xs.append(time.perf_counter() - t0)
        return statistics.median(xs)

    base = t([sys.executable, "-c", "pass"])
    help_t = t(cmd)
    print("5. `orchestrate --help` cold start")
    print(
        f"   python -c pass {base:.3f} s (baseline)   orchestrate --help {help_t:.3f} s   "
        f"ratio {help_t / base:.1f}x   goal ≤ 0.3 s"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--polls", type=int, default=10_000)
    args = ap.parse_args()
    bench_overhead(args.runs)
    bench_calls_per_hour()
    bench_checkpoints(args.polls)
    bench_cold_start(max(5, args.runs))


if __name__ == "__main__":
    main()
