"""How a length of time reads to a person: one format for ETAs, run times and queue times everywhere."""

from __future__ import annotations


def format_elapsed(seconds: float) -> str:
    """``42s``, ``3m05s``, ``2h07m`` (rounded to the second; hours keep minutes, drop seconds)."""
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, sec = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{sec:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"
