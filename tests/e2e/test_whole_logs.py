"""Whole logs on the product path: a root error buried under megabytes of warnings is found by `logs`, `status`
and `diagnose` (a tail of the last 2,000 lines would only see the warnings and `exit code 1`)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import run, until_status

from runshepherd.logs import count_tokens
from runshepherd.logs.synthetic import BURIED_ERROR, buried_error_spec


def _wait_terminal(tmp: Path, wid: str, timeout: float = 90) -> dict:
    """`status WF --json` once the workflow has ended (or ``timeout`` seconds have passed)."""
    until_status(tmp, wid, timeout=timeout)
    res = run(tmp, "status", wid, "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_a_root_error_in_the_middle_of_a_big_log_is_kept_by_logs_status_and_diagnose(tmp_path: Path) -> None:
    spec = tmp_path / "buried.yaml"
    spec.write_text(buried_error_spec(6))
    wid = json.loads(run(tmp_path, "submit", str(spec), "--json").stdout)["workflow_id"]
    st = _wait_terminal(tmp_path, wid)
    assert st["status"] == "FAILED"
    log = next((tmp_path / "state").rglob("tasks/train/log"))
    assert log.stat().st_size > 6_000_000
    # The last 2,000 lines (the old path) hold only warnings.
    tail = log.read_text().splitlines()[-2000:]
    assert not any(BURIED_ERROR in line for line in tail)

    res = run(tmp_path, "logs", wid, "--json")
    assert res.returncode == 0, res.stderr
    digest = json.loads(res.stdout)["digests"]["train"]
    assert digest["root_error"] == BURIED_ERROR
    assert count_tokens(res.stdout) <= 1500

    res = run(tmp_path, "diagnose", wid, "--json")
    assert res.returncode == 0, res.stderr
    diag = json.loads(res.stdout.splitlines()[0])
    assert diag["label"] == "device_assert"
    assert any(BURIED_ERROR in line for line in diag["evidence"])

    status_text = run(tmp_path, "status", wid).stdout
    assert "device-side assert" in status_text
