"""The shared conformance suite against the local backend on this real machine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from runshepherd.backends.local import LocalBackend

from .conformance import BackendConformance
from .helpers import spec_from_yaml


@pytest.fixture
def backend(tmp_path: Path) -> Iterator[LocalBackend]:
    be = LocalBackend(tmp_path / "state")
    yield be
    for row in be.list_workflows(limit=1000):
        if row.status.alive():
            be.cancel(row.workflow_id)


@pytest.fixture
def make_spec():
    return spec_from_yaml


class TestLocalConformance(BackendConformance):
    pass
