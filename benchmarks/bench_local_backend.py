"""How much the local backend adds over running a command directly, and how fast a change is noticed.

Run: python benchmarks/bench_local_backend.py [--runs N]
Prints JSON: submit→COMPLETED wall time vs a plain subprocess (absolute and ratio), and the delay between the
supervisor writing a new state and ``wait_for_change`` returning.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from runshepherd.backends.files.records import write_json_atomic
from runshepherd.backends.local import LocalBackend
from runshepherd.backends.local.store import WorkflowDir
from runshepherd.spec.loader import load_spec_text

COMMAND = ["sh", "-c", "echo hello"]
SPEC = """
workflow:
  name: bench
  tasks:
  - name: main
    image: ubuntu
    command: [sh, -c, "echo hello"]
"""


def direct_run(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(COMMAND, capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return times


def backend_run(backend: LocalBackend, runs: int) -> list[float]:
    spec = load_spec_text(SPEC)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        wid = backend.submit(spec).workflow_id
        while not backend.query(wid).status.terminal():
            backend.wait_for_change(wid, 1.0)
        times.append(time.perf_counter() - t0)
        if backend.query(wid).status.value != "COMPLETED":
            raise SystemExit(f"{wid} did not complete")
    return times


def change_latency(backend: LocalBackend, runs: int) -> list[float]:
    """Rewrite a finished workflow's state from another thread and time how soon the waiter wakes."""
    wid = backend.list_workflows(limit=1)[0].workflow_id
    wf = WorkflowDir(backend.state_dir / "workflows" / wid)
    delays = []
    for _ in range(runs):
        written: list[float] = []

        def write(written: list[float] = written) -> None:
            time.sleep(0.2 + random.uniform(0, 0.05))  # not in phase with the 20 ms poll
            state = wf.read_state()
            state.seq += 1
            written.append(time.perf_counter())
            write_json_atomic(wf.state_path, state)

        thread = threading.Thread(target=write)
        thread.start()
        woke = backend.wait_for_change(wid, 5.0)
        noticed = time.perf_counter()
        thread.join()
        if not woke:
            raise SystemExit("wait_for_change missed a change")
        delays.append(noticed - written[0])
    return delays


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(values) * 1000, 1),
        "min_ms": round(min(values) * 1000, 1),
        "max_ms": round(max(values) * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        backend = LocalBackend(Path(tmp) / "state")
        direct = direct_run(args.runs)
        local = backend_run(backend, args.runs)
        latency = change_latency(backend, args.runs)
    result = {
        "direct_subprocess": summary(direct),
        "local_submit_to_completed": summary(local),
        "overhead_ms": round((statistics.median(local) - statistics.median(direct)) * 1000, 1),
        "ratio": round(statistics.median(local) / statistics.median(direct), 1),
        "wait_for_change_latency": summary(latency),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
