"""A fix that would install system packages is never applied on a backend that runs tasks on the host."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import EXAMPLES, run

from runshepherd.nodes.diagnose_fix import installs_on_host


def test_missing_program_on_local_is_proposed_not_installed(tmp_path: Path) -> None:
    res = run(
        tmp_path,
        "run",
        "--spec",
        str(EXAMPLES / "fail-command.yaml"),
        "--yes",
        "--json",
        "--cadence",
        "0.5",
        timeout=120,
    )
    events = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
    submitted = [e for e in events if e.get("event") == "submitted"]
    assert len(submitted) == 1, res.stdout  # no second submission with an apt-get step
    assert any("Not applied" in str(e.get("text", "")) for e in events), res.stdout
    assert "apt-get" not in "".join(str(e.get("diff", "")) for e in events if e.get("event") == "fix_proposed")


def test_the_rule_is_about_the_backend_and_an_added_install_line() -> None:
    diff = "--- a\n+++ b\n@@\n+        apt-get update && apt-get install -y jq\n"
    assert installs_on_host("local", diff) and installs_on_host("slurm", diff)
    assert not installs_on_host("osmo", diff)  # a container image: the seed's fix stays automatic there
    assert not installs_on_host("local", "+        pip install --no-cache-dir einops\n")
