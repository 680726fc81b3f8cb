"""Test helpers shared by backend tests: the one place that turns YAML text into a SpecDocument, and a sweep's
shared poll driven tick by tick."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from runshepherd.backends.base import Backend, Status
from runshepherd.spec.document import SpecDocument
from runshepherd.spec.loader import load_spec_text
from runshepherd.sweep.poll import SharedPoll


def spec_from_yaml(text: str, base_dir: Path | None = None) -> SpecDocument:
    return load_spec_text(text, source="test.yaml", base_dir=base_dir)


def sweep_ticks(backend: Backend, ids: list[str]) -> tuple[SharedPoll, Callable[[], dict[str, Status]]]:
    """A sweep's shared poll on a fake clock (10 s ticks) whose monitors have each polled once (one after the
    other, as they start), and ``tick()``: the clock moves one tick and every monitor polls once."""
    now = [0.0]
    poll = SharedPoll(backend, tick=10.0, clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))

    def tick() -> dict[str, Status]:
        now[0] += 10
        return {w: poll.query(w).status for w in ids}

    for w in ids:
        poll.query(w)
    return poll, tick
