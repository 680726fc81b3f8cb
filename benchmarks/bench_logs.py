"""Log pipeline benchmark: scan speed against ``grep -c`` on the same file, peak RSS, digest tokens, root error.

Generated trainer logs (``runshepherd.logs.synthetic``) of 1 MB and 50 MB (``--big`` adds 1 GB), with the root
error placed early, in the middle and late, followed by misleading warnings. Each read runs in a child process
so its peak RSS (``VmHWM``, else ``ru_maxrss``) is its own; the baselines are timed in the same run:

- ``grep -c '' FILE`` — counting lines, the floor of any line-oriented tool;
- ``grep -c -i -F -f CUES FILE`` — GNU grep looking for the same cue phrases the scanner looks for.

Digest tokens (cl100k_base) are compared with what the seed would paste inline instead: the last 10,000 lines
(``osmo workflow logs -n 10000``) and a tail cut to 25,000 tokens; "root" says whether the root error line is
in each. Files are written to a temp dir and deleted.

Each file is read once per cue-scanner engine this machine has (``RUNSHEPHERD_LOG_SCANNER=numpy`` and, on x86
with the ``hyperscan`` package, ``=hyperscan``; ``auto`` picks hyperscan when it is there), one row each.

With ``--cli`` the product path is measured too: a job submitted to the local backend prints the log (root error
in the middle), then ``orchestrate logs WF --json`` and ``orchestrate diagnose WF --json`` run on it in child
processes (peak RSS from wait4), against ``grep -c ''`` on the same task log.

With ``--raw MB`` only the raw lines are measured: `orchestrate logs WF --raw [--json] --tail N` for N = 200 and
10**9 on a job's MB-megabyte log, peak RSS and seconds, against GNU `tail -n N` on the same file in the same run.

    python benchmarks/bench_logs.py [--big] [--sizes 1 50] [--plain] [--scanners numpy hyperscan] [--cli [MB ...]]
With ``--one-line MB`` a job prints ONE line of MB megabytes with the root error at its start: ``orchestrate logs
WF --raw`` (the line cut at ``RAW_LINE_BYTES``: bytes out, seconds, peak RSS) and ``orchestrate diagnose --log`` of
the same line saved to a file (its verdict must name the error), against GNU ``wc -l`` reading the whole task log.

With ``--retry-lines MB`` a log file of MB megabytes holds its root error (a missing module) in its first lines and
then nothing but a client's distinct retry warnings: ``orchestrate diagnose --log`` of it (seconds, peak RSS, the
verdict) against a Python loop that searches each of the same file's lines with one regex, in the same run. Every warning is a candidate the recovery
checks look past, which once cost a regex pass over the tail per candidate.

With ``--error-lines N`` a log holds N training steps, each followed by a side channel's error record (a tracker's
``wandb: ERROR … 404`` while the run goes on): ``orchestrate diagnose --log`` of it and of the same shape with 4N,
start-up (a 3-line log) taken off both. Every error line is a candidate the recovery checks look past; a check that
rescans the rest of the log per candidate makes the time grow with the square of N (2,000 lines took 2.5 minutes).
The bar: 4N costs at most 6x N (linear is 4x, quadratic 16x).

    python benchmarks/bench_logs.py --raw 100
    python benchmarks/bench_logs.py --one-line 50
    python benchmarks/bench_logs.py --retry-lines 100
    python benchmarks/bench_logs.py --error-lines 2000
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

from pydantic import BaseModel

from runshepherd.logs import count_tokens
from runshepherd.logs.scan import CUE_PHRASES
from runshepherd.logs.scanners import ENV_VAR, available_kinds
from runshepherd.logs.synthetic import ROOT_ERROR, Where, write_log

SEED_TAIL_LINES = 10_000
TAIL_CUT_TOKENS = 25_000

# The child reads one file and reports; it imports the pipeline and builds the cue scanner (done once per
# process) before the RSS baseline is taken and the clock starts. numpy is part of those imports: the pipeline
# imports it lazily, on its first count of a big range (filescan.count_newlines), which would put a one-off
# import (30-40 ms on a 2-core test machine) inside a throughput figure.
_CHILD = """
import json, resource, sys, time
import numpy
from runshepherd.logs import LogConfig, digest_to_markdown, read_log_file
from runshepherd.logs.scanners import scanner_for

