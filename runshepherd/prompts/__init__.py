"""Prompt texts, one file per use, loaded by name. Text only: no code, no material (that is passed as data)."""

from __future__ import annotations

from functools import cache
from importlib import resources

NAMES = ("common", "draft_spec", "fix_spec", "diagnosis", "digest", "chat_router")


@cache
def load_prompt(name: str) -> str:
    """The prompt ``name`` with the shared rules (`common`) in front, so every model call carries them."""
    if name not in NAMES:
        raise KeyError(f"no prompt {name!r}; known: {', '.join(NAMES)}")
    text = resources.files(__package__).joinpath(f"{name}.md").read_text(encoding="utf-8").strip()
    if name == "common":
        return text
    return load_prompt("common") + "\n\n" + text
