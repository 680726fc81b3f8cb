"""The embedded default backend: a real single-machine scheduler with detached supervisors.

The names below load on first use: every local workflow starts a supervisor process (``supervisor.py``, in this
package), and importing ``LocalBackend`` for it (access checks, downloads) roughly doubled that process's start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from runshepherd.lazy_exports import lazy_getattr

if TYPE_CHECKING:
    from runshepherd.backends.local.backend import LocalBackend
    from runshepherd.backends.local.machine import MachineInfo, detect_machine

__all__ = ["LocalBackend", "MachineInfo", "detect_machine"]

__getattr__ = lazy_getattr(__name__, {"LocalBackend": "backend", "MachineInfo": "machine", "detect_machine": "machine"})