def peak_kb():
    # VmHWM is this image's own peak; ru_maxrss would carry the parent's peak over fork + exec on Linux.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

path, fast = sys.argv[1], sys.argv[2] == "1"
config = LogConfig(max_seconds=None, fast_scan=fast)
scanner = scanner_for(config.cue_scanner).name if fast else "-"  # built once per process, like the imports
rss_imports = peak_kb()
started = time.perf_counter()
digest = read_log_file(path, config=config)
seconds = time.perf_counter() - started
print(json.dumps({
    "seconds": seconds,
    "rss_imports_kb": rss_imports,
    "rss_peak_kb": peak_kb(),
    "markdown": digest_to_markdown([digest]),
    "root_error": digest.root_error,
    "lines": digest.lines_read,
    "lines_skimmed": digest.lines_skimmed,
    "scanner": scanner,
}))
"""


class Row(BaseModel):
    size_mb: float
    where: str
    scanner: str
    grep_count_s: float
    grep_cues_s: float | None
    read_s: float
    rss_imports_mb: float
    rss_peak_mb: float
    digest_tokens: int
    tail_lines_tokens: int
    cut_tokens: int
    root_in_digest: bool
    root_in_tail_lines: bool
    root_in_cut: bool
    lines: int
    lines_parsed: int

    @property
    def mb_per_s(self) -> float:
        return self.size_mb / self.read_s


def best_of(cmd: list[str], repeat: int = 3) -> float:
    """Wall time of the fastest of ``repeat`` runs (the file is in the page cache after the first)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        # A pipe, not /dev/null: GNU grep stops at the first match when it sees its output is /dev/null.
        subprocess.run(cmd, check=False, stdout=subprocess.PIPE)
        best = min(best, time.perf_counter() - started)
    return best


def read_in_child(path: Path, fast: bool, scanner: str, repeat: int) -> dict[str, object]:
    """Run the read in a fresh interpreter ``repeat`` times; keep the fastest (RSS is the same each time)."""
    best: dict[str, object] | None = None
    env = {**os.environ, ENV_VAR: scanner}
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(path), "1" if fast else "0"],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        )
        result = json.loads(done.stdout)
        if best is None or result["seconds"] < best["seconds"]:  # type: ignore[operator]
            best = result
    assert best is not None
    return best


def tail_lines(path: Path, n: int) -> str:
    """The last ``n`` lines, read from the end (what ``logs -n N`` would have put in the conversation)."""
    with open(path, "rb") as f:
        f.seek(0, 2)
        size = f.tell()
        block = min(size, n * 400)
        while True:
            f.seek(size - block)
            data = f.read(block)
            if data.count(b"\n") > n or block == size:
                break
            block = min(size, block * 2)
    kept: deque[bytes] = deque(data.splitlines(keepends=True), maxlen=n)
    return b"".join(kept).decode("utf-8", "replace")


def tail_cut(text: str, tokens: int) -> str:
    """The end of ``text`` holding at most ``tokens`` tokens (a budget cut on a pasted tail)."""
    from runshepherd.logs.tokens import _encoding

    encoding = _encoding()
    ids = encoding.encode(text[-tokens * 8 :], disallowed_special=())
    return encoding.decode(ids[-tokens:])


def measure(path: Path, where: str, cues: Path | None, fast: bool, scanners: list[str], repeat: int) -> list[Row]:
    """One row per scanner engine; the grep baselines and the tail comparisons are shared by the rows."""
    grep_count = best_of(["grep", "-c", "", str(path)], repeat)
    grep_cues = best_of(["grep", "-c", "-i", "-F", "-f", str(cues), str(path)], repeat) if cues else None
    tail = tail_lines(path, SEED_TAIL_LINES)
    cut = tail_cut(tail, TAIL_CUT_TOKENS)
    rows = []
    for scanner in scanners:
        child = read_in_child(path, fast, scanner, repeat)
        rows.append(_row(path, where, child, grep_count, grep_cues, tail, cut))
    return rows


