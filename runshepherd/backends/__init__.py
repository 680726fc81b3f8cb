"""Scheduler adapters behind one Protocol (base.py). `make_backend` picks one from settings.

Every backend class takes ``(state_dir: Path, options: dict)``: the state dir for anything it must remember
locally (idempotency keys, output folders) and its section of `backends:` in the config.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.backends.base import Backend
    from runshepherd.config import Settings

_BACKENDS = {
    "local": ("runshepherd.backends.local", "LocalBackend"),
    "slurm": ("runshepherd.backends.slurm", "SlurmBackend"),
    "osmo": ("runshepherd.backends.osmo", "OsmoBackend"),
}


def make_backend(settings: Settings) -> Backend:
    """Imported lazily so `orchestrate --help` stays fast. Every listed backend is built, so an ImportError here
    is a real fault (a missing dependency, a broken module) and surfaces as itself, never as "not built"."""
    name = settings.backend
    module_name, class_name = _BACKENDS[name]
    cls = getattr(importlib.import_module(module_name), class_name)
    options: dict[str, Any] = dict(settings.backends.get(name) or {})
    state_dir: Path = settings.resolved_state_dir()
    if name == "local":
        return cls(state_dir)
    return cls(state_dir, options)
