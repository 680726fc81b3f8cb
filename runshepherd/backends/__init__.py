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
    _check_options(name, options)
    state_dir: Path = settings.resolved_state_dir()
    if name == "local":
        return cls(state_dir)
    return cls(state_dir, options)


# The options each backend reads from its `backends:` section (README: "Options under `backends: osmo:`" …).
OPTIONS = {
    "local": frozenset({"pool"}),
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


def _check_options(name: str, options: dict[str, Any]) -> None:
    """An option the backend never reads is a typo, not a setting: `partitoin: gpu` ran on the default partition
    without a word. Refused (exit 2) naming the closest option."""
    import difflib

    from runshepherd.errors import ConfigError

    known = OPTIONS[name]
    for key in options:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f" — did you mean {close[0]!r}?" if close else ""
            raise ConfigError(
                f"backends.{name}.{key}: the {name} backend has no option {str(key)!r}{hint} "
                f"(its options: {', '.join(sorted(known))})"
            )
