"""Scheduler adapters behind one Protocol (base.py). `make_backend` picks one from settings.

Every backend class takes ``(state_dir: Path, options: dict)``: the state dir for anything it must remember
locally (idempotency keys, output folders) and its section of `backends:` in the config.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runshepherd.errors import NotImplementedYet

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.backends.base import Backend
    from runshepherd.config import Settings

_BACKENDS = {
    "local": ("runshepherd.backends.local", "LocalBackend"),
    "slurm": ("runshepherd.backends.slurm", "SlurmBackend"),
    "osmo": ("runshepherd.backends.osmo", "OsmoBackend"),
}


def make_backend(settings: Settings) -> Backend:
    """Imported lazily so `orchestrate --help` stays fast and a missing backend is a clear error."""
    name = settings.backend
    module_name, class_name = _BACKENDS[name]
    try:
        module = importlib.import_module(module_name)
        cls = getattr(module, class_name)
    except (ImportError, AttributeError):
        raise NotImplementedYet(
            f"the {name} backend is not built yet — use --backend local (the embedded default) for now"
        ) from None
    options: dict[str, Any] = dict(settings.backends.get(name) or {})
    state_dir: Path = settings.resolved_state_dir()
    if name == "local":
        return cls(state_dir)
    return cls(state_dir, options)
