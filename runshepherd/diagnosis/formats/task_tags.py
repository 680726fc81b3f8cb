"""How a scheduler tags the lines and events of one task in a workflow's combined output.

OSMO puts ``[task]`` (``[task retry-N]`` for a retry) after an event's date and time and before a log line's text;
Kubernetes-style event lines carry no tag and apply to every task. The diagnosis splits a workflow's events and logs
per task with these (`engine._events_for`, `engine._logs_for`).
"""

from __future__ import annotations

import re

# an event line as OSMO writes it: date, time, then a task's tag ("2024-05-01 10:00:00 [train] …")
TAGGED_EVENT = re.compile(r"^\S+ \S+ \[[^\]]+\]")


def task_tag(task: str) -> re.Pattern[str]:
    """OSMO's tag of one task's lines and events, ``[task]`` or ``[task retry-N]``."""
    return re.compile(r"\[" + re.escape(task) + r"(?: retry-\d+)?\]")
