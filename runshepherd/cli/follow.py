"""`orchestrate logs WF -f`: the raw lines as they arrive (redacted), until the workflow ends or Ctrl-C.

Backends serve bounded tails, not streams; each poll reads the last ``window`` lines and prints those after
the ones already shown. A gap (more new lines than the window) is said, never hidden."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from runshepherd.logs.decode import strip_controls

OVERLAP = 20  # lines that must match to place the previous window inside the new one


def new_lines(shown: list[str], current: list[str]) -> tuple[list[str], bool]:
    """The lines of ``current`` after the end of ``shown``, and whether some were missed in between."""
    if not shown:
        return current, False
    m = min(OVERLAP, len(shown))
    for i in range(len(current), 0, -1):
        k = min(m, i)  # a full overlap, or one that starts the new window (the window slid past the rest)
        if (k == m or i == k) and current[i - k : i] == shown[-k:]:
            return current[i:], False
    return current, True


def follow(
    backend: Any,
    workflow_id: str,
    task: str | None,
    *,
    tail: int,
    redact: Callable[[list[str]], list[str]],
    write: Callable[[str], None],
    poll: float = 1.0,
    window: int = 1000,
    as_json: bool = False,
) -> int:
    """Print until the workflow is terminal (a last read after it ends); 0, or 130 on Ctrl-C."""

    def emit(line: str) -> None:
        write(json.dumps({"workflow_id": workflow_id, "task": task, "line": line}) if as_json else strip_controls(line))

    shown: list[str] = []
    first = True
    try:
        while True:
            ended = backend.query(workflow_id).status.terminal()
            current = list(backend.logs(workflow_id, task, tail=tail if first else window, timeout=None))
            fresh, gap = new_lines(shown, current)
            if gap and not first:
                emit(f"… (more than {window} new lines since the last read; some were skipped)")
            for line in redact(fresh):
                emit(line)
            shown = (shown + fresh)[-window:]
            first = False
            if ended:
                return 0
            time.sleep(poll)
    except KeyboardInterrupt:
        return 130
