"""Scheduler adapters behind one Protocol (base.py). `make_backend` picks one from settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from runshepherd.errors import NotImplementedYet

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.backends.base import Backend
    from runshepherd.config import Settings


def make_backend(settings: "Settings") -> "Backend":
    """Imported lazily so `orchestrate --help` stays fast and a missing backend is a clear error."""
    name = settings.backend
    if name == "local":
        from runshepherd.backends.local import LocalBackend

        return LocalBackend(settings.resolved_state_dir())
    raise NotImplementedYet(
        f"the {name} backend is not built yet — use --backend local (the embedded default) for now"
    )
