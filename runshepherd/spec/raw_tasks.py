"""Every task of a spec read as plain YAML (before or without the model): `tasks:` and each group's `tasks:`.

Readers that look at a spec's raw text — the access check, the draft's network check, the implausible-value check
of a drafted spec — walk its tasks the same way; this is that walk, once. A group that is not a mapping holds no task.
"""

from __future__ import annotations

from typing import Any


def raw_tasks(workflow: Any) -> list[Any]:
    """The `workflow:` mapping's tasks, flat ones first, then each group's (entries as written: callers skip
    non-mappings)."""
    if not isinstance(workflow, dict):
        return []
    groups = [g for g in workflow.get("groups") or [] if isinstance(g, dict)]
    return list(workflow.get("tasks") or []) + [t for g in groups for t in g.get("tasks") or []]
