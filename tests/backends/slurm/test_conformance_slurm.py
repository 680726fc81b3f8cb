"""The shared conformance suite against a real Slurm (slurmctld + slurmd on this machine)."""

from __future__ import annotations

import pytest

from runshepherd.backends.slurm import SlurmBackend

from ..conformance import BackendConformance
from ..helpers import spec_from_yaml


@pytest.fixture
def make_spec():
    return spec_from_yaml


class TestSlurmConformance(BackendConformance):
    def test_is_the_slurm_backend(self, backend: SlurmBackend) -> None:
        assert backend.name == "slurm"
