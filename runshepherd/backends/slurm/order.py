"""Submission order: a group's jobs can depend only on jobs that already have ids, so upstream groups first."""

from __future__ import annotations

from runshepherd.backends.base import SubmissionRejected
from runshepherd.spec.model import Group, Workflow


def group_order(workflow: Workflow) -> list[Group]:
    """Groups sorted so every `inputs: - task:` names a task of an earlier group (spec order where free)."""
    groups = workflow.task_groups()
    owner = {t.name: g.name for g in groups for t in g.tasks}
    needs = {
        g.name: {owner[i.task] for t in g.tasks for i in t.inputs if i.task in owner and owner[i.task] != g.name}
        for g in groups
    }
    ordered: list[Group] = []
    placed: set[str] = set()
    while len(ordered) < len(groups):
        ready = [g for g in groups if g.name not in placed and needs[g.name] <= placed]
        if not ready:
            cycle = sorted(g.name for g in groups if g.name not in placed)
            raise SubmissionRejected(f"tasks depend on each other in a cycle (groups {', '.join(cycle)})")
        ordered.append(ready[0])
        placed.add(ready[0].name)
    return ordered
