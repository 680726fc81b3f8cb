"""The commands that only read (a workflow's records, its logs, a log file) never import LangGraph.

LangGraph and the session graph (langchain_core, langsmith, every node) cost ~0.7 s of CPU per process, paid by a
person on every `orchestrate status` and by the suite on every such call. `status`, `list`, `logs`, `explain`,
`diagnose` and `diagnose --log` read no session, so they must not pay it; `sessions` pays it only where there are
sessions to read (through the graph's own checkpointer reader). benchmarks/bench_cli_startup.py prints the times.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from runshepherd.backends.base import Status
from runshepherd.backends.local import LocalBackend
from runshepherd.spec.loader import load_spec_text

OK_SPEC = """
workflow:
  name: fine
  tasks:
  - name: main
    image: ubuntu
    command: [sh, -c, "echo epoch 1 loss=0.5"]
"""
FAIL_SPEC = """
workflow:
  name: broke
  tasks:
  - name: main
    image: ubuntu
    command: [sh, -c, "echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB' >&2; exit 1"]
"""
HEAVY = ("langgraph", "langchain_core", "runshepherd.graph.builder")
# what `list` has no use for and once loaded anyway (~40 ms CPU): the notify channels and the redaction rules (for
# the empty defaults of the config's validators), the spec model and the admission ledger (local backend imports)
NOT_FOR_LIST = (
    "runshepherd.notify.channels",
    "runshepherd.logs.redact",
    "runshepherd.spec.model",
    "runshepherd.backends.local.admission",
)

# Runs each command in one process, in turn, and records which heavy modules each one loaded first.
DRIVER = """
import contextlib, io, json, sys
from runshepherd.cli.main import main
heavy = {heavy!r}
not_for_list = {not_for_list!r}
seen, out = set(), {{}}
for argv in json.loads(sys.argv[1]):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    loaded = {{m for m in sys.modules if m.split(".")[0] in heavy or m in heavy}} - seen
    seen |= loaded
    out[" ".join(argv)] = {{"code": code, "heavy": sorted(loaded), "stdout": buf.getvalue()}}
    if argv == ["list"]:  # run first after --help: sys.modules is what these two loaded
        out["list"]["unused"] = sorted(m for m in not_for_list if m in sys.modules)
print(json.dumps(out))
"""


def _finished(backend: LocalBackend, text: str) -> str:
    wid = backend.submit(load_spec_text(text, source="t.yaml")).workflow_id
    for _ in range(300):
        if backend.query(wid).status.terminal():
            return wid
        backend.wait_for_change(wid, 0.2)
    raise AssertionError(f"{wid} did not finish")


def test_status_list_logs_explain_diagnose_and_sessions_do_not_import_langgraph(tmp_path: Path) -> None:
    backend = LocalBackend(tmp_path / "state")
    ok, failed = _finished(backend, OK_SPEC), _finished(backend, FAIL_SPEC)
    assert backend.query(ok).status == Status.COMPLETED and backend.query(failed).status == Status.FAILED
    log = tmp_path / "train.log"
    log.write_text("epoch 1 loss=0.5\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    commands = [
        ["--help"],
        ["list"],
        ["status", ok],
        ["status", failed, "--json"],
        ["logs", failed],
        ["explain", failed],
        ["diagnose", failed],
        ["diagnose", "--log", str(log)],
        ["sessions"],  # no session store yet: nothing to read
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUNSHEPHERD_")}
    env.update(RUNSHEPHERD_STATE_DIR=str(tmp_path / "state"), HOME=str(tmp_path), RUNSHEPHERD_BACKEND="local")
    res = subprocess.run(
        [sys.executable, "-c", DRIVER.format(heavy=HEAVY, not_for_list=NOT_FOR_LIST), json.dumps(commands)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    runs = json.loads(res.stdout.splitlines()[-1])
    # each command did its work (so "imported nothing heavy" is not "failed early")
    assert {cmd: r["code"] for cmd, r in runs.items()} == {" ".join(c): 0 for c in commands}
    assert ok in runs["list"]["stdout"] and failed in runs["list"]["stdout"]
    assert "COMPLETED" in runs[f"status {ok}"]["stdout"]
    assert json.loads(runs[f"status {failed} --json"]["stdout"])["status"] == "FAILED"
    assert "gpu_oom" in runs[f"diagnose --log {log}"]["stdout"]
    assert "no sessions yet" in runs["sessions"]["stdout"]
    assert {cmd: r["heavy"] for cmd, r in runs.items()} == {" ".join(c): [] for c in commands}
    assert runs["list"]["unused"] == []
