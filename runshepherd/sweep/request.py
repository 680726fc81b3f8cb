"""Sweeps said in a sentence: "sweep lr over 1e-3, 3e-4, 1e-4", "try batch_size in 32, 64", "run this with
3 seeds", "repeat 4 times". Pure: returns what `--sweep`/`--repeat` would say, or None when the sentence asks for
no sweep."""

from __future__ import annotations

import re
from dataclasses import dataclass

# nan and inf are read too, so the sweep's own check names them ("expects a finite number … got 'nan'"): left
# out, "sweep lr over nan, 0.1 with F.yaml" matched nothing and the chat answered with its menu
_NUM = r"[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|(?:nan|inf(?:inity)?)\b)"
_LIST = rf"(?P<values>{_NUM}(?:\s*(?:,|\bor\b|\band\b)\s*(?:and\s+)?{_NUM})+)"
_SWEEP = re.compile(
    rf"\b(?:sweep|try|vary|scan|grid(?:\s+search)?)\s+(?:the\s+)?(?P<key>[A-Za-z_][\w.-]*)\s*"
    rf"(?:over|across|in|=|through|from|values|:)\s*\[?\s*{_LIST}",
    re.I,
)
_SEEDS = re.compile(r"\b(?:with\s+)?(?P<n>\d{1,3})\s+(?:different\s+|random\s+)?seeds\b", re.I)
_TIMES = re.compile(r"\b(?:repeat(?:ed)?|run(?:\s+(?:it|this))?)\s+(?P<n>\d{1,3})\s+times\b", re.I)
_ALIASES = {"learning_rate": "lr", "learning-rate": "lr", "batch-size": "batch_size", "batch": "batch_size"}


@dataclass(frozen=True)
class SweepRequest:
    sweeps: list[str]  # as --sweep KEY=V1,V2 would give them
    repeat: int


def sweep_from_request(text: str, keys: list[str] | None = None) -> SweepRequest | None:
    """The sweep a sentence asks for. ``keys`` (the spec's default-values) map a spoken key onto the spec's own
    spelling (learning_rate → lr when the spec says lr)."""
    sweeps: list[str] = []
    for m in _SWEEP.finditer(text or ""):
        key = m.group("key")
        if keys and key not in keys:
            alias = _ALIASES.get(key.lower())
            key = alias if alias in keys else next((k for k in keys if k.lower() == key.lower()), key)
        values = [v for v in re.split(r"\s*(?:,|\bor\b|\band\b)\s*", m.group("values")) if v and v != "and"]
        sweeps.append(f"{key}={','.join(values)}")
    repeat = 1
    if m2 := _SEEDS.search(text or "") or _TIMES.search(text or ""):
        repeat = int(m2.group("n"))
    if not sweeps and repeat == 1:
        return None
    return SweepRequest(sweeps=sweeps, repeat=max(1, repeat))
