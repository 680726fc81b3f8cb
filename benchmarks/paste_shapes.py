"""Which shapes a paste into a thread gives a log (issue 14: logs pasted into threads are missed more often than
committed job output). A pure function of the log's text, for counting: ``shapes(text)`` names each shape present.

    python benchmarks/paste_shapes.py CORPUS_DIR ID...      # counts over the named cases (ids, or @file of ids)

The shapes: ``markdown`` (a fence, a ``>`` quote, a list bullet, ``<details>``, an HTML entity, whole-line
emphasis), ``prose`` (the person's own sentences between log lines: "then I get:", "Any idea?"), ``command`` (the
command they typed: a shell prompt, ``>>>``, ``In [3]:``, ``PS C:\\>``), ``hard_wrap`` (lines cut at one width),
``windows`` (``C:\\`` paths, PowerShell error records), ``non_english`` (letters outside Latin script), ``glued``
(several excerpts: an elision ``...`` or two typed commands), ``traceback_only`` (a Python traceback and nothing
around it), ``attempts`` (two or more tracebacks ending in different errors).
"""

from __future__ import annotations

import collections
import json
import re
import sys
from pathlib import Path

from runshepherd.diagnosis.paste import _PROMPT  # the reader's own prompt and elision forms

_FENCE = re.compile(r"^\s*(?:`{3,}|~{3,})")
_MD = re.compile(
    r"^\s*(?:`{3,}|~{3,})|^\s*</?(?:details|summary|pre|code)\b|^\s*>(?!>)|^\s*[-*+] \S|&(?:lt|gt|quot|amp|#\d+);"
    r"|^\s*(\*\*|__|`)\S.*\S\1\s*$"
)
_ERRORISH = re.compile(r"(?i)error|exception|traceback|fail|killed|warn|abort|denied|fault|not found")
# the person's own sentence: words and spaces, a first/second person or a question or a lead-in to the log
_PROSE = re.compile(
    r"(?i)^\s*(?:i|i'm|i've|my|we|when|then|after|but|here|this|it|so|now|also|however|any|and|update|edit|"
    r"please|thanks|running|if|the (?:same|error|output|full))\b[^\[\]{}=|/\\<>]*[.:?!]?\s*$"
)
_QUESTION = re.compile(r"^[A-Za-z][A-Za-z ,'’]+\?\s*$")
_WINDOWS = re.compile(r"\b[A-Za-z]:\\\w|^\s*\+ (?:CategoryInfo|FullyQualifiedErrorId)|^\s*PS [A-Za-z]:\\")
_NON_LATIN = re.compile(r"[\u0400-\u04ff\u0590-\u06ff\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# an elision, also a program's own (``... (truncated)``)
_ELISION_MARK = re.compile(
    r"^\s*(?:\.{3,}|…|\[\.\.\.\]|\(\.\.\.\)|<snip>|\[snip\]|\.\.\. ?\(?(?:more|truncated|omitted).*)\s*$", re.I
)
_TB = re.compile(r"^\s*Traceback \(most recent call last\)")
_EXC = re.compile(r"^((?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Interrupt|Exit)):")


def shapes(text: str) -> set[str]:
    lines = text.splitlines()
    nonempty = [ln for ln in lines if ln.strip()]
    out: set[str] = set()
    if any(_MD.search(ln) for ln in lines):
        out.add("markdown")
    if any(_PROMPT.match(ln) for ln in lines):
        out.add("command")
    if any(
        (_PROSE.match(ln) or _QUESTION.match(ln.strip()))
        and len(ln.split()) >= 3
        and not _ERRORISH.search(ln.split(":")[0] if ":" in ln else "")
        for ln in lines
    ):
        out.add("prose")
    lengths = collections.Counter(len(ln) for ln in lines if len(ln) >= 60)
    if any(n >= 2 and width in (72, 76, 78, 80, 100, 120, 132, 160, 200) for width, n in lengths.items()):
        out.add("hard_wrap")
    if any(_WINDOWS.search(ln) for ln in lines):
        out.add("windows")
    if any(_NON_LATIN.search(ln) for ln in lines):
        out.add("non_english")
    tbs = [i for i, ln in enumerate(lines) if _TB.match(ln)]
    excs = [m.group(1) + ln[m.end() :].strip()[:40] for ln in lines if (m := _EXC.match(ln.strip()))]
    if any(_ELISION_MARK.match(ln) for ln in lines) or sum(_PROMPT.match(ln) is not None for ln in lines) >= 2:
        out.add("glued")
    if len(tbs) >= 2 and len(set(excs)) >= 2:
        out.add("attempts")
    if tbs and nonempty and _TB.match(nonempty[0]) and _EXC.match(nonempty[-1].strip()):
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
