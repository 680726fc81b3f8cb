"""The task's command as the scheduler echoes it before running it: source the job was given, not output it printed.

The local backend's supervisor writes ``Running command: <the argv, shell-quoted>`` as an OSMO control line
(``[train][osmo] Running command: python3 -c '…'``), and a multi-line argument goes on over the next control lines
until its shell quoting closes. A command that merely quotes an error (``msg = 'RuntimeError: CUDA out of memory'``)
was read as the run's gpu_oom, with the echo quoted as evidence. Both readers of a task's lines (the log digest and
the diagnosis) ask this one place which lines are the echo.
"""

from __future__ import annotations

import shlex

RUNNING = "Running command: "
MAX_LINES = 200  # an echo longer than this is not followed further: bounded work on a hostile log


def _closed(command: str) -> bool:
    try:
        shlex.split(command)
    except ValueError:  # "No closing quotation": the argument goes on over the next line
        return False
    return True


class CommandEcho:
    """Fed a task's lines in order; says which are the command's echo."""

    def __init__(self) -> None:
        self._open: str | None = None
        self._lines = 0

    def observe(self, control: bool, text: str) -> bool:
        """True when the line is part of the echo. ``control``: the line carries the scheduler's control tag."""
        if self._open is not None:
            if control and self._lines < MAX_LINES:
                self._open += "\n" + text
                self._lines += 1
                if _closed(self._open):
                    self._open = None
                return True
            self._open = None
        if control and text.startswith(RUNNING):
            command = text[len(RUNNING) :]
            if not _closed(command):
                self._open, self._lines = command, 1
            return True
        return False


def echo_lines(lines: list[str]) -> list[bool]:
    """For each line of a task log (with or without its OSMO prefix): is it the command's echo?"""
    from runshepherd.logs.prefix import split_prefix

    echo = CommandEcho()
    out = []
    for line in lines:
        _, _, _, control, text = split_prefix(line)
        out.append(echo.observe(control, text))
    return out
