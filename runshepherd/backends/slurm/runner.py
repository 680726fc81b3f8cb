"""The program each Slurm job runs: ``python -m runshepherd.backends.slurm.runner <workflow dir> <task>``.

It starts the prepared command (argv, cwd and environment decided at submit time), writes its output to the task
log in OSMO's line format, forwards Slurm's SIGTERM (cancel, time limit) to the command, stops it (and what it
started) at the spec's ``exec_timeout`` to the second (Slurm's ``--time`` is whole minutes, checked about every
30 s: it stays the backstop), records the exit code in ``exit.json`` (Slurm forgets finished jobs; without
slurmdbd this file is the lasting record) and moves ``{{output}}`` into the shared object store, like the local
supervisor does.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

from runshepherd.backends.files.logfiles import TaskLog
from runshepherd.backends.files.process import exit_code_of


def main(argv: list[str]) -> int:
    root, task = Path(argv[0]), argv[1]
    task_dir = root / "tasks" / task
    prepared = json.loads((task_dir / "prepared.json").read_text(encoding="utf-8"))
    env = dict(os.environ)
    env.update(prepared["env"])
    env["PATH"] = prepared["env"].get("PATH", "") + os.pathsep + os.environ.get("PATH", os.defpath)
    log = TaskLog(task_dir / "log", task)
    log.write(f"Slurm job {os.environ.get('SLURM_JOB_ID', '?')} started on {os.uname().nodename}", control=True)
    try:
        proc = subprocess.Popen(
            prepared["argv"],
            cwd=prepared["cwd"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
    except OSError as err:
        log.write(f"could not start {prepared['argv'][0]!r}: {err}", control=True)
        code = 127 if isinstance(err, FileNotFoundError) else 126
        _finish(root, task, code, [])
        return code

    def forward(signum: int, _frame: object) -> None:  # Slurm signals the job's other processes itself
        if proc.poll() is None:
            proc.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    assert proc.stdout is not None
    pump = threading.Thread(target=log.pump, args=(proc.stdout,), daemon=True)
    pump.start()
    limit = _exec_timeout(root)
    timed_out = False
    try:
        status = proc.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        timed_out = True
        log.write(f"Task exceeded its exec_timeout of {limit:g}s; stopping it", control=True)
        status = _stop(proc)
    code = exit_code_of(status)
    pump.join(timeout=10)
    log.write(f"command exited with code {code}", control=True)
    outputs = _store(root, task, log)
    _finish(root, task, code, outputs, timed_out=timed_out)
    log.close()
    return TIMED_OUT if timed_out and code == 0 else code


TIMED_OUT = 124  # the job's exit when a command stopped at exec_timeout exited 0 anyway (as timeout(1) says it)


STOP_GRACE = 5.0  # seconds between SIGTERM and SIGKILL at exec_timeout (the test cluster's KillWait)


def _exec_timeout(root: Path) -> float | None:
    """The spec's exec_timeout in seconds, from the workflow's record (None: no limit)."""
    try:
        value = json.loads((root / "slurm.json").read_text(encoding="utf-8")).get("exec_timeout")
    except (OSError, ValueError):
        return None
    return float(value) if isinstance(value, int | float) and value > 0 else None


def _signal_tree(proc: subprocess.Popen[bytes], signum: int) -> None:
    """The command and every process it started (the command stays in the job's process group, which Slurm's
    process tracking may rely on). The command is signalled first: a shell whose children ended before it heard
    the signal would return from ``wait`` with 0, and the stopped task would read as finished."""
    import psutil

    try:
        root = psutil.Process(proc.pid)
        tree = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return  # it ended meanwhile
    for p in tree:
        try:
            p.send_signal(signum)
        except psutil.NoSuchProcess:
            continue  # that one ended meanwhile


def _stop(proc: subprocess.Popen[bytes]) -> int:
    _signal_tree(proc, signal.SIGTERM)
    try:
        return proc.wait(timeout=STOP_GRACE)
    except subprocess.TimeoutExpired:
        _signal_tree(proc, signal.SIGKILL)
        return proc.wait()


def _store(root: Path, task: str, log: TaskLog) -> list[str]:
    from runshepherd.backends.files.objects import store_outputs  # heavier imports only after the command ran
    from runshepherd.backends.files.records import WorkflowFiles

    return store_outputs(WorkflowFiles(root), task, log)


def _finish(root: Path, task: str, code: int, outputs: list[str], *, timed_out: bool = False) -> None:
    from runshepherd.backends.files.records import write_json_atomic

    record: dict[str, object] = {"exit_code": code, "end_time": datetime.now(UTC).isoformat(), "outputs": outputs}
    if timed_out:
        record["timed_out"] = True
    write_json_atomic(root / "tasks" / task / "exit.json", record)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
