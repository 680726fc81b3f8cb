"""Run the installed `orchestrate` in a subprocess on a temp state dir and HOME."""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

from quick_examples import EXAMPLES as EXAMPLES  # re-exported: e2e tests import them from here
from quick_examples import quick_example as quick_example

REPO = Path(__file__).resolve().parents[2]


def orchestrate_bin() -> list[str]:
    exe = shutil.which("orchestrate", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "runshepherd.cli.main"]


def env_for(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUNSHEPHERD_")}
    env.update(RUNSHEPHERD_STATE_DIR=str(tmp / "state"), HOME=str(tmp / "home"), PYTHONUNBUFFERED="1")
    # No pause before an infra retry (5 s, 10 s, 20 s by default): a test whose job fails on a network error waited 35 s
    # for three resubmits it does not look at. The wait is tested where it is the subject:
    # tests/unit/core/test_infra_backoff.py and the infra-retry test in tests/graph/test_session_graph.py.
    env["RUNSHEPHERD_FIXES__INFRA_BACKOFF_SECONDS"] = "0"
    (tmp / "home").mkdir(parents=True, exist_ok=True)
    return env


def run(tmp: Path, *args: str, timeout: float = 180, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*orchestrate_bin(), *args],
        cwd=cwd or tmp,
        env=env_for(tmp),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def spawn(tmp: Path, *args: str) -> subprocess.Popen[str]:
    """`orchestrate ARGS` in the background (a session to kill, cancel or race), text pipes, no stdin."""
    return subprocess.Popen(
        [*orchestrate_bin(), *args],
        cwd=tmp,
        env=env_for(tmp),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )


def _slow_task(script: str) -> str:
    """A one-task workflow named ``slow`` running the bash ``script`` (a YAML double-quoted string)."""
    return f"""\
workflow:
  name: slow
  resources:
    default: {{cpu: 1, memory: 256Mi}}
  tasks:
  - name: slow
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["{script}"]
"""


def slow_spec(steps: int) -> str:
    """A one-task workflow printing a step a second for ``steps`` seconds (time to kill, cancel or signal it)."""
    return _slow_task(
        f"for i in $(seq 1 {steps}); do echo step $i/{steps}; sleep 1; done; echo ok > {{{{output}}}}/ok.txt"
    )


def gated_spec(go: Path, limit: int = 120) -> str:
    """Like :func:`slow_spec`, but it prints step 1/2 and then runs until the test creates the file ``go`` (at most
    ``limit`` seconds), prints step 2/2 and writes ok.txt. For a test that needs the job running while it kills,
    signals or looks at the driver, and then only needs it to finish: a fixed ``sleep N`` was waited out to its end
    after the test had done its part."""
    wait = f"for i in $(seq 1 {int(limit * 10)}); do [ -e {go} ] && break; sleep 0.1; done"
    return _slow_task(f"echo step 1/2; {wait}; echo step 2/2; echo ok > {{{{output}}}}/ok.txt")


def until_running(proc: subprocess.Popen[str], limit: float = 60) -> list[str]:
    """Read a `--json` session's events until its workflow is RUNNING (or ``limit`` seconds); the lines read."""
    import time

    assert proc.stdout is not None
    seen: list[str] = []
    deadline = time.time() + limit
    for line in proc.stdout:
        seen.append(line)
        if '"event": "status"' in line and '"RUNNING"' in line or time.time() > deadline:
            break
    return seen


def until_status(tmp: Path, wid: str, want: Collection[str] = (), timeout: float = 90) -> str:
    """Wait until local workflow ``wid`` (state dir ``tmp/state``) has a status in ``want`` (empty: any ended
    status), or ``timeout`` seconds; the last status read. It reads the backend's records in this process and wakes
    on their change; the test then asks `orchestrate` what it asserts. Polling with `orchestrate status` or `list`
    instead paid a CLI start (~0.8 s of CPU on the 2 CI cores) every half second of the wait."""
    from runshepherd.backends.local import LocalBackend

    backend = LocalBackend(tmp / "state")
    deadline = time.monotonic() + timeout
    while True:
        status = backend.query(wid).status
        left = deadline - time.monotonic()
        if (status.value in want if want else not status.alive()) or left <= 0:
            return status.value
        backend.wait_for_change(wid, min(1.0, left))


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def chat(tmp: Path, session: str, lines: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`orchestrate chat` with the lines piped in (scripted mode: each line waits for its run to settle)."""
    new = [] if (tmp / "state" / "chats" / f"{session}.json").is_file() else ["--new"]  # continue, else a new chat
    return subprocess.run(
        [*orchestrate_bin(), "chat", "--session", session, *new, "--cadence", "0.2"],
        cwd=tmp,
        env=env_for(tmp),
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def on_a_terminal(tmp: Path, *args: str) -> tuple[subprocess.Popen[bytes], int]:
    """`orchestrate` with a pseudo-terminal for stdin, stdout and stderr; returns the process and the pty master."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [*orchestrate_bin(), *args],
        cwd=tmp,
        env={**env_for(tmp), "COLUMNS": "200", "TERM": "xterm-256color"},
        stdin=slave,
        stdout=slave,
        stderr=slave,
    )
    os.close(slave)
    return proc, master


def read_until(fd: int, needle: str, timeout: float, *, after: str | None = None) -> str:
    """What the terminal shows until ``needle`` (with ``after``: until ``needle`` appears after ``after``), or
    ``timeout`` seconds. A question and its answer hint often arrive in one read: looking for the hint in a second
    call, past what the first already returned, waited out its whole timeout."""
    buf = b""
    end = time.monotonic() + timeout

    def seen() -> bool:
        if after is None:
            return needle.encode() in buf
        head, found, rest = buf.partition(after.encode())
        return bool(found) and needle.encode() in rest

    while not seen() and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                buf += os.read(fd, 4096)
            except OSError:
                break
    return buf.decode(errors="replace")
