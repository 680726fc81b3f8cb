"""A request is a sentence or a paragraph: its length is bounded at the door.

The planner reads a request with many small patterns; on one 100,000-character word they took 84 s (2 MB stalled
an MCP server for minutes). So every way in — the CLI, `draft`, the chat, MCP's `start_run`, the graph's own
plan step — refuses a longer one with exit 2 and says where long text belongs.
"""

from __future__ import annotations

from runshepherd.errors import UsageError

REQUEST_MAX = 4000  # characters: a long paragraph; the details of a job belong in a spec or a script


def too_long(text: str) -> str:
    return (
        f"the request is {len(text):,} characters; at most {REQUEST_MAX:,} are read — say the job in a "
        "sentence or two and put the details in a spec (--spec FILE) or a script the request names"
    )


def check_request(text: str | None) -> str | None:
    """``text`` unchanged when it is short enough, else a UsageError (exit 2) saying what to do instead."""
    if text is not None and len(text) > REQUEST_MAX:
        raise UsageError(too_long(text))
    return text
