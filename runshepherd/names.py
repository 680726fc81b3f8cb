"""Ids are names, never paths: the one pattern session ids, workflow ids and app names must match.

They become file names (locks, records, app folders) and words in printed commands, so a `/`, a `..`, a `$(…)`
or 5,000 characters must be refused at the door with exit 2, not discovered as a stray folder or a crash.
"""

from __future__ import annotations

import re
import shlex

from runshepherd.errors import UsageError

ID_MAX = 128
ID_RE = re.compile(rf"^[A-Za-z0-9][A-Za-z0-9_.-]{{0,{ID_MAX - 1}}}$")


def is_id(value: str) -> bool:
    return bool(ID_RE.match(value)) and ".." not in value


def check_id(value: str, what: str) -> str:
    """``value`` if it is a valid id, else a UsageError (exit 2) saying what an id may hold."""
    if is_id(value):
        return value
    shown = value if len(value) <= 60 else value[:57] + "…"
    raise UsageError(
        f"{what} {shown!r} is not a valid id — use up to {ID_MAX} letters, digits, '-', '_' or '.', "
        "starting with a letter or digit (ids are names, never paths)"
    )


def quoted(value: str) -> str:
    """A value as it must be typed in a shell (hints print commands a person copies)."""
    return shlex.quote(value)
