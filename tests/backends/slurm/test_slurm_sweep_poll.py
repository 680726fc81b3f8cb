"""Issue 16 on a real Slurm: the monitors of a 6-point sweep share one batched read per tick — one squeue call
for all six workflows, not one per workflow."""

from __future__ import annotations

import math
import threading
import time

from runshepherd.backends.base import Status
from runshepherd.backends.slurm import SlurmBackend
from runshepherd.sweep.poll import SharedPoll

from ..helpers import spec_from_yaml

POINT = """\
workflow:
  name: point
  resources:
    default: {cpu: 1, memory: 64Mi}
  tasks:
  - name: sleep
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["sleep 3; echo done"]
"""


def test_six_points_make_one_squeue_call_per_poll(backend: SlurmBackend) -> None:
    ids = [
        backend.submit(spec_from_yaml(POINT), idempotency_key=f"sweep-{time.time_ns()}-{i}").workflow_id
        for i in range(6)
    ]
    poll = SharedPoll(backend, tick=1.0)
    started = time.monotonic()
    before = backend.cli.calls
    finals: dict[str, Status] = {}
    polls = [0]
    lock = threading.Lock()

    def monitor(wid: str) -> None:  # what each point's monitor node does: poll, wait the interval, poll again
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            ws = poll.query(wid)
            with lock:
                polls[0] += 1
            if ws.status.terminal():
                finals[wid] = ws.status
                return
            time.sleep(1.0)

    threads = [threading.Thread(target=monitor, args=(w,)) for w in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    calls = backend.cli.calls - before
    ticks = math.floor(time.monotonic()) - math.floor(started) + 1  # the 1 s tick cells the run spanned
    assert finals == dict.fromkeys(ids, Status.COMPLETED)
    assert calls == poll.reads  # every batched read is exactly one scheduler call (one squeue)
    assert polls[0] >= 6 * 3  # six monitors polled, several times each
    assert calls <= ticks  # ...and Slurm saw at most one squeue per tick, whatever the number of points
