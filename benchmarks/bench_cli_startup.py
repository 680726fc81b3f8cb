"""Start-up cost of the read-only commands (status, list, logs, explain, diagnose, sessions), against a baseline
measured in the same run.

    python benchmarks/bench_cli_startup.py [--runs N]

These commands only read a saved session, a workflow's records or a file, so what a person waits for is mostly the
interpreter and the imports. Each round runs the baseline (`python -c "import runshepherd"`: the interpreter, site
and the package, the floor of any `orchestrate` process) and every command once, interleaved, so a busy machine
slows all of them alike. Per command: median wall time, median CPU time (user + sys of the child), the ratio of
the median wall time to the baseline's, and (from one `-X importtime` run) how many modules it imports and whether
langgraph is among them. The state (a finished session, a failed workflow, a log file) is made first with the
commands a user runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LOG = """epoch 1 loss=0.52
Traceback (most recent call last):
  File "train.py", line 3, in <module>
    loss.backward()
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB
"""


def orchestrate() -> list[str]:
    exe = shutil.which("orchestrate", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "runshepherd.cli.main"]


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU (user + sys) seconds of one run of ``cmd``; a failing command stops the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {res.returncode}: {res.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def imports(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, bool]:
    """Modules imported by ``orchestrate ARGS`` and whether langgraph is one of them (`python -X importtime`)."""
    cmd = [sys.executable, "-X", "importtime", "-m", "runshepherd.cli.main", *args]
    res = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    names = [line.rsplit("|", 1)[1].strip() for line in res.stderr.splitlines() if line.startswith("import time:")]
    names = [n for n in names if n != "imported package"]  # the header line
    return len(names), any(n == "langgraph" or n.startswith("langgraph.") for n in names)


def prepare(tmp: Path, env: dict[str, str]) -> dict[str, list[str]]:
    """A completed session (`run --spec … --yes`), a failed workflow (`submit`) and a log file; the commands."""
    spec = (REPO / "examples" / "train-classifier.yaml").read_text()
    marker = '--output-dir, "{{output}}"]'
    quick = tmp / "quick.yaml"
    quick.write_text(spec.replace(marker, '--output-dir, "{{output}}", --step-delay, "0"]'))
    run = subprocess.run(
        [*orchestrate(), "run", "--spec", str(quick), "--yes", "--json"],
        env=env,
        cwd=tmp,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )
    done = json.loads(run.stdout.splitlines()[-1]) if run.stdout.strip() else {}
    if done.get("outcome") != "COMPLETED":
        raise SystemExit(f"setup run did not complete: {run.stdout[-500:]} {run.stderr[-500:]}")
    ok = done["workflow_ids"][0]
    sub = subprocess.run(
        [*orchestrate(), "submit", str(REPO / "examples" / "fail-oom.yaml"), "--json"],
        env=env,
        cwd=tmp,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    failed = json.loads(sub.stdout)["workflow_id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        st = subprocess.run(
            [*orchestrate(), "status", failed, "--json"], env=env, cwd=tmp, capture_output=True, text=True
        )
        if '"FAILED"' in st.stdout:
            break
        time.sleep(0.5)
    else:
        raise SystemExit(f"{failed} did not fail within 120 s")
    log = tmp / "train.log"
    log.write_text(LOG)
    return {
        "--help": ["--help"],
        "list": ["list"],
        "status": ["status", ok],
        "status --json": ["status", ok, "--json"],
        "logs": ["logs", failed],
        "explain": ["explain", failed],
        "diagnose WF": ["diagnose", failed],
        "diagnose --log": ["diagnose", "--log", str(log)],
        "sessions": ["sessions"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        env = {k: v for k, v in os.environ.items() if not k.startswith("RUNSHEPHERD_")}
        env.update(RUNSHEPHERD_STATE_DIR=str(tmp / "state"), HOME=str(tmp / "home"), RUNSHEPHERD_BACKEND="local")
        (tmp / "home").mkdir()
        commands = prepare(tmp, env)
        base_cmd = [sys.executable, "-c", "import runshepherd"]
        walls: dict[str, list[float]] = {name: [] for name in ["baseline", *commands]}
        cpus: dict[str, list[float]] = {name: [] for name in walls}
        load = os.getloadavg()[0]
        for _ in range(args.runs):
            for name in walls:
                cmd = base_cmd if name == "baseline" else [*orchestrate(), *commands[name]]
                wall, cpu = timed(cmd, env, tmp)
                walls[name].append(wall)
                cpus[name].append(cpu)
        counts = {name: imports(argv, env, tmp) for name, argv in commands.items()}
        load_after = os.getloadavg()[0]
    base = statistics.median(walls["baseline"])
    print(
        f"orchestrate read-only commands: {args.runs} interleaved runs each, load average {load:.1f} -> {load_after:.1f}"
    )
    print(f"{'command':<16} {'wall ms':>8} {'cpu ms':>7} {'ratio':>6} {'modules':>8} langgraph")
    for name in walls:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        modules, lg = counts.get(name, (0, False))
        extra = "" if name == "baseline" else f" {modules:>8} {'yes' if lg else 'no'}"
        print(f"{name:<16} {wall * 1000:8.0f} {cpu * 1000:7.0f} {wall / base:6.1f}{extra}")
    print('ratio = median wall time / median wall time of `python -c "import runshepherd"` (the baseline)')


if __name__ == "__main__":
    main()
