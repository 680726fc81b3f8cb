"""A Python traceback's frames, read back from its exception line: which file and function each frame is in, and
whether that file is an installed package's or the standard library's rather than the person's own code. Families
ask this to tell where an exception was raised (an installed package's own code, or the code the person runs)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.errorblock import Line

# a frame, or the end of one whose start was cut off or wrapped onto the line above (``…/site-packages/x/y.py", line 3,
# in f``)
FRAME_END = re.compile(r'^\s*+(?:File ")?(?P<path>[^"]*+)", line \d+(?:, in (?P<func>[\w<>.]+))?')
_FRAME_START = re.compile(r'^\s*+File "(?P<path>[^"]++)$')
# an installed package's directory in a path (``…/site-packages/`` or Debian's ``…/dist-packages/``)
INSTALLED_DIR = r"[/\\](?:site|dist)-packages[/\\]"
INSTALLED_FILE = re.compile(INSTALLED_DIR + r"(?P<pkg>[\w.\-]+)")
_STDLIB_FILE = re.compile(r"[/\\][Ll]ib[/\\]python\d(?:\.\d+)?[/\\](?!(?:site|dist)-packages)|^<frozen ")


def traceback_frames(lines: list[Line], idx: int) -> list[tuple[str, str, list[str]]]:
    """The traceback's frames above exception line ``idx``, outermost first: (path, function, quoted code)."""
    frames: list[tuple[str, str, list[str]]] = []
    code: list[str] = []
    for ln in reversed(lines[max(0, idx - 200) : idx]):
        if "Traceback (most recent call last)" in ln.text:
            break
        m = FRAME_END.match(ln.text)
        if m is None or not m.group("func"):
            if ln.text.strip():
                code.append(ln.text.strip())
            continue
        path = m.group("path")
        if not ln.text.lstrip().startswith("File ") and ln.index > 0:
            start = _FRAME_START.match(lines[ln.index - 1].text)
            path = (start.group("path") if start else "") + path
        frames.append((path, m.group("func"), code[::-1]))
        code = []
    return frames[::-1]


def installed_or_stdlib(path: str) -> bool:
    """A frame's file is an installed package's or the standard library's (not the person's own code)."""
    return bool(INSTALLED_FILE.search(path) or _STDLIB_FILE.search(path))
