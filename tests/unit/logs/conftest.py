"""Shared helpers for the log pipeline tests."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "data" / "osmo_evals" / "files" / "fixtures" / "default"


def osmo(lines: list[str], task: str = "train", start: str = "2025/10/08 20:00:") -> list[str]:
    """Prefix lines like OSMO does, one second apart."""
    return [f"{start}{i % 60:02d} [{task}] {text}" for i, text in enumerate(lines)]


@pytest.fixture
def fixtures_dir() -> Path:
    """The OSMO eval suite's canned CLI outputs, vendored in tests/data/osmo_evals (see its README)."""
    return FIXTURES
