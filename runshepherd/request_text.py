"""A request is a sentence or a paragraph: its length is bounded at the door.

The planner reads a request with many small patterns; on one 100,000-character word they took 84 s (2 MB stalled
an MCP server for minutes). So every way in — the CLI, `draft`, the chat, MCP's `start_run`, the graph's own
plan step — refuses a longer one with exit 2 and says where long text belongs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from runshepherd.errors import UsageError

REQUEST_MAX = 4000  # characters: a long paragraph; the details of a job belong in a spec or a script


def too_long(text: str) -> str:
    return (
        f"the request is {len(text):,} characters; at most {REQUEST_MAX:,} are read — say the job in a "
        "sentence or two and put the details in a spec (--spec FILE) or a script the request names"
    )


def check_request(text: str | None) -> str | None:
    """``text`` as every reader of it takes it (`without_controls`) when it is short enough, else a UsageError
    (exit 2) saying what to do instead."""
    if text is not None and len(text) > REQUEST_MAX:
        raise UsageError(too_long(text))
    return without_controls(text) if text is not None else None


def without_controls(text: str) -> str:
    """``text`` with no escape sequence or control character (line breaks and tabs kept): a terminal title
    (`\x1b]0;evil\x07`), a colour or a clipboard write in a pasted request is acted on by a terminal, never
    read as words, so none of it may name the workflow, set a value or reach a spec (was: `draft "train a
    classifier \x1b]0;evil\x07…"` named it `train-classifier-evil`). One rule with the logs' (`logs/decode.py`)."""
    from runshepherd.logs.decode import strip_controls

    return strip_controls(text)


_ASSIGNED = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*[=:]\s*[\"']?\[REDACTED:")


def without_secrets(text: str, *, left_out_of: str) -> tuple[str, str | None]:
    """``text`` with its secrets redacted, and what to tell the person (None when it held none).

    Every way a request comes in (run, draft, the chat, MCP) says it: a secret that vanishes without a word leaves a
    job that fails later for want of it, and nobody knows why. The config's own patterns apply through the one
    process-wide list (`logs/redact.use_patterns`, set by `load_settings`)."""
    from runshepherd.logs.redact import redact

    text = without_controls(text)  # the doors that never call `check_request` (the chat, MCP) clean it here
    clean, found = redact(text)
    if not found:
        return text, None
    names = sorted({m.group(1) for m in _ASSIGNED.finditer(clean)})
    export = f"export {', '.join(names)} in the shell you run orchestrate from; " if names else ""
    return clean, (
        f"your request holds a secret ({', '.join(sorted(found))}): it is left out of {left_out_of} — give a job "
        f"its secrets as environment variables set outside the request ({export}OSMO: `orchestrate credential set`)"
    )


@dataclass(frozen=True)
class Entered:
    """A request as every reader after the door sees it."""

    text: str  # secrets redacted, shell commands (`request_shell`) and a repeat (`request_recurrence`) cut out
    secret_warning: str | None = None  # what to tell the person about a secret it held (`without_secrets`)
    not_used: list[str] = field(default_factory=list)  # the plan's words for each part cut out (and a repeat)


def enter(text: str, *, left_out_of: str) -> Entered:
    """The one place a person's request is taken in (`run`, `draft`, the chat, MCP's `start_run`, and the plan step
    for a LangGraph server client, which writes the session's state itself): its secrets are redacted, its shell
    commands and a repeat it asks for ("every night", `request_recurrence`) cut out here, once, so no reader after
    it (the recipe sizing, the pool choice, the expert, the app description) sees them, and the plan (or `draft`'s
    notes) says what was not used or done."""
    from runshepherd.request_recurrence import recurrence_notes, split_recurrence
    from runshepherd.request_shell import not_used_notes, split_shell

    redacted, warning = without_secrets(text, left_out_of=left_out_of)
    kept, cut = split_shell(redacted)
    kept, repeat = split_recurrence(kept)  # "every night": run once, and the plan says so
    return Entered(kept, warning, [*not_used_notes(cut), *recurrence_notes(repeat)])
