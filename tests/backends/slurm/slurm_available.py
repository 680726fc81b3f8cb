"""Is a real Slurm reachable? The one check shared by the Slurm backend tests and the Slurm e2e tests.

Without one the tests skip and say how to get one — except under SLURM_TESTS_REQUIRED=1 (set by `.ci/run`, which
starts Slurm), where a missing Slurm is a failure, so nothing is silently skipped in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from runshepherd.backends.slurm.cli import find_slurm_conf


def _absent(reason: str) -> None:
    """Skip with the reason — except in CI (SLURM_TESTS_REQUIRED=1), where a missing Slurm is a failure."""
    if os.environ.get("SLURM_TESTS_REQUIRED") == "1":
        pytest.fail(f"Slurm is required here (SLURM_TESTS_REQUIRED=1) but: {reason}")
    pytest.skip(reason)


def slurm_conf_or_skip() -> Path:
    conf = find_slurm_conf()
    if conf is None or shutil.which("scontrol") is None:
        _absent("no Slurm here: start one with `sudo scripts/slurm-up.sh` and export SLURM_CONF (.ci/run does this)")
    env = {**os.environ, "SLURM_CONF": str(conf)}
    ping = subprocess.run(["scontrol", "ping"], env=env, capture_output=True, text=True, timeout=20)
    if "UP" not in ping.stdout:
        _absent(f"Slurm config {conf} found but slurmctld does not answer: {ping.stdout.strip()} {ping.stderr.strip()}")
    return conf
