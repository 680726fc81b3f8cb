"""Fixtures for the OSMO backend tests: a fake `osmo` on PATH with its own state, and a backend built on it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from runshepherd.backends.osmo import AUTH_BREAKER, OsmoBackend

from . import fake_env

FAST = {
    "capture_timeout": 3.0,
    "idle_timeout": 0.7,
    "whole_log_idle": 1.0,
    "backoff_initial": 0.05,
    "backoff_max": 0.2,
    "retries": 4,
}
MakeBackend = Callable[..., OsmoBackend]


@pytest.fixture(autouse=True)
def _fresh_breaker() -> Iterator[None]:
    AUTH_BREAKER.reset()
    yield
    AUTH_BREAKER.reset()


@pytest.fixture
def make_backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MakeBackend:
    """``make_backend(fixture_dirs=None, **knobs)`` — knobs are FAKE_OSMO_* environment values."""

    def make(fixture_dirs: list[Path] | None = None, options: dict | None = None, **knobs: str) -> OsmoBackend:
        dirs = fixture_dirs if fixture_dirs is not None else [fake_env.OWN_FIXTURES / "conformance"]
        env = fake_env.install(tmp_path, dirs, **knobs)
        fake_env.apply(monkeypatch, env)
        return OsmoBackend(tmp_path / "state", {**FAST, **(options or {})})

    return make


@pytest.fixture
def server_home(tmp_path: Path) -> Path:
    return tmp_path / "osmo-server"


@pytest.fixture
def eval_fixtures() -> Path:
    return fake_env.EVAL_FIXTURES
