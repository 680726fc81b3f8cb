"""Slurm fixtures: the real cluster started by scripts/slurm-up.sh (found via $SLURM_CONF or its default path).

Without a reachable Slurm the tests skip and say why; `.ci/run` always starts one, so nothing skips in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

from runshepherd.backends.slurm import SlurmBackend
from runshepherd.backends.slurm.cli import find_slurm_conf


def _absent(reason: str) -> None:
    """Skip with the reason — except in CI (SLURM_TESTS_REQUIRED=1), where a missing Slurm is a failure."""
    if os.environ.get("SLURM_TESTS_REQUIRED") == "1":
        pytest.fail(f"Slurm is required here (SLURM_TESTS_REQUIRED=1) but: {reason}")
    pytest.skip(reason)


def slurm_conf_or_skip() -> Path:
    conf = find_slurm_conf()
    if conf is None or shutil.which("scontrol") is None:
        _absent("no Slurm here: start one with `sudo scripts/slurm-up.sh` and export SLURM_CONF "
                    "(.ci/run does this)")
    env = {**os.environ, "SLURM_CONF": str(conf)}
    ping = subprocess.run(["scontrol", "ping"], env=env, capture_output=True, text=True, timeout=20)
    if "UP" not in ping.stdout:
        _absent(f"Slurm config {conf} found but slurmctld does not answer: {ping.stdout.strip()} "
                    f"{ping.stderr.strip()}")
    return conf


@pytest.fixture
def slurm_conf() -> Path:
    return slurm_conf_or_skip()


@pytest.fixture
def backend(tmp_path: Path, slurm_conf: Path) -> Iterator[SlurmBackend]:
    be = SlurmBackend(tmp_path / "state", {"slurm_conf": str(slurm_conf)})
    yield be
    for row in be.list(limit=1000):
        if row.status.alive():
            be.cancel(row.workflow_id)
