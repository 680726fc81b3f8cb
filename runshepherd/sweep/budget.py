"""The sweep-wide caps: fix attempts and infrastructure retries counted over every point together, on top of each
point's own caps. The driver counts what the points actually submitted (`submitted` events with reason fix or
infra-retry, a found earlier submission not counted again); a point's session reads what is left. Points that
check at the same moment can each take the last one, so a sweep may exceed a cap by at most --max-parallel − 1."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SweepBudget:
    max_fixes: int
    max_infra_retries: int
    fixes: int = 0
    infra_retries: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def count(self, event: dict[str, Any]) -> None:
        """Count one point's event: a fresh submission with reason fix or infra-retry uses the budget."""
        if event.get("event") != "submitted" or event.get("reused"):
            return
        with self._lock:
            if event.get("reason") == "fix":
                self.fixes += 1
            elif event.get("reason") == "infra-retry":
                self.infra_retries += 1

    def fixes_left(self) -> int:
        with self._lock:
            return max(0, self.max_fixes - self.fixes)

    def infra_left(self) -> int:
        with self._lock:
            return max(0, self.max_infra_retries - self.infra_retries)
