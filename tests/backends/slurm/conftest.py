"""Slurm fixtures: the real cluster started by scripts/slurm-up.sh (found via $SLURM_CONF or its default path).

Without a reachable Slurm the tests skip and say why; `.ci/run` always starts one, so nothing skips in CI.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from runshepherd.backends.slurm import SlurmBackend

from .slurm_available import slurm_conf_or_skip


@pytest.fixture
def slurm_conf() -> Path:
    return slurm_conf_or_skip()


@pytest.fixture
def backend(tmp_path: Path, slurm_conf: Path) -> Iterator[SlurmBackend]:
    be = SlurmBackend(tmp_path / "state", {"slurm_conf": str(slurm_conf)})
    yield be
    for row in be.list_workflows(limit=1000):
        if row.status.alive():
            be.cancel(row.workflow_id)