def _row(
    path: Path, where: str, child: dict[str, object], grep_count: float, grep_cues: float | None, tail: str, cut: str
) -> Row:
    markdown = str(child["markdown"])
    return Row(
        size_mb=path.stat().st_size / 1e6,
        where=where,
        scanner=str(child["scanner"]),
        grep_count_s=grep_count,
        grep_cues_s=grep_cues,
        read_s=float(child["seconds"]),  # type: ignore[arg-type]
        rss_imports_mb=int(child["rss_imports_kb"]) / 1024,  # type: ignore[call-overload]
        rss_peak_mb=int(child["rss_peak_kb"]) / 1024,  # type: ignore[call-overload]
        digest_tokens=count_tokens(markdown),
        tail_lines_tokens=count_tokens(tail),
        cut_tokens=count_tokens(cut),
        root_in_digest=ROOT_ERROR in markdown,
        root_in_tail_lines=ROOT_ERROR in tail,
        root_in_cut=ROOT_ERROR in cut,
        lines=int(child["lines"]),  # type: ignore[call-overload]
        lines_parsed=int(child["lines"]) - int(child["lines_skimmed"]),  # type: ignore[call-overload]
    )


def print_table(rows: list[Row], label: str) -> None:
    print(f"\n{label}")
    print(
        f"{'size MB':>8} {'root':>6} {'scanner':>9} {'read s':>7} {'MB/s':>7} {'grep-c s':>8} {'ratio':>6} "
        f"{'grepF s':>8} {'ratio':>6} {'RSS MB':>11} {'parsed':>14} {'tokens digest/10k lines/25k cut':>33} {'root kept d/t/c':>16}"
    )
    for r in rows:
        ratio_count = r.grep_count_s / r.read_s
        grep_f = f"{r.grep_cues_s:8.3f}" if r.grep_cues_s is not None else f"{'-':>8}"
        ratio_f = f"{r.grep_cues_s / r.read_s:6.2f}" if r.grep_cues_s is not None else f"{'-':>6}"
        kept = "/".join("yes" if k else "no" for k in (r.root_in_digest, r.root_in_tail_lines, r.root_in_cut))
        tokens = f"{r.digest_tokens}/{r.tail_lines_tokens}/{r.cut_tokens}"
        print(
            f"{r.size_mb:8.1f} {r.where:>6} {r.scanner:>9} {r.read_s:7.3f} {r.mb_per_s:7.0f} {r.grep_count_s:8.3f} "
            f"{ratio_count:6.3f} {grep_f} {ratio_f} {r.rss_peak_mb:5.0f} ({r.rss_imports_mb:3.0f}) {r.lines_parsed:>6}/{r.lines:<7} "
            f"{tokens:>33} {kept:>16}"
        )


def print_bar(rows: list[Row], label: str) -> None:
    """The issue's bar, criterion by criterion, with the measured extremes."""
    tokens = [r.digest_tokens for r in rows]
    ratios = [r.grep_count_s / r.read_s for r in rows if r.size_mb >= 10]
    big = [r for r in rows if r.size_mb >= 1000]
    rss = max((r.rss_peak_mb for r in big), default=max(r.rss_peak_mb for r in rows))
    checks = [
        (
            "digest tokens <= 1500 and flat across sizes",
            max(tokens) <= 1500 and max(tokens) - min(tokens) <= 50,
            f"{min(tokens)}..{max(tokens)}",
        ),
        (
            "root error line kept in every digest",
            all(r.root_in_digest for r in rows),
            f"{sum(r.root_in_digest for r in rows)}/{len(rows)}",
        ),
        (f"peak RSS < 100 MB ({'1 GB' if big else 'largest'} logs)", rss < 100, f"{rss:.0f} MB"),
        (
            "throughput >= 0.3x grep -c '' (logs >= 10 MB)",
            bool(ratios) and min(ratios) >= 0.3,
            f"{min(ratios):.3f}..{max(ratios):.3f}" if ratios else "no log >= 10 MB",
        ),
    ]
    print(f"\nBar ({label})")
    for name, ok, value in checks:
        print(f"  {'PASS' if ok else 'MISS'}  {name}: {value}")


