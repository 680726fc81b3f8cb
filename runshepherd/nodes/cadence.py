"""The polling cadence of the OSMO skill: 10–15 s for short jobs, 30 s for training, 60 s after several
unchanged polls; a person's `--cadence` wins. And the wait before an infrastructure retry. Pure functions."""

from __future__ import annotations

import re

from runshepherd.config import Cadence

_TRAINING = re.compile(r"\b(train|fine-?tune|epochs?|torchrun|deepspeed|accelerate|sdg|generate)\b", re.I)


def is_training(spec_text: str) -> bool:
    return bool(_TRAINING.search(spec_text or ""))


def interval(policy: Cadence, *, training: bool, unchanged_polls: int, override: float | None) -> float:
    if override is not None:
        return max(0.05, override)
    if unchanged_polls >= policy.backoff_after:
        return policy.backoff
    return policy.training if training else policy.short


INFRA_BACKOFF_MAX = 60.0


def infra_backoff(base_seconds: float, retry: int) -> float:
    """Seconds to wait before infra retry number ``retry`` (1, 2, …): ``base_seconds`` doubled each time, at most a
    minute, so a scheduler that had a bad moment gets room before the same spec is submitted again."""
    return min(INFRA_BACKOFF_MAX, max(0.0, base_seconds) * 2 ** (max(1, retry) - 1))
