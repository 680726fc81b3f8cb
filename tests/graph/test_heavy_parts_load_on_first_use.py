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
