"""Append-only line files shared between processes (workflow events, the audit log, sent notifications).

A writer appends each line with one ``write`` on an ``O_APPEND`` descriptor, so lines from several writers never
interleave. A reader in another process can still catch a line half written (seen under load: the monitor read
``{"time": …, "message":"0/1 nodes ar`` and its session failed), so readers take only lines that end in a newline;
the unfinished tail is read on the next poll, once its writer is done.
"""

from __future__ import annotations

import os
from pathlib import Path


def append_line(path: Path, line: str, *, mode: int = 0o644) -> None:
    """Append ``line`` (without its newline) as one write."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, mode)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
    finally:
        os.close(fd)


def complete_lines(path: Path) -> list[str]:
    """The non-blank lines of ``path`` that a writer finished; [] when the file does not exist yet."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return []
    done = data[: data.rfind(b"\n") + 1]  # everything up to the last newline: a tail without one is being written
    return [line for line in done.decode("utf-8", errors="replace").splitlines() if line.strip()]
