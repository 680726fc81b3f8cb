"""The embedded default backend: a real single-machine scheduler with detached supervisors."""

from runshepherd.backends.local.backend import LocalBackend
from runshepherd.backends.local.machine import MachineInfo, detect_machine

__all__ = ["LocalBackend", "MachineInfo", "detect_machine"]
