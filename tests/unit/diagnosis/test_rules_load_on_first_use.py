"""The rules (hundreds of regexes compiled at import) load when something is diagnosed, not when the session graph
is built: `run`, `resume`, `sessions` and `status SWEEP` build it in every CLI process, most of which never
diagnose anything."""

from __future__ import annotations

import subprocess
import sys


def test_building_the_session_graph_leaves_the_rules_unloaded_until_a_diagnosis() -> None:
    code = (
        "import sys\n"
        "from runshepherd.graph.builder import compile_graph\n"
        "compile_graph(None)\n"
        "from runshepherd.diagnosis import ResourceRequest, DiagnosisInput\n"  # models and pending stay light
        "print('runshepherd.diagnosis.engine' in sys.modules, 'runshepherd.diagnosis.rules' in sys.modules)\n"
        "from runshepherd.diagnosis import diagnose_log_text\n"
        "d = diagnose_log_text('RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB')\n"
        "print(d.label, 'runshepherd.diagnosis.rules' in sys.modules)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split("\n")[:2] == ["False False", "gpu_oom True"], res.stdout + res.stderr
