"""The live status line of a session on a terminal: a spinner, the elapsed time and the last state, redrawn
while nothing else is printed (a 105 s PENDING wait shows signs of life). Never on a pipe or with --json."""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console
from rich.spinner import Spinner
from rich.text import Text

from runshepherd.durations import format_elapsed


class _Line:
    """Re-rendered on every refresh, so the elapsed time moves on its own."""

    def __init__(self, started: float) -> None:
        self.started = started
        self.state = "planning"
        self.spinner = Spinner("dots", style="cyan")

    def __rich__(self) -> Any:
        self.spinner.update(text=Text(f"{self.state} · {format_elapsed(time.monotonic() - self.started)} elapsed"))
        return self.spinner


class LiveLine:
    def __init__(self, console: Console) -> None:
        self.enabled = console.is_terminal
        self.line = _Line(time.monotonic())
        self._live: Any = None
        self.console = console

    def start(self) -> None:
        if self.enabled and self._live is None:
            from rich.live import Live

            self._live = Live(self.line, console=self.console, refresh_per_second=8, transient=True)
            self._live.start()

    def stop(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def saw(self, ev: dict[str, Any]) -> None:
        """The last state worth showing: submitted, a status change, the progress line."""
        kind = ev.get("event")
        if kind == "submitted":
            self.line.state = f"{ev.get('workflow_id')} submitted"
        elif kind == "status":
            self.line.state = f"{ev.get('workflow_id')} {ev.get('to')}"
        elif kind == "progress":
            # stage and progress only ("training; epoch 1/3 — 11% complete"): never a number cut in half
            self.line.state = "; ".join(str(ev.get("text") or "").split("; ")[:2])
        elif kind == "planned":
            self.line.state = f"planned {ev.get('spec_name')}"
