"""The rule registry: importing this package registers every failure family (one module each)."""

from runshepherd.diagnosis.rules import (  # noqa: F401  (imported for their registrations)
    auth,
    code,
    dependency,
    device,
    disk,
    distributed,
    files,
    images,
    memory,
    network,
    numeric,
    outputs,
    preemption,
    scheduling,
    timeouts,
    usage,
    validation,
)
from runshepherd.diagnosis.rules.base import REGISTRY, Context, Signal

__all__ = ["REGISTRY", "Context", "Signal"]
