"""Everything a model sees from a run goes through here: redacted first, then fenced as data.

A fence cannot be closed from inside: any `</data` in the material is defused, so log text cannot step out of
its block and pose as instructions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from runshepherd.logs import redact

MAX_MATERIAL_CHARS = 12_000
_CLOSE = re.compile(r"</?\s*data\b", re.I)


def clean(text: str, patterns: Iterable[str] = ()) -> str:
    """Redacted text with fence markers defused and a hard size bound."""
    red, _ = redact(text or "", list(patterns))
    red = _CLOSE.sub(lambda m: m.group(0).replace("<", "‹"), red)
    return red if len(red) <= MAX_MATERIAL_CHARS else red[:MAX_MATERIAL_CHARS] + "\n… (cut)"


def as_data(kind: str, text: str, patterns: Iterable[str] = ()) -> str:
    """One delimited block of material: `<data kind="logs">…</data>`."""
    return f'<data kind="{kind}">\n{clean(text, patterns)}\n</data>'
