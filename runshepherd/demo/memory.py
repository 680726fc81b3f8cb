"""Memory the demo trainer deliberately uses, and how it reports its own footprint."""

from __future__ import annotations

import numpy as np
import psutil
from numpy.typing import NDArray

MIB = 1024 * 1024


def hold_ballast(megabytes: int) -> NDArray[np.uint8]:
    """Allocate ``megabytes`` MiB and write every page, so resident memory (RSS) really grows by that much.

    ``np.zeros`` or ``bytearray`` would only reserve address space (the kernel maps zero pages lazily); filling
    the buffer touches each page. The caller keeps the returned array alive for as long as it wants the memory.
    """
    if megabytes < 0:
        raise ValueError(f"--memory-mb must be >= 0, got {megabytes}")
    ballast = np.empty(megabytes * MIB, dtype=np.uint8)
    ballast.fill(1)
    return ballast


def rss_mib() -> float:
    """This process's resident set size in MiB."""
    return psutil.Process().memory_info().rss / MIB
