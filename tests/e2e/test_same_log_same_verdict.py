"""One failed run, two ways in: `orchestrate diagnose WF` and `orchestrate diagnose --log` on that run's own log
name the same failure when the run printed a few steps after its only error and then exited 1."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import run, until_status

_SCRIPT = """\
import sys
print("Traceback (most recent call last):")
print('  File "train.py", line 10, in <module>')
print('    x = torch.zeros(10**12, device="cuda")')
print("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.73 TiB (GPU 0; 79.15 GiB total capacity)")
for i in (10, 20, 30):
    print(f"step {i} loss 0.5")
sys.exit(1)
"""


def _spec() -> str:
    body = "".join(f"        {line}\n" for line in _SCRIPT.splitlines())
    return (
        "workflow:\n  name: oom-then-steps\n  resources:\n    default:\n      cpu: 1\n      memory: 512Mi\n"
        "  tasks:\n  - name: train\n    image: python:3.11-slim\n    command: [python, gen.py]\n"
        f"    files:\n    - path: gen.py\n      contents: |\n{body}"
    )


def test_diagnose_wf_and_diagnose_log_agree_on_an_error_the_run_printed_steps_after(tmp_path: Path) -> None:
    spec = tmp_path / "oom.yaml"
    spec.write_text(_spec())
    wid = json.loads(run(tmp_path, "submit", str(spec), "--json").stdout)["workflow_id"]
    until_status(tmp_path, wid, timeout=60)
    assert json.loads(run(tmp_path, "status", wid, "--json").stdout)["status"] == "FAILED"

    res = run(tmp_path, "diagnose", wid, "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.splitlines()[0])["label"] == "gpu_oom"

    log = next((tmp_path / "state").rglob("tasks/train/log"))
    res = run(tmp_path, "diagnose", "--log", str(log), "--json")
    assert res.returncode == 0, res.stderr
    pasted = json.loads(res.stdout.splitlines()[0])
    assert pasted["label"] == "gpu_oom"
    assert any("CUDA out of memory" in line for line in pasted["evidence"])
