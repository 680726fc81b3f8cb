"""Turn raw log bytes or strings into clean text lines, with bounded memory per line.

Progress bars rewrite a line with ``\\r`` (only the last segment is what a terminal showed), colour codes
are noise to every extractor, and one pathological line (a minified JSON dump, an hour of tqdm rewrites
without a newline) must not be read whole into memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import BinaryIO, NamedTuple

from runshepherd.logs.prefix import split_prefix

# CSI (colours, cursor moves, screen clears); OSC, DCS, SOS, PM and APC strings (window titles, clipboard writes,
# hyperlinks, device controls) up to their BEL/ST terminator, the next ESC (which ends the string and starts an
# escape of its own, as a terminal reads it: "\x1b]0;title\x1b f" is a title and an escape) or the end of the line;
# other two-byte escapes; and the 8-bit CSI (U+009B, the one-character form of ESC [) with its parameters, which
# otherwise left "31m" behind once the control itself was dropped. A log's undecodable bytes are U+FFFD, never a C1
# control, so only a character the job wrote as a C1 CSI is read this way (its strings, OSC and DCS, are not:
# unended they would swallow the rest of the line; their control is dropped below, their text kept).
_ANSI = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\|(?=\x1b)|$)|\x1b[ -/]*[0-~]"
)
# C0 controls other than tab (backspaces and bells from progress bars and shells), DEL, and the 8-bit C1
# controls (U+0080-U+009F: U+009B is a one-character CSI to some terminals); and the bidirectional marks,
# embeddings, overrides and isolates, which make a terminal or an editor show a line's characters in another
# order than they are ("Trojan Source", CVE-2021-42574): a job's line must read as what it holds.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


class RawLine(NamedTuple):
    """One decoded line and what it cost to read."""

    text: str
    nbytes: int
    cut: bool  # the line was longer than the read limit


def last_segment(text: str) -> str:
    """What a terminal displayed after ``\\r`` rewrites: the last non-empty segment."""
    for segment in reversed(text.split("\r")):
        if segment.strip():
            return segment
    return ""


def clean_text(text: str) -> str:
    """Strip the line end, keep the last ``\\r`` segment, drop ANSI escapes and stray control chars."""
    if text.endswith("\n"):
        text = text[:-1]
    if "\r" in text:
        text = last_segment(text)
    return strip_controls(text)


def strip_controls(text: str) -> str:
    """Drop what a terminal would act on instead of showing: escape sequences and control characters (tab kept).

    Log text is printed to the person's terminal (`logs --raw`, `logs -f`, `diagnose --log`): a line from a job
    must never set the window title, write the clipboard (OSC 52), move the cursor or clear the screen.
    """
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    if not text.isprintable() and _CONTROL.search(text):
        text = _CONTROL.sub("", text)
    return text


# What `str.splitlines` (and a terminal, or a reader of JSON lines) takes as the start of a new line, besides
# "\n" and "\r": a job writing one inside its own line could start a line with no task prefix.
_SEPARATORS = re.compile(r"[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def shown_line(line: str) -> str:
    """One raw log line as it may be shown: the backend's prefix (`DATE [task] `, `DATE [task][osmo] `) as it is,
    then the job's text as a terminal showed it (the last `\r` segment), with no line separator, escape sequence
    or control character left in it. So nothing a job prints can start a line of its own — in particular one
    that reads like the backend's `[task][osmo] Task exited …` — on a terminal, in JSON or on a pasted copy."""
    if line.isprintable():
        return line
    text = split_prefix(line).text
    head = line[: len(line) - len(text)] if text and line.endswith(text) else ""
    body = text if head else line
    if "\r" in body:
        body = last_segment(body)
    return head + strip_controls(_SEPARATORS.sub(" ", body))


def cut_line(text: str, max_chars: int) -> tuple[str, bool]:
    """Cut a line to ``max_chars`` with a visible marker, so no reader mistakes it for the whole line."""
    if len(text) <= max_chars:
        return text, False
    return f"{text[:max_chars]} …[cut {len(text) - max_chars} chars]", True


def split_chunk(chunk: str) -> list[str]:
    """A producer may yield several lines in one string; split them without keeping the separators."""
    return chunk.rstrip("\n").split("\n")


def iter_binary_lines(stream: BinaryIO, max_line_bytes: int) -> Iterator[RawLine]:
    """Yield decoded lines from a binary stream; never holds more than ~2 x ``max_line_bytes`` per line.

    Invalid UTF-8 becomes U+FFFD. For an over-long line the first chunk is kept, unless the line is a
    ``\\r`` rewrite, where the last chunk holds what the terminal finally showed.
    """
    read = partial(stream.readline, max_line_bytes)
    pending_first: bytes | None = None
    pending_last = b""
    pending_bytes = 0
    for raw in iter(read, b""):
        complete = raw.endswith(b"\n")
        if pending_first is None and (complete or len(raw) < max_line_bytes):
            yield RawLine(raw.decode("utf-8", "replace"), len(raw), False)
            continue
        # An over-long line: keep its first chunk and the two most recent ones (bounded), count the rest.
        if pending_first is None:
            pending_first = raw
            pending_last = b""
            pending_bytes = len(raw)
        else:
            pending_last = pending_last[-max_line_bytes:] + raw
            pending_bytes += len(raw)
        if complete:
            yield RawLine(_join_long(pending_first, pending_last), pending_bytes, True)
            pending_first = None
    if pending_first is not None:
        yield RawLine(_join_long(pending_first, pending_last), pending_bytes, True)


def _join_long(first: bytes, last: bytes) -> str:
    if b"\r" in last:
        return last_segment(last.decode("utf-8", "replace").rstrip("\n"))
    return first.decode("utf-8", "replace")


def iter_file_lines(path: Path, max_line_bytes: int, start: int = 0) -> Iterator[RawLine]:
    """Lines of a file read in binary from byte ``start`` (skipping a partial first line when start > 0)."""
    with open(path, "rb") as stream:
        if start > 0:
            stream.seek(start - 1)
            # Resynchronise on a line boundary: the byte before start tells whether we are mid-line.
            if stream.read(1) != b"\n":
                stream.readline()
        yield from iter_binary_lines(stream, max_line_bytes)
