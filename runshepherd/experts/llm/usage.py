"""Token usage per node, and the session's ceiling. Small enough to live in the checkpointed state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from runshepherd.config import LLMConfig


@dataclass
class UsageLedger:
    max_tokens: int | None = None
    max_cost: float | None = None
    price_in: float = 0.0
    price_out: float = 0.0
    by_node: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def from_config(cls, cfg: LLMConfig) -> UsageLedger:
        return cls(
            max_tokens=cfg.max_tokens_per_session,
            max_cost=cfg.max_cost_per_session,
            price_in=cfg.price_per_1k_input,
            price_out=cfg.price_per_1k_output,
        )

    def seed(self, recorded: dict[str, Any] | None) -> None:
        """Carry the counts of an earlier process of the same session (resume) so the ceiling still holds."""
        for node, row in ((recorded or {}).get("by_node") or {}).items():
            mine = self.by_node.setdefault(node, {"input": 0, "output": 0, "calls": 0})
            for k in mine:
                mine[k] = max(mine[k], int(row.get(k, 0)))

    def record(self, node: str, input_tokens: int, output_tokens: int) -> None:
        row = self.by_node.setdefault(node, {"input": 0, "output": 0, "calls": 0})
        row["input"] += int(input_tokens)
        row["output"] += int(output_tokens)
        row["calls"] += 1

    @property
    def total_tokens(self) -> int:
        return sum(r["input"] + r["output"] for r in self.by_node.values())

    @property
    def cost(self) -> float:
        return sum(r["input"] * self.price_in + r["output"] * self.price_out for r in self.by_node.values()) / 1000

    def exhausted(self) -> str | None:
        """Why no more calls may be made, or None."""
        if self.max_tokens is not None and self.total_tokens >= self.max_tokens:
            return f"the session's token ceiling ({self.max_tokens}) is reached"
        if self.max_cost is not None and self.cost >= self.max_cost:
            return f"the session's cost ceiling ({self.max_cost:g}) is reached"
        return None

    def snapshot(self) -> dict[str, Any]:
        return {
            "by_node": {k: dict(v) for k, v in self.by_node.items()},
            "total_tokens": self.total_tokens,
            "cost": round(self.cost, 6),
        }
