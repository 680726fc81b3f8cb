"""Hostile specs cost little: `orchestrate validate` on an alias bomb, deep nesting, nested template loops, a
repeated string, a 50 MB file and a 10,000-task spec, each against a valid spec validated in the same run.

Run: python benchmarks/bench_hostile_inputs.py
Prints JSON per input: exit code, wall seconds, peak RSS (MB) of the `orchestrate` process, and the ratio of its
time to the baseline's. The bar (issue 13): a 1 KB alias bomb exits 2 in under 2 s and under 200 MB RSS.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "unit" / "spec"))
from test_hostile_specs import TASK, alias_bomb  # noqa: E402


def inputs() -> dict[str, str]:
    many = "".join(f"    - name: t{i}\n      image: u\n      command: [echo]\n" for i in range(10_000))
    return {
        "baseline (valid)": TASK.format(arg='"hi"'),
        "alias bomb (1 KB)": alias_bomb(9),
        "deep nesting": TASK.format(arg="[" * 50_000 + "]" * 50_000),
        "nested range(100000) loops": TASK.format(
            arg='"{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}"'
        ),
        "'x' * 10**10": TASK.format(arg="\"{{ 'x' * 10000000000 }}\""),
        "50 MB spec": TASK.format(arg='"hi"') + "# " + "x" * 50_000_000 + "\n",
        "10,000 tasks": "workflow:\n  name: many\n  groups:\n  - name: g\n    tasks:\n" + many,
    }


def measure(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[int, float, float, str]:
    """One child at a time, so RUSAGE_CHILDREN's max RSS is this child's peak (it only grows: use a fresh process)."""
    probe = [
        sys.executable,
        "-c",
        "import resource,subprocess,sys,time;t=time.perf_counter();"
        "r=subprocess.run(sys.argv[1:],capture_output=True,text=True);"
        "print(r.returncode,time.perf_counter()-t,resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);"
        "print(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else '')",
        *cmd,
    ]
    out = subprocess.run(probe, env=env, cwd=cwd, capture_output=True, text=True, timeout=600).stdout.splitlines()
    code, secs, rss_kb = out[0].split()
    return int(code), float(secs), int(rss_kb) / 1024, out[1] if len(out) > 1 else ""


def main() -> None:
    exe = shutil.which("orchestrate", path=str(Path(sys.executable).parent)) or "orchestrate"
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        env = {**os.environ, "RUNSHEPHERD_STATE_DIR": str(root / "state"), "HOME": str(root)}
        base = None
        for name, text in inputs().items():
            path = root / "spec.yaml"
            path.write_text(text)
            code, secs, rss, last = measure([exe, "validate", str(path)], env, root)
            base = base or secs
            results.append(
                {
                    "input": name,
                    "bytes": len(text.encode()),
                    "exit": code,
                    "seconds": round(secs, 3),
                    "ratio_to_baseline": round(secs / base, 2),
                    "peak_rss_mb": round(rss, 1),
                    "message": last[:160],
                }
            )
    bomb = next(r for r in results if r["input"].startswith("alias bomb"))
    ok = bomb["exit"] == 2 and bomb["seconds"] < 2 and bomb["peak_rss_mb"] < 200
    print(json.dumps({"results": results, "alias_bomb_bar_met": ok}, indent=1))


if __name__ == "__main__":
    main()
