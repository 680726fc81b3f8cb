"""The shared conformance suite against the OSMO backend driving the fake `osmo` CLI (tasks really run)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from runshepherd.backends.osmo import OsmoBackend

from ..conformance import HELLO, BackendConformance, wait_terminal
from ..helpers import spec_from_yaml
from .conftest import MakeBackend


@pytest.fixture
def backend(make_backend: MakeBackend) -> Iterator[OsmoBackend]:
    be = make_backend(options={"pool": "fake-pool"})
    yield be
    for row in be.list_workflows(limit=1000):
        if row.status.alive():
            be.cancel(row.workflow_id)


@pytest.fixture
def make_spec():
    return spec_from_yaml


class TestOsmoConformance(BackendConformance):
    def test_outputs_listed_and_downloadable(self, backend: OsmoBackend, make_spec, tmp_path: Path) -> None:  # type: ignore[override]
        """OSMO reports output *locations* (declared URLs, else the intermediate-storage prefix), not file lists:
        the file shows up once the location is downloaded."""
        sub = backend.submit(make_spec(HELLO))
        status = wait_terminal(backend, sub.workflow_id)
        assert status.outputs == [f"s3://fake-osmo-intermediate/{sub.workflow_id}"]
        paths = backend.download(status.outputs[0], tmp_path / "dl")
        assert [p.name for p in paths] == ["model.txt"]
        assert paths[0].read_text().strip() == "model-bytes"
