"""Which shapes a paste into a thread gives a log (issue 14: logs pasted into threads are missed more often than
committed job output). A pure function of the log's text, for counting: ``shapes(text)`` names each shape present.

    python benchmarks/paste_shapes.py CORPUS_DIR ID...      # counts over the named cases (ids, or @file of ids)

The shapes: ``markdown`` (a fence, a ``>`` quote, a list bullet, ``<details>``, an HTML entity, whole-line
emphasis), ``prose`` (the person's own sentences between log lines: "then I get:", "Any idea?"), ``command`` (the
command they typed: a shell prompt, ``>>>``, ``In [3]:``, ``PS C:\\>``), ``hard_wrap`` (lines cut at one width),
``windows`` (``C:\\`` paths, PowerShell error records), ``non_english`` (letters outside Latin script), ``glued``
(several excerpts: an elision ``...`` or two typed commands), ``traceback_only`` (a Python traceback and nothing
around it), ``attempts`` (two or more tracebacks ending in different errors).

Each shape is read with the reader's own definitions (``diagnosis/paste.py``, ``diagnosis/errorblock.py``): a shape
counted here is one the reader knows by the same facts. The few patterns below are what the reader needs no
definition of, each saying why.
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

from runshepherd.diagnosis.errorblock import _TB_START, exception_type
from runshepherd.diagnosis.paste import (
    _BULLET,
    _ELISION,
    _ENTITY,
    _MARK,
    _PS_FIELD,
    _WRAPPER,
    NON_LATIN,
    PROMPT,
    _unemphasised,
    asides,
)

# differs: a program's own cut ("... (truncated)", "... 20 more") makes the log an excerpt, though the reader
# rightly keeps it as the program's line, not the person's elision
_CUT = re.compile(r"^\s*\.\.\. ?\(?(?:\d+ )?(?:more|truncated|omitted)\b", re.IGNORECASE)
# differs: a Windows path (``C:\Users\…``) is only text to the reader (it needs no definition of one)
_WINDOWS_PATH = re.compile(r"\b[A-Za-z]:\\\w")
_DRIVE = re.compile(r"^(?:PS )?[A-Za-z]:\\")  # the prompt's working directory: ``PS C:\>``, ``C:\Users\me>``
_NON_LATIN = re.compile(NON_LATIN)
# differs: the reader joins a line that reaches the log's own width (paste._soft_width); counting needs only the
# widths terminals, editors and mail wrap at
_WRAP_WIDTHS = (72, 76, 78, 80, 100, 120, 132, 160, 200)


def _markdown(line: str) -> bool:
    """A markdown or HTML mark the reader undoes (paste.unpaste): a fence or wrapper tag, a quote mark, a list
    bullet, an HTML entity, whole-line emphasis."""
    return bool(
        _WRAPPER.match(line)
        or _MARK.match(line).group().startswith(">")  # type: ignore[union-attr]  (it matches every line)
        or _BULLET.match(line)
        or _ENTITY.search(line)
        or _unemphasised(line) != line
    )


def shapes(text: str) -> set[str]:
    lines = text.splitlines()
    nonempty = [ln for ln in lines if ln.strip()]
    aside = asides(lines)  # the person's lines: a typed command, an elision mark, their own sentence
    typed = [ln for ln, a in zip(lines, aside, strict=True) if a and PROMPT.match(ln)]
    elided = [ln for ln, a in zip(lines, aside, strict=True) if a and _ELISION.match(ln)]
    out: set[str] = set()
    if any(_markdown(ln) for ln in lines):
        out.add("markdown")
    if typed:
        out.add("command")
    if any(a and not PROMPT.match(ln) and not _ELISION.match(ln) for ln, a in zip(lines, aside, strict=True)):
        out.add("prose")
    lengths = collections.Counter(len(ln) for ln in lines if len(ln) >= 60)
    if any(n >= 2 and width in _WRAP_WIDTHS for width, n in lengths.items()):
        out.add("hard_wrap")
    # a path, a PowerShell error record's field, a command typed at PowerShell's or cmd.exe's prompt
    if any(_WINDOWS_PATH.search(ln) or _PS_FIELD.match(ln) for ln in lines) or any(_DRIVE.match(t) for t in typed):
        out.add("windows")
    if any(_NON_LATIN.search(ln) for ln in lines):
        out.add("non_english")
    tbs = [i for i, ln in enumerate(lines) if _TB_START.search(ln)]
    excs = [f"{et[0]}{et[1].strip()[:40]}" for ln in lines if (et := exception_type(ln.strip()))]
    if elided or any(_CUT.match(ln) for ln in lines) or len(typed) >= 2:
        out.add("glued")
    if len(tbs) >= 2 and len(set(excs)) >= 2:
        out.add("attempts")
    if tbs and nonempty and _TB_START.search(nonempty[0]) and exception_type(nonempty[-1].strip()):
        out.add("traceback_only")
    return out


def main(argv: list[str]) -> None:
    corpus = Path(argv[0])
    ids = [i for a in argv[1:] for i in (Path(a[1:]).read_text().split() if a.startswith("@") else [a])]
    count: collections.Counter[str] = collections.Counter()
    per: dict[str, list[str]] = {}
    for i in ids:
        s = shapes((corpus / "logs" / f"{i}.log").read_text(errors="replace"))
        per[i] = sorted(s)
        count.update(s or {"none"})
    print(json.dumps({"n": len(ids), "counts": dict(count.most_common())}))


if __name__ == "__main__":
    main(sys.argv[1:])
