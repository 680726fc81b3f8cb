"""What reaches the person's terminal shows every character it holds and drives nothing.

A file name, a URL, an id or a request can carry an escape sequence (`nope\x1b[2J.yaml` clears the screen,
`\x1b]0;…\x07` sets the window title, `\x1b]52;…` writes the clipboard). Job output is cleaned where it is
read (`logs/decode.py`); everything else the CLI prints goes through `visible`, which writes each control
character as its escape (`\x1b`), so the person sees the name as it is and the terminal acts on none of it.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, NoReturn

from rich.console import Console

# C0 controls but tab and newline, DEL, C1 controls (\x9b is a one-byte CSI), the Unicode line separators, and the
# bidirectional marks and overrides (a name holding U+202E is shown reversed: written out, it reads as it is)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)


class SafeConsole(Console):
    """A rich Console whose `print` shows text through `visible` (rich itself passes ESC through), and never turns
    `:name:` into an emoji: a spec's 'cat:dog:bird' or a log's ':x:' is shown as written (markup=False alone does not
    stop rich's emoji codes)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("emoji", False)
        super().__init__(*args, **kwargs)

    def print(self, *objects: Any, **kwargs: Any) -> None:
        super().print(*(visible(o) if isinstance(o, str) else o for o in objects), **kwargs)

    def on_broken_pipe(self) -> None:
        """The reader closed the pipe (`orchestrate recipe list | head -1`): see `closed_pipe`."""
        self.quiet = True
        closed_pipe()


CLOSED_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a command whose reader closed its pipe


def closed_pipe() -> NoReturn:
    """End quietly when the reader of stdout is gone (`| head`): nothing more is written (the interpreter's last
    flush included, which would print "Exception ignored …"), and the exit status is the one a shell gives a
    command stopped by SIGPIPE. Was: a silent exit 1 (rich's, and click's for a write it saw fail), which the exit
    codes keep for a run that failed."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    raise SystemExit(CLOSED_PIPE)
