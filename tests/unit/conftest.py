"""Shared fixtures for the in-process CLI tests under tests/unit."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh HOME, state dir and working directory, so a CLI call in this process touches nothing real."""
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path
