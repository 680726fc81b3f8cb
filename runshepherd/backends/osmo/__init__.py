"""OSMO backend: drives the real `osmo` CLI (see shared/reference/osmo.md for the contract it is built on)."""

from runshepherd.backends.osmo.backend import AppCreated, OsmoBackend
from runshepherd.backends.osmo.runner import AUTH_BREAKER, ServerBusy

__all__ = ["AUTH_BREAKER", "AppCreated", "OsmoBackend", "ServerBusy"]
