"""The next step `draft` prints names the backend the person is using. Before, it always said
`orchestrate validate FILE --backend osmo`: on the default local backend, with no osmo CLI, that was exit 4
("the OSMO CLI 'osmo' was not found")."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main


@pytest.mark.parametrize("backend", ["local", "slurm"])
def test_the_next_step_uses_the_backend_in_use(here: Path, backend: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "train a small classifier", "-o", "job.yaml", "--backend", backend]) == 0
    out = capsys.readouterr().out
    assert f"next: orchestrate validate job.yaml --backend {backend}, then orchestrate submit job.yaml" in out
    assert "--backend osmo" not in out
