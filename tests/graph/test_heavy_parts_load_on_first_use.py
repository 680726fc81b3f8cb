"""The diagnosis rules (hundreds of regexes compiled at import) and the log reader (numpy, the cue scanner) load
when something is diagnosed or a log is read, not when the session graph is built: `run`, `resume`, `sessions` and
`status SWEEP` build it in every CLI process, most of which never diagnose or read a log."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_HEAVY = ("runshepherd.diagnosis.rules", "runshepherd.logs.reader", "numpy", "langgraph.checkpoint.postgres")
_LOADED = f"print(*(m in sys.modules for m in {_HEAVY!r}))\n"


def test_building_the_session_graph_leaves_the_rules_and_the_log_reader_unloaded_until_used(tmp_path: Path) -> None:
    """Sessions on SQLite never load the PostgreSQL saver (psycopg) either, listing or pruning them."""
    code = (
        "import sys\n"
        "from runshepherd.graph.builder import compile_graph\n"
        "from runshepherd.graph.checkpoint import open_saver, prune_saver, thread_ids\n"
        f"with open_saver({str(tmp_path)!r}, None) as saver:\n"
        "    compile_graph(saver)\n"
        "    thread_ids(saver), prune_saver(saver, 'nobody')\n"
        "from runshepherd.diagnosis import ResourceRequest, DiagnosisInput\n"  # models and pending stay light
        f"{_LOADED}"
        "from runshepherd.diagnosis import diagnose_log_text\n"
        "print(diagnose_log_text('RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB').label)\n"
        "from runshepherd.logs import read_log\n"
        "print(read_log(['epoch 1 loss=0.5'], task='t').lines_read)\n"
        f"{_LOADED}"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    # numpy is the cue scanner only where Hyperscan cannot be imported; a short log never needs it otherwise (status,
    # logs and diagnose read logs in every CLI process: numpy was ~60 ms of each)
    from runshepherd.logs.scanners import HYPERSCAN_MISSING

    used = f"True True {HYPERSCAN_MISSING is not None} False"
    assert res.stdout.split("\n")[:4] == ["False False False False", "gpu_oom", "1", used], res.stdout


def test_listing_and_canceling_sessions_read_them_without_building_the_graph(tmp_path: Path) -> None:
    """`sessions`, and `cancel` of a session waiting at its question, read each session's checkpoint without the
    session graph (langgraph.graph, langchain_core's tracers: ~2 s of CPU per process); they said the same before."""
    import json
    import os

    from graph_helpers import Session, make_deps

    from runshepherd.backends.local import LocalBackend
    from runshepherd.graph.checkpoint import open_saver

    spec = tmp_path / "hello.yaml"
    spec.write_text(
        "workflow:\n  name: hello\n  resources:\n    default: {cpu: 1, memory: 256Mi}\n  tasks:\n  - name: hello\n"
        "    image: ubuntu:24.04\n    command: [bash, -c]\n    args: [echo hi]\n"
    )
    backend = LocalBackend(tmp_path / "state")
    with open_saver(tmp_path / "state") as saver:
        for sid, answer in (("said-no", "no"), ("asks", None)):
            s = Session(saver, make_deps(backend, tmp_path, session_id=sid), thread=sid)
            s.run(
                {"request": "hello", "spec_path": str(spec)},
                answers={"submit": answer or "yes"},
                stop_at_question=not answer,
            )
    env = {**os.environ, "RUNSHEPHERD_STATE_DIR": str(tmp_path / "state"), "HOME": str(tmp_path / "home")}
    graph = ("langgraph.graph", "runshepherd.graph.builder", "langgraph.pregel")

    def orchestrate(*args: str) -> tuple[dict, list[bool]]:
        code = (
            "import sys\n"
            "from runshepherd.cli.main import main\n"
            f"code = main({list(args)!r})\n"
            f"print(*(m in sys.modules for m in {graph!r}), file=sys.stderr)\n"
            "sys.exit(code)\n"
        )
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
        assert res.returncode == 0, res.stderr
        return json.loads(res.stdout), [word == "True" for word in res.stderr.split()[-len(graph) :]]

    listed, loaded = orchestrate("sessions", "--json")
    assert {(r["session"], r["state"], r["question"]) for r in listed["sessions"]} == {
        ("said-no", "CANCELED", None),
        ("asks", "waiting", "Submit hello to pool local?"),
    }
    assert loaded == [False, False, False]
    canceled, loaded = orchestrate("cancel", "asks", "--yes", "--json")
    assert canceled["canceled"] and canceled["withdrawn_question"] == "submit"
    assert loaded == [False, False, False]
