"""OSMO backend: drives the real `osmo` CLI (the facts it relies on: docs/architecture.md §6.4)."""

from runshepherd.backends.osmo.backend import AppCreated, OsmoBackend
from runshepherd.backends.osmo.runner import AUTH_BREAKER, ServerBusy

__all__ = ["AUTH_BREAKER", "AppCreated", "OsmoBackend", "ServerBusy"]
