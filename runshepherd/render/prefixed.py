"""A console whose lines name what they are about: a sweep's points run side by side on one terminal, each line
starts with its [pN] (the sweep in the foreground, and `attach SWEEP` replaying the stream)."""

from __future__ import annotations

from typing import Any


class Prefixed:
    """A console whose lines say which point they are about (points run side by side on one terminal)."""

    def __init__(self, out: Any, prefix: str) -> None:
        self.out, self.prefix = out, prefix

    def print(self, obj: Any = "", *args: Any, **kwargs: Any) -> None:
        if isinstance(obj, str):
            self.out.print(self.prefix + obj, *args, **kwargs)
        else:  # a rich renderable (a digest): its own block under a line naming the point
            self.out.print(self.prefix.strip(), markup=False)
            self.out.print(obj, *args, **kwargs)
