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
    """``text`` when it is short enough, else a UsageError (exit 2) saying what to do instead. Its escapes and
    controls are taken out by `enter`, which also says what an unended one swallowed (`unended_escape`)."""
    if text is not None and len(text) > REQUEST_MAX:
        raise UsageError(too_long(text))
    return text


# The 8-bit C1 controls are the 7-bit escapes ESC + (0x40-0x5F) in one character: U+009B is a CSI ("\x9b31m" a
# colour), U+009D an OSC. Said as their 7-bit form, the one rule below strips the whole sequence, not just the
# introducer (was: "\x9b31m" left "31m" in the request).
_C1 = re.compile(r"[\x80-\x9f]")
# A string escape (OSC, DCS, SOS, PM, APC) with no BEL/ST after it: a terminal takes everything after it as the
# string (a window title, say), so the request's reader drops it too, and `enter` says so.
_UNENDED = re.compile(r"\x1b[\]PX^_]([^\x07\x1b]*)$")


def _seven_bit(text: str) -> str:
    return _C1.sub(lambda m: "\x1b" + chr(ord(m.group()) - 0x40), text) if not text.isascii() else text


def without_controls(text: str) -> str:
    """``text`` with no escape sequence or control character (line breaks and tabs kept): a terminal title
    (`\x1b]0;evil\x07`), a colour or a clipboard write in a pasted request is acted on by a terminal, never
    read as words, so none of it may name the workflow, set a value or reach a spec (was: `draft "train a
    classifier \x1b]0;evil\x07…"` named it `train-classifier-evil`). One rule with the logs' (`logs/decode.py`),
    with the 8-bit C1 escapes read as their 7-bit form first."""
    from runshepherd.logs.decode import strip_controls

    return strip_controls(_seven_bit(text))


def unended_escape(text: str) -> str | None:
    """The words an escape string that is never ended swallows (`"train … \x1b]0;evil for 3 epochs"` → "evil for
    3 epochs"), or None. A terminal would not show them either, but a person must not lose words without a word."""
    from runshepherd.logs.decode import strip_controls

    if (m := _UNENDED.search(_seven_bit(text))) is None:
        return None
    return re.sub(r"^\d+;", "", strip_controls(m.group(1))).strip() or None


def unended_note(words: str) -> str:
    return (
        f"not used: `{words}` — it follows a terminal escape that is never ended (a string such as ESC ] or ESC P, "
        "with no BEL or ESC \\ after it), "
        "so a terminal swallows it as a title or a command instead of showing it; if it is part of the job, say it "
        "again without the escape"
    )


_ASSIGNED = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*[=:]\s*[\"']?\[REDACTED:")


def without_secrets(text: str, *, left_out_of: str) -> tuple[str, str | None]:
    """``text`` with its secrets redacted, and what to tell the person (None when it held none).

    Every way a request comes in (run, draft, the chat, MCP) says it: a secret that vanishes without a word leaves a
    job that fails later for want of it, and nobody knows why. The config's own patterns apply through the one
    process-wide list (`logs/redact.use_patterns`, set by `load_settings`)."""
    from runshepherd.logs.redact import redact

    text = without_controls(text)  # every door cleans it here, through `enter` (`check_request` checks length only)
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
    from runshepherd.logs.redact import redact_line
    from runshepherd.request_recurrence import recurrence_notes, split_recurrence
    from runshepherd.request_shell import not_used_notes, split_shell

    redacted, warning = without_secrets(text, left_out_of=left_out_of)
    kept, cut = split_shell(redacted)
    kept, repeat = split_recurrence(kept)  # "every night": run once, and the plan says so
    swallowed = [unended_note(redact_line(words))] if (words := unended_escape(text)) else []
    return Entered(kept, warning, [*swallowed, *not_used_notes(cut), *recurrence_notes(repeat)])