# ------------------------------------------------------------------------------------------ through the CLI
class CliRow(BaseModel):
    size_mb: float
    command: str
    seconds: float
    grep_count_s: float
    rss_peak_mb: float
    tokens: int
    root_kept: bool


def _orchestrate() -> list[str]:
    exe = shutil.which("orchestrate", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "runshepherd.cli.main"]


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[str, float, float]:
    """stdout, wall seconds and the child's own peak RSS (MB, from wait4's rusage)."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {proc.returncode}")
    return out.decode(), seconds, usage.ru_maxrss / 1024


def _submit_buried(size_mb: float, tmp: Path) -> tuple[dict[str, str], str, Path]:
    """Submit a job that prints ``size_mb`` of log with the root error in the middle (local backend, the real
    task log) and wait for its end: the environment, the workflow id and the task's log file."""
    from runshepherd.logs.synthetic import buried_error_spec

    env = {k: v for k, v in os.environ.items() if not k.startswith("RUNSHEPHERD_")}
    env.update(RUNSHEPHERD_STATE_DIR=str(tmp / f"state-{size_mb:g}"), RUNSHEPHERD_BACKEND="local")
    spec = tmp / f"buried-{size_mb:g}.yaml"
    spec.write_text(buried_error_spec(size_mb))
    orch = _orchestrate()
    sub = subprocess.run([*orch, "submit", str(spec), "--json"], env=env, capture_output=True, text=True, check=True)
    wid = json.loads(sub.stdout)["workflow_id"]
    deadline = time.monotonic() + 3600
    while time.monotonic() < deadline:
        listed = subprocess.run([*orch, "list", "--json"], env=env, capture_output=True, text=True, check=True)
        row = next(w for w in json.loads(listed.stdout)["workflows"] if w["workflow_id"] == wid)
        if row["status"] not in ("PENDING", "RUNNING", "WAITING"):
            break
        time.sleep(2)
    return env, wid, next(Path(env["RUNSHEPHERD_STATE_DIR"]).rglob("tasks/train/log"))


def measure_cli(size_mb: float, tmp: Path) -> list[CliRow]:
    """`orchestrate logs WF --json` and `orchestrate diagnose WF --json` on a job's ``size_mb`` log."""
    from runshepherd.logs.synthetic import BURIED_ERROR

    env, wid, log = _submit_buried(size_mb, tmp)
    orch = _orchestrate()
    grep = best_of(["grep", "-c", "", str(log)], 3)
    rows = []
    for command in ("logs", "diagnose"):
        _timed([*orch, command, wid, "--json"], env)  # warm the page cache like grep's best-of
        out, seconds, rss = _timed([*orch, command, wid, "--json"], env)
        rows.append(
            CliRow(
                size_mb=log.stat().st_size / 1e6,
                command=f"{command} --json",
                seconds=seconds,
                grep_count_s=grep,
                rss_peak_mb=rss,
                tokens=count_tokens(out),
                root_kept=BURIED_ERROR in out,
            )
        )
    shutil.rmtree(tmp / f"state-{size_mb:g}", ignore_errors=True)
    return rows


def print_cli(rows: list[CliRow]) -> None:
    print("\nthrough the CLI (local backend, the task's real log; root error in the middle, warnings after it)")
    print(
        f"{'size MB':>8} {'command':>16} {'seconds':>8} {'grep-c s':>8} {'ratio':>6} {'RSS MB':>7} {'tokens':>7} root"
    )
    for r in rows:
        print(
            f"{r.size_mb:8.1f} {r.command:>16} {r.seconds:8.2f} {r.grep_count_s:8.3f} {r.grep_count_s / r.seconds:6.3f} "
            f"{r.rss_peak_mb:7.0f} {r.tokens:7d} {'kept' if r.root_kept else 'LOST'}"
        )
    bar = [r for r in rows if 100 <= r.size_mb < 500]
    if not bar:
        print("  (no 100 MB row: the bar is not checked)")
        return
    ok = all(r.root_kept and r.tokens <= 1500 and r.rss_peak_mb <= 150 for r in bar)
    print(f"  {'PASS' if ok else 'MISS'}  100 MB bar: root kept, <= 1500 tokens, peak RSS <= 150 MB")


