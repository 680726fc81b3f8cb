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
    options: dict[str, Any] = dict(settings.backends.get(name) or {})  # checked at load (config.py)
    state_dir: Path = settings.resolved_state_dir()
    if name == "local":
        return cls(state_dir)
    return cls(state_dir, options)


# The options each backend reads from its `backends:` section (README: "Options under `backends: osmo:`" …); any
# other key is refused when the settings load (`config._check_backend_options`). The local backend reads none.
OPTIONS: dict[str, frozenset[str]] = {
    "local": frozenset(),
    "slurm": frozenset({"partition", "shared_dir", "slurm_conf", "python", "bin_dir"}),
    "osmo": frozenset(
        {
            "executable",
            "pool",
            "capture_timeout",
            "idle_timeout",
            "download_timeout",
            "whole_log_timeout",
            "whole_log_max_bytes",
            "whole_log_idle",
            "call_timeout",
            "retries",
            "backoff_initial",
            "backoff_max",
            "datasets",
            "labels",
        }
    ),
}
