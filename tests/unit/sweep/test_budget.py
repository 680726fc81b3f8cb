"""The sweep-wide caps: a point may not fix (or infra-retry) past what the whole sweep has left."""

from __future__ import annotations

from runshepherd.graph.context import Deps
from runshepherd.nodes.common import fix_budget, infra_retry_allowed
from runshepherd.sweep.budget import SweepBudget


def test_points_share_the_sweeps_fix_and_infra_caps() -> None:
    budget = SweepBudget(max_fixes=2, max_infra_retries=1)
    deps = Deps(backend=None, max_fixes=3, sweep_budget=budget)  # type: ignore[arg-type]
    assert fix_budget({"request": "", "fix_attempts": 0}, deps) == 2  # the sweep's 2 < the point's own 3
    budget.count({"event": "submitted", "reason": "fix", "reused": False, "attempt": 2, "workflow_id": "a-2"})
    budget.count(
        {"event": "submitted", "reason": "fix", "reused": True, "attempt": 2, "workflow_id": "a-2"}
    )  # found again
    budget.count({"event": "submitted", "reason": "fix", "reused": False, "attempt": 2, "workflow_id": "b-2"})
    assert budget.fixes == 2
    assert fix_budget({"request": "", "fix_attempts": 0}, deps) == 0  # another point: none left -> ask the person
    assert fix_budget({"request": "", "fix_attempts": 1}, deps) == 1  # the point that fixed once: at its cap now
    assert infra_retry_allowed({"request": "", "infra_retries": 0}, deps)
    budget.count({"event": "submitted", "reason": "infra-retry", "reused": False, "attempt": 2, "workflow_id": "c-2"})
    assert not infra_retry_allowed({"request": "", "infra_retries": 0}, deps)
    assert fix_budget({"request": "", "fix_attempts": 0}, Deps(backend=None, max_fixes=3)) == 3  # type: ignore[arg-type]