# ------------------------------------------------------------------------------------ raw lines, any tail
class RawRow(BaseModel):
    command: str
    tail: int
    seconds: float
    rss_peak_mb: float
    out_mb: float


def _timed_bytes(cmd: list[str], env: dict[str, str], tmp: Path) -> tuple[int, float, float]:
    """Bytes written to stdout (counted, not kept), wall seconds and the command's own peak RSS in MB.

    The RSS comes from GNU time (``%M``) when it is installed: a child forked from this interpreter reports the
    interpreter's pages in its wait4 ``ru_maxrss`` (about 50 MB here), which would hide a small command's own."""
    gnu_time = Path("/usr/bin/time")
    rss_file = tmp / "rss"
    wrapped = [str(gnu_time), "-f", "%M", "-o", str(rss_file), *cmd] if gnu_time.is_file() else cmd
    started = time.perf_counter()
    proc = subprocess.Popen(wrapped, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    size = 0
    while chunk := proc.stdout.read(1 << 20):
        size += len(chunk)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {os.waitstatus_to_exitcode(status)}")
    kb = int(rss_file.read_text().split()[-1]) if gnu_time.is_file() else usage.ru_maxrss
    return size, seconds, kb / 1024


def measure_raw(size_mb: float, tmp: Path, tails: list[int]) -> list[RawRow]:
    """`orchestrate logs WF --raw [--json] --tail N` on a job's ``size_mb`` log, and GNU `tail -n N` on the same
    file as the baseline of the same run (it streams: its memory does not grow with N)."""
    env, wid, log = _submit_buried(size_mb, tmp)
    orch = _orchestrate()
    rows = []
    for tail in tails:
        for name, cmd in (
            ("tail -n", ["tail", "-n", str(tail), str(log)]),
            ("logs --raw", [*orch, "logs", wid, "--raw", "--tail", str(tail)]),
            ("logs --raw --json", [*orch, "logs", wid, "--raw", "--json", "--tail", str(tail)]),
        ):
            _timed_bytes(cmd, env, tmp)  # warm the page cache
            size, seconds, rss = _timed_bytes(cmd, env, tmp)
            rows.append(RawRow(command=name, tail=tail, seconds=seconds, rss_peak_mb=rss, out_mb=size / 1e6))
    log_mb = log.stat().st_size / 1e6
    shutil.rmtree(tmp / f"state-{size_mb:g}", ignore_errors=True)
    print(f"\nraw lines through the CLI (local backend, a {log_mb:.0f} MB task log)")
    print(f"{'command':>18} {'tail':>11} {'seconds':>8} {'RSS MB':>7} {'out MB':>7} {'RSS / tail -n 200 run':>22}")
    for r in rows:
        small = next(x for x in rows if x.command == r.command and x.tail == min(tails))
        print(
            f"{r.command:>18} {r.tail:>11} {r.seconds:8.2f} {r.rss_peak_mb:7.0f} {r.out_mb:7.1f} "
            f"{r.rss_peak_mb / small.rss_peak_mb:22.2f}"
        )
    big = [r for r in rows if r.tail == max(tails) and r.command != "tail -n"]
    ok = all(
        r.rss_peak_mb <= 1.5 * next(x for x in rows if x.command == r.command and x.tail == min(tails)).rss_peak_mb
        for r in big
    )
    print(
        f"  {'PASS' if ok else 'MISS'}  peak RSS with the largest tail <= 1.5x the same command's with --tail {min(tails)}"
    )
    return rows


# ------------------------------------------------------------------------------- one enormous line
ONE_LINE_ERROR = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def measure_one_line(size_mb: float, tmp: Path) -> bool:
    """`logs WF --raw` of a task whose log is one ``size_mb`` line, and `diagnose --log` of that line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUNSHEPHERD_")}
    env.update(RUNSHEPHERD_STATE_DIR=str(tmp / "state"), RUNSHEPHERD_BACKEND="local", HOME=str(tmp))
    n = int(size_mb * 1e6)
    spec = tmp / "one-line.yaml"
    code = f"import sys; sys.stdout.write({ONE_LINE_ERROR!r} + ' ' + 'x' * {n} + chr(10))"
    spec.write_text(
        "workflow:\n  name: one-line\n  resources:\n    default: {cpu: 1, memory: 512Mi}\n  tasks:\n"
        f"  - name: t\n    image: python:3.11-slim\n    command: [python3, -c]\n    args: [{json.dumps(code)}]\n"
    )
    orch = _orchestrate()
    sub = subprocess.run([*orch, "submit", str(spec), "--json"], env=env, capture_output=True, text=True, check=True)
    wid = json.loads(sub.stdout)["workflow_id"]
    log = tmp / "state" / "workflows" / wid / "tasks" / "t" / "log"
    for _ in range(600):
        listed = subprocess.run([*orch, "list", "--json"], env=env, capture_output=True, text=True, check=True)
        if next(w for w in json.loads(listed.stdout)["workflows"] if w["workflow_id"] == wid)["status"] in (
            "COMPLETED",
            "FAILED",
        ):
            break
        time.sleep(1)
    one = tmp / "one.log"
    one.write_bytes(max(log.read_bytes().split(b"\n"), key=len) + b"\n")
    print(f"\none enormous line ({one.stat().st_size / 1e6:.0f} MB, the root error at its start)")
    print(f"{'command':>22} {'seconds':>8} {'RSS MB':>7} {'out MB':>8}")
    rows = {}
    for name, cmd in (
        ("wc -l", ["wc", "-l", str(log)]),
        ("logs --raw", [*orch, "logs", wid, "--raw"]),
        ("diagnose --log", [*orch, "diagnose", "--log", str(one), "--json"]),
    ):
        _timed_bytes(cmd, env, tmp)  # warm the page cache
        size, seconds, rss = _timed_bytes(cmd, env, tmp)
        rows[name] = (size, seconds, rss)
        print(f"{name:>22} {seconds:8.2f} {rss:7.0f} {size / 1e6:8.3f}")
    verdict = json.loads(
        subprocess.run(
            [*orch, "diagnose", "--log", str(one), "--json"], env=env, capture_output=True, text=True, check=True
        ).stdout
    )
    from runshepherd.backends.files.logfiles import RAW_LINE_BYTES

    ok = (
        verdict.get("label") == "gpu_oom"
        and rows["logs --raw"][0] < RAW_LINE_BYTES + 4096  # the lines of the task log: the cut one and a few short
        and rows["logs --raw"][2] <= 150
        and rows["diagnose --log"][2] <= 150
    )
    print(f"  verdict: {verdict.get('label')}")
    print(
        f"  {'PASS' if ok else 'MISS'}  the raw line cut at {RAW_LINE_BYTES:,} bytes, the verdict names gpu_oom, "
        "each under 150 MB peak RSS"
    )
    return ok


RETRY_ROOT = 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n    import foo\n' + (
    "ModuleNotFoundError: No module named 'foo'\n"
)


def measure_retry_lines(size_mb: float, tmp: Path) -> bool:
    """`diagnose --log` of a ``size_mb`` log whose root error is at its start and whose rest is retry warnings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUNSHEPHERD_")}
    env.update(RUNSHEPHERD_STATE_DIR=str(tmp / "state"), HOME=str(tmp))
    log = tmp / "retry.log"
    with log.open("w") as f:
        f.write(RETRY_ROOT)
        i = 0
        while f.tell() < size_mb * 1e6:
            f.write(
                f"2024-01-01 10:00:{i % 60:02d} WARNING Retrying (Retry(total=4, connect=None, read=None)) after "
                f"connection broken by 'NewConnectionError' attempt {i}\n"
            )
            i += 1
    orch = _orchestrate()
    # the floor of any reader that looks at every line once: decode it and search it with one regex
    loop = [
        sys.executable,
        "-c",
        f"import re; r = re.compile(r'(?i)error|traceback'); "
        f"n = sum(1 for ln in open({str(log)!r}, encoding='utf-8', errors='replace') if r.search(ln))",
    ]
    print(f"\nretry lines ({log.stat().st_size / 1e6:.0f} MB, the root error in the first lines)")
    print(f"{'command':>22} {'seconds':>8} {'RSS MB':>7}")
    rows = {}
    for name, cmd in (
        ("one regex per line", loop),
        ("diagnose --log", [*orch, "diagnose", "--log", str(log), "--json"]),
    ):
        out, seconds, rss = _timed(cmd, env)
        rows[name] = (out, seconds, rss)
        print(f"{name:>22} {seconds:8.2f} {rss:7.0f}")
    verdict = json.loads(rows["diagnose --log"][0])
    ratio = rows["diagnose --log"][1] / max(rows["one regex per line"][1], 1e-3)
    ok = verdict.get("label") == "missing_dependency" and ratio <= 10 and rows["diagnose --log"][2] <= 300
    print(f"  verdict: {verdict.get('label')}; diagnose / one regex per line = {ratio:.1f}x")
    print(
        f"  {'PASS' if ok else 'MISS'}  the verdict names missing_dependency, within 10x one regex per line, under 300 MB"
    )
    return ok


def _error_lines_log(path: Path, n: int) -> Path:
    with path.open("w") as f:
        for i in range(n):
            f.write(f"epoch 1 step {i} loss 0.{i % 9}\n")
            f.write(f"wandb: ERROR Error while calling W&B API: run not found (<Response [404]>) {i}\n")
    return path


def measure_error_lines(n: int, tmp: Path) -> bool:
    """`diagnose --log` of N and of 4N (step, error record) pairs, start-up taken off: the growth must be linear."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUNSHEPHERD_")}
    env.update(RUNSHEPHERD_STATE_DIR=str(tmp / "state"), HOME=str(tmp))
    orch = _orchestrate()
    tiny = tmp / "tiny.log"
    tiny.write_text("epoch 1 step 1 loss 0.5\nepoch 1 step 2 loss 0.4\nepoch 1 step 3 loss 0.3\n")
    print(
        f"\nerror lines (a side channel's error record after each of N steps)\n{'log':>22} {'seconds':>8} {'RSS MB':>7}"
    )
    rows: dict[str, tuple[str, float, float]] = {}
    for name, path in (
        ("3 lines (start-up)", tiny),
        (f"N = {n}", _error_lines_log(tmp / "n.log", n)),
        (f"4N = {4 * n}", _error_lines_log(tmp / "4n.log", 4 * n)),
    ):
        rows[name] = _timed([*orch, "diagnose", "--log", str(path), "--json"], env)
        print(f"{name:>22} {rows[name][1]:8.2f} {rows[name][2]:7.0f}")
    start = rows["3 lines (start-up)"][1]
    one, four = (max(rows[k][1] - start, 1e-3) for k in (f"N = {n}", f"4N = {4 * n}"))
    ratio = four / one
    ok = ratio <= 6 and rows[f"4N = {4 * n}"][2] <= 300
    print(f"  4N / N (start-up taken off) = {ratio:.1f}x (linear 4x, quadratic 16x)")
    print(f"  {'PASS' if ok else 'MISS'}  4N costs at most 6x N, under 300 MB")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--big", action="store_true", help="add the 1 GB logs (a few minutes to generate)")
    parser.add_argument("--sizes", type=float, nargs="+", default=[1.0, 50.0], help="log sizes in MB")
    parser.add_argument("--plain", action="store_true", help="also time the line-by-line reader (slow)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--scanners",
        nargs="+",
        choices=["numpy", "hyperscan"],
        default=available_kinds(),
        help="cue-scanner engines to time, one row each (default: every engine this machine has)",
    )
    parser.add_argument(
        "--cli",
        type=float,
        nargs="*",
        default=None,
        help="also measure `orchestrate logs/diagnose WF --json` on logs of these sizes in MB (default 100, +1024 with --big)",
    )
    parser.add_argument(
        "--raw",
        type=float,
        default=None,
        metavar="MB",
        help="only measure `orchestrate logs --raw [--json] --tail N` (N = 200 and 10**9) on a log of MB megabytes",
    )
    parser.add_argument(
        "--one-line",
        type=float,
        default=None,
        metavar="MB",
        help="only measure `logs --raw` and `diagnose --log` of ONE line of MB megabytes (root error at its start)",
    )
    parser.add_argument(
        "--retry-lines",
        type=float,
        default=None,
        metavar="MB",
        help="only measure `diagnose --log` of an MB-megabyte log: root error first, then retry warnings",
    )
    parser.add_argument(
        "--error-lines",
        type=int,
        default=None,
        metavar="N",
        help="only measure `diagnose --log` of N and 4N (step, side-channel error) pairs: its growth must be linear",
    )
    args = parser.parse_args()
    if args.error_lines is not None:
        with tempfile.TemporaryDirectory(prefix="bench-logs-errors-") as tmp:
            return 0 if measure_error_lines(args.error_lines, Path(tmp)) else 1
    if args.retry_lines is not None:
        with tempfile.TemporaryDirectory(prefix="bench-logs-retry-") as tmp:
            return 0 if measure_retry_lines(args.retry_lines, Path(tmp)) else 1
    if args.one_line is not None:
        with tempfile.TemporaryDirectory(prefix="bench-logs-one-line-") as tmp:
            return 0 if measure_one_line(args.one_line, Path(tmp)) else 1
    if args.raw is not None:
        with tempfile.TemporaryDirectory(prefix="bench-logs-raw-") as tmp:
            measure_raw(args.raw, Path(tmp), [200, 10**9])
        return 0
    sizes = [*args.sizes, *([1024.0] if args.big else [])]
    wheres: list[Where] = ["early", "middle", "late"]
    if shutil.which("grep") is None:
        print("grep is not installed: no baseline", file=sys.stderr)
        return 2

    rows: list[Row] = []
    plain: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-logs-") as tmp:
        cues = Path(tmp) / "cues.txt"
        cues.write_text("\n".join(p.strip("\n") for p in CUE_PHRASES) + "\n")
        for size in sizes:
            for where in wheres:
                path = Path(tmp) / f"{size:g}mb-{where}.log"
                write_log(path, size, error_at=where)
                repeat = args.repeat if size < 500 else 1
                rows.extend(measure(path, where, cues, fast=True, scanners=args.scanners, repeat=repeat))
                if args.plain and size <= 50:
                    plain.extend(measure(path, where, None, fast=False, scanners=["auto"], repeat=1))
                path.unlink()
    print_table(rows, "read_log_file (cue scan of big files); ratio = grep time / read time (higher is better)")
    if plain:
        print_table(plain, "read_log_file, line-by-line (fast_scan=False)")
    if args.cli is not None:
        cli_sizes = args.cli or [100.0, *([1024.0] if args.big else [])]
        cli_rows: list[CliRow] = []
        with tempfile.TemporaryDirectory(prefix="bench-logs-cli-") as tmp:
            for size in cli_sizes:
                cli_rows.extend(measure_cli(size, Path(tmp)))
        print_cli(cli_rows)
    for scanner in args.scanners:
        print_bar([r for r in rows if r.scanner == scanner], f"cue scanner: {scanner}")
    print(
        "\nRSS MB = peak of the reading child (after imports in parentheses). parsed = lines through the full "
        "pipeline / all lines. grepF = grep -c -i -F -f <the scanner's cue phrases>. scanner = cue-scan engine (auto picks hyperscan if installed). tokens: the digest vs the "
        "last 10,000 lines vs a 25k-token tail cut; root kept in digest / 10k lines / 25k cut."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
