"""Small words printed everywhere: "1 GPU", "2 GPUs", "512Mi" (never "1 GPUs", never "memory: 0Gi")."""

from __future__ import annotations

import math

_IRREGULAR = {"GiB of memory": "GiB of memory", "memory": "memory"}


def count(n: float, noun: str) -> str:
    """``n`` and the noun in the right number: count(1, "GPU") == "1 GPU", count(2.5, "CPU") == "2.5 CPUs"."""
    shown = f"{n:g}" if isinstance(n, float) else str(n)
    if noun in _IRREGULAR or n == 1:
        return f"{shown} {noun}"
    return f"{shown} {noun}es" if noun.endswith(("s", "sh", "ch", "x")) else f"{shown} {noun}s"


def memory(gi: float) -> str:
    """A memory request a spec accepts, rounded down so it still fits: whole Gi, else Mi (at least 1Mi)."""
    if gi >= 1:
        return f"{math.floor(gi)}Gi"
    return f"{max(1, math.floor(gi * 1024))}Mi"
