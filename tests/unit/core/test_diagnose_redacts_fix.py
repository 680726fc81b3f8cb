"""`diagnose WF` shows the fix as a diff of the spec: a literal secret on a context line is redacted there too
(text, --json and MCP share it). Before: `HF_TOKEN: hf_…` / `# token hf_…` lines were printed as they are."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from runshepherd.cli.main import main

TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
SPEC = f"""\
workflow:
  name: oomsecret
  resources:
    default:
      cpu: 1
      memory: 256Mi   # token {TOKEN}
  tasks:
  - name: train
    image: python:3.11-slim
    command: [python, -m, runshepherd.demo.trainer]
    args: [--epochs, "3", --memory-mb, "300", --output-dir, "{{{{output}}}}"]
"""


def test_the_fix_diff_never_shows_a_secret_of_the_spec(
    tmp_path: Path, here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "s.yaml").write_text(SPEC)
    assert main(["submit", "s.yaml"]) == 2  # RunShepherd takes no literal secret in a spec (even in a comment)
    # a workflow that holds one anyway (submitted with another tool, or before the refusal): planted in its record
    (tmp_path / "s.yaml").write_text(SPEC.replace(f"   # token {TOKEN}", ""))
    capsys.readouterr()
    assert main(["submit", "s.yaml", "--json"]) == 0
    wid = json.loads(capsys.readouterr().out.splitlines()[0])["workflow_id"]
    for name in ("spec.yaml", "template.yaml"):
        record = tmp_path / "state" / "workflows" / wid / name
        record.write_text(record.read_text().replace("memory: 256Mi", f"memory: 256Mi   # token {TOKEN}"))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        main(["list", "--json"])
        if json.loads(capsys.readouterr().out)["workflows"][0]["status"].startswith(("FAILED", "COMPLETED")):
            break
        time.sleep(0.3)
    for argv in (["diagnose", wid], ["diagnose", wid, "--json"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "512Mi" in out and "[REDACTED:hf_token]" in out and TOKEN not in out
