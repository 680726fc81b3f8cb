"""The real-log corpus (issue 14): its frozen blind/dev split and a loader.

The split is a pure function of the case id, fixed before any score was looked at, so
nobody can move a case between splits after seeing how the diagnoser does on it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal

HERE = Path(__file__).resolve().parent
Split = Literal["blind", "dev"]


def split_of(case_id: str) -> Split:
    """`blind` for about 40% of ids (sha256 of the id, mod 100, below 40), else `dev`."""
    return "blind" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 100 < 40 else "dev"


def load(split: Split | None = None, root: Path = HERE) -> list[dict[str, Any]]:
    """Every case from every `part-*.jsonl`, with its log text under `log`, optionally one split only."""
    cases: list[dict[str, Any]] = []
    for part in sorted(root.glob("part-*.jsonl")):
        for line in part.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            if split is not None and split_of(case["id"]) != split:
                continue
            case["split"] = split_of(case["id"])
            case["log"] = (root / "logs" / f"{case['id']}.log").read_text(encoding="utf-8")
            cases.append(case)
    return cases
