"""The diagnosis rules (hundreds of regexes compiled at import) and the log reader (numpy, the cue scanner) load
when something is diagnosed or a log is read, not when the session graph is built: `run`, `resume`, `sessions` and
`status SWEEP` build it in every CLI process, most of which never diagnose or read a log."""

from __future__ import annotations

import subprocess
import sys

_LOADED = "print(*(m in sys.modules for m in ('runshepherd.diagnosis.rules', 'runshepherd.logs.reader', 'numpy')))\n"


def test_building_the_session_graph_leaves_the_rules_and_the_log_reader_unloaded_until_used() -> None:
    code = (
        "import sys\n"
        "from runshepherd.graph.builder import compile_graph\n"
        "compile_graph(None)\n"
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
    assert res.stdout.split("\n")[:4] == ["False False False", "gpu_oom", "1", "True True True"], res.stdout
