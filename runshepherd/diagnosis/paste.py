"""Undo a paste's layout before the rules read a log: what people and their tools add around the lines.

Logs reach the diagnoser pasted into issues, forums and chats as often as straight from a file. The same log then
arrives with terminal colour codes (or their remains once the escape character is lost: ``[0;31mValueError[0m``),
a forum's typography (curly quotes, ``–lr``, no-break spaces) or HTML entities, inside a markdown fence, an
indented code block or a collapsed ``<details>`` block, with a column on every line that the pasting tool or the
launcher added (docker compose's ``worker-1  | ``, ``kubectl logs --prefix``, a ``cat -n`` or editor gutter, a
markdown list or quote, ``[rank0]:``, a timestamp), as an IPython traceback or a debugger's exception popup, soft-
or hard-wrapped at a terminal's width, or as JSON (one string with escaped line breaks, a notebook's list of lines).
None of that changes what the log says, so none of it may change the verdict.

:func:`unpaste` returns, per raw line, the line as the rules should read it (the raw line stays the evidence, and
the line count and order never change; :func:`unjson` and :func:`unpopup`, which run around it, cut a JSON string
into its lines and put a popup's frames above its error, each raw part still the evidence). A column is removed
only when the whole log carries it (most of its
non-empty lines, the same shape; a gutter's numbers counting up), never because one line happens to start that way.
``benchmarks/bench_diagnosis.py --invariance`` measures how many labels each layout still changes.
"""

from __future__ import annotations

import html
import json
import os
import re

from runshepherd.diagnosis.formats.locales import TRANSLATIONS

# ECMA-48 control sequences (colours, cursor moves) and OSC hyperlinks; and the remains of a colour code whose
# escape character a web form dropped (``[0;31m``, ``[1m``, ``[0m``)
_ANSI = re.compile(
    r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\[(?:\d{1,3};)*\d{1,3}m"
)
# markdown and HTML wrappers that carry no log text: a fence (```text), <details>/<summary>, <pre>/<code>
_WRAPPER = re.compile(
    r"^\s*(?:`{3,}|~{3,})[\w+.-]*\s*$|^\s*</?(?:details|pre|code)(?:\s[^>]*)?>\s*$"
    r"|^\s*<details>\s*<summary>.*?</summary>\s*$|^\s*<summary>.*?</summary>\s*$"
)
# a whole line in markdown emphasis or inline code (``**…**``, ``*…*``, ``__…__``, ``_…_``, `` `…` ``); never a rule
# of stars or a banner such as ``***** train metrics *****``
_EMPHASIS = re.compile(r"^(\s*)(\*{1,2}|_{1,2}|`)(?!\2)(?=\S)(.+?)(?<=\S)\2\s*$")


def _unemphasised(line: str) -> str:
    m = _EMPHASIS.match(line)
    if m is None or m.group(3).endswith(m.group(2)[0]):  # "***** train metrics *****" is a banner
        return line
    return m.group(1) + m.group(3)


# marks that only ever come from a paste, removed on any line: a markdown quote (``> ``, nested ``> > ``; never the
# ``>>>`` of a Python prompt) and pytest's failure-line column (``E   `` before the exception and its message)
_MARK = re.compile(r"^(?:>(?!>) ?)*(?:E {3,}(?=\S))?")
_MARK_START = ">E"
MIN_SHARE = 0.7  # a column is the paste's when at least this share of the non-empty lines carries it


_GUTTER = re.compile(r"^\s*(\d{1,6})(?:\t| ?\| ?| ?│ ?)")
_BULLET = re.compile(r"^\s*[-*+•] ")
_QUOTE = re.compile(r"^\s*> ?")


def _strip_column(lines: list[str], col: re.Pattern[str], counted: bool = False) -> list[str] | None:
    """``lines`` without ``col`` when most non-empty lines carry it (a gutter: with numbers that count up)."""
    head = [ln for ln in lines[:40] if ln.strip()][:20]  # a column on most lines is on most of the first ones
    if sum(col.match(ln) is not None for ln in head) < MIN_SHARE * len(head):
        return None
    nonempty = [ln for ln in lines if ln.strip()]
    if not nonempty:
        return None
    hits = [col.match(ln) for ln in nonempty]
    if sum(m is not None for m in hits) < max(2, MIN_SHARE * len(nonempty)):
        return None
    if counted:
        nums = [int(m.group(1)) for m in hits if m is not None]
        rising = sum(b == a + 1 for a, b in zip(nums, nums[1:], strict=False))
        if rising < MIN_SHARE * (len(nums) - 1):
            return None
    return [col.sub("", ln, count=1) for ln in lines]


# the columns launchers and loggers put before every line of a program's output: torchrun's ``[rank0]: ``, Ray's
# ``(pid=123) `` / ``(RayTrainWorker pid=123, ip=10.0.0.2) `` (vLLM's ``(EngineCore_DP0 pid=45) ``), Open MPI's
# ``[1,0]<stdout>: ``, a timestamp (Python logging's ``2024-01-02 03:04:05,678 ``, ISO 8601 with a zone)
_LAUNCHER = [
    re.compile(r"^\[(?:rank|default)\d+\]: ?"),
    re.compile(r"^\((?:[\w.\-]+ )?(?:\w+=\w+,? )*pid=\d+(?:, ip=[\d.]+)?\) ?"),
    re.compile(r"^\[\d+,\d+\]<(?:stdout|stderr)>: ?"),
    re.compile(r"^\[pod/[\w.-]+/[\w.-]+\] "),  # kubectl logs --prefix
    re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})? "),
]


# IPython/Jupyter tracebacks (shown in notebooks, Colab and VS Code cells): a coloured rule and a header naming the
# exception (``ValueError        Traceback (most recent call last)``), frames as ``File /x/y.py:594, in f(a, b)``
# (IPython 8), ``/x/y.py in f(a, b)`` (older) or ``Cell In[3], line 1``, each followed by numbered source lines
# (``    592 …``, ``--> 594 …``). Frames are given Python's own form so the rules read them as any traceback's frames;
# the numbered source lines stay as they are (they are quoted code).
_IPY_HEADER = re.compile(r"^\s*[\w.]+\s{2,}Traceback \(most recent call last\)\s*$")
_IPY_RULE = re.compile(r"^-{20,}\s*$")
_IPY8_FRAME = re.compile(r"^\s*File (?P<path>\S+?\.py):(?P<line>\d+), in (?P<func>[\w<>.]+)")
_IPY_CELL = re.compile(r"^\s*(?:Cell In\s*\[(?P<cell>\d+)\], line (?P<line>\d+)|Input In \[(?P<input>\d+)\], in )")
_IPY_OLD_FRAME = re.compile(r"^\s*(?P<path>\S+?\.py|<ipython-input-[\w-]+>) in (?P<func>[\w<>.]+)\(")
_IPY_ARROW = re.compile(r"^\s*-*> ?(\d+)\s")


def _ipython(lines: list[str]) -> list[str]:
    """IPython's traceback layout given Python's: its header a ``Traceback`` line, its frames ``File "…", line N``."""
    if not any(_IPY_HEADER.match(ln) or _IPY_ARROW.match(ln) for ln in lines):
        return lines
    out = list(lines)
    for i, ln in enumerate(lines):
        if _IPY_HEADER.match(ln):
            out[i] = "Traceback (most recent call last):"
        elif _IPY_RULE.match(ln):
            out[i] = ""
        elif m := _IPY8_FRAME.match(ln):
            out[i] = f'  File "{m["path"]}", line {m["line"]}, in {m["func"]}'
        elif m := _IPY_CELL.match(ln):
            cell = m["cell"] or m["input"]
            out[i] = f'  File "<cell In[{cell}]>", line {m["line"] or _arrow_line(lines, i)}, in <module>'
        elif m := _IPY_OLD_FRAME.match(ln):
            out[i] = f'  File "{m["path"]}", line {_arrow_line(lines, i)}, in {m["func"]}'
    return out


def _arrow_line(lines: list[str], i: int) -> str:
    """The line number IPython's ``--->`` arrow points at below a frame header (0 when it shows none)."""
    for ln in lines[i + 1 : i + 15]:
        m = _IPY_ARROW.match(ln)
        if m:
            return m.group(1)
    return "0"


_COMPOSE = re.compile(r"^[A-Za-z0-9][\w.-]*\s*\| ")


# a line that starts a record of its own, never the wrapped-over rest of the line above it: indentation, a frame, a
# traceback header or chain marker, an exception line, a program's or logger's name or a bracketed tag before a colon,
# a severity (a level word, glog's one-letter ``E0530``/``W ``; not any capitalised word: a wrap may put ``LIMIT ***``
# or ``CUDA`` first)
_RECORD_HEAD = (
    r"File \"|Traceback \(|During handling|The above exception|\(\w+\)"
    r"|(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)\b"
    r"|[\w.-]+: (?:[Ee]rror|ERROR|[Ww]arning|WARNING|[Ff]atal|FATAL|[Nn]ote|INFO)\b"
    r"|(?:ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE|NOTICE|FATAL|CRITICAL|SEVERE|PANIC)\b|[A-Z][A-Z_]+:|[IWEFD](?:\d{4})? "
    # a program named by its path (``/bin/bash: line 1: …``), NCCL's ``host:pid:tid [dev]`` column
    r"|(?:/[\w.+-]+)+: |\S+:\d+:\d+ \[\d+\]"
)
_RECORD_START = re.compile(rf"^(?:\s|{_RECORD_HEAD})")
# a hard wrap cuts inside words and before spaces: its rest may open with one space or a capital ("U 0; 15.77 GiB"),
# never with an indent
_HARD_RECORD_START = re.compile(rf"^(?:\s\s|\t|{_RECORD_HEAD})")
_CUT_REST = re.compile(r"[a-z0-9_./\\]")
_COLUMNS = re.compile(r"\S {3,}\S")  # a table row (squeue, kubectl get, nvidia-smi) ends at its last column
_PROGRESS_BAR = re.compile(r"\d%\||[\d.]+ ?(?:it/s|s/it)\]")  # a progress bar ends its own line
WRAP_MIN, WRAP_MAX, WRAP_SLACK, WRAP_LINES = 60, 300, 12, 6
TERMINAL_WIDTHS = frozenset({80, 100, 120, 132, 160, 200})


# the widths soft wraps use besides a terminal's: mail and forum editors (72, 76, 78; RFC 3676 format=flowed)
WRAP_WIDTHS = (72, 76, 78, *sorted(TERMINAL_WIDTHS))
_GOES_ON = re.compile(r"[a-z0-9]")  # a wrapped line's rest: the middle of a sentence, never a new record's head


def _soft_width(lengths: list[int], lines: list[str]) -> int:
    """The width a soft wrap broke the log at. Its longest line, unless that line is one a wrap could not break:
    a wrap leaves a line longer than its width only when it has no space between half the width and the width (a
    long path, a URL, a hash). A usual width below the longest line is taken when every longer line is such a line
    and at least two lines end just short of it with their sentence going on in the next line (lower case)."""
    width = max(lengths, default=0)
    long = [k for k, n in enumerate(lengths) if n >= WRAP_WIDTHS[0] - WRAP_SLACK]
    if len(long) > 400:  # a wide log, not a wrapped one: no search
        return width
    for w in WRAP_WIDTHS:
        if w >= width:
            break
        wrapped = sum(
            w - WRAP_SLACK <= lengths[k] <= w and k + 1 < len(lines) and _GOES_ON.match(lines[k + 1]) is not None
            for k in long
        )
        if wrapped >= 2 and all(" " not in lines[k][w // 2 : w] for k in long if lengths[k] > w):
            return w
    return width


def _unwrapped(lines: list[str]) -> list[str]:
    """A log soft-wrapped at a terminal's or mail client's width read with each wrapped line whole.

    A line that reaches the log's width (its longest line, 60-300 characters, within ``WRAP_SLACK``) is read
    joined with the lines that carry on from it: each one after a line that reached the width, none that starts a
    record of its own (indentation, a frame, an exception, a prefix, a ``name: error`` head, a severity, a program
    named by its path), none after a line that ended a sentence (closing quotes and brackets aside). Table rows and
    progress bars end where they end; indented lines too, unless a terminal cut them inside a word or path. The
    lines after it keep their own reading too: a wrong join only makes one line read longer.
    """
    lengths = [len(ln) for ln in lines]
    width = max(lengths, default=0)
    if width > WRAP_WIDTHS[0] and lengths.count(width) < 2:
        width = _soft_width(lengths, lines)
    if not WRAP_MIN <= width <= WRAP_MAX:
        return lines
    full = [width - WRAP_SLACK <= n <= width for n in lengths]
    # one line cut at a terminal's usual width exactly is a hard wrap too (the rest of the log was shorter)
    terminal = width in TERMINAL_WIDTHS and lengths.count(width) == 1 and sum(full) == 1
    if sum(full) < 2 and not terminal:
        return lines
    from runshepherd.diagnosis.errorblock import strip_prefix  # errorblock imports this module

    # a hard wrap (a terminal's copy) cuts every wrapped line at the width exactly, inside words and before spaces;
    # a soft wrap breaks at a space, which it drops, so its lines end anywhere near the width
    hard = terminal or lengths.count(width) >= max(2, 0.75 * sum(full))
    if hard:
        full = [n == width for n in lengths]
    sep = "" if hard else " "
    out = list(lines)
    for i, ln in enumerate(lines):
        if not full[i] or i + 1 >= len(lines) or _PROGRESS_BAR.search(ln) or _COLUMNS.search(ln.strip()):
            continue
        # an indented line (a frame, quoted code) is cut only by a terminal, at the width exactly, and its rest goes
        # on inside a word or a path (``line 1318, in do_open``, ``3.7.egg/…``), never as a new sentence or a rule
        indented = ln[:1].isspace()
        if indented and not (hard and _CUT_REST.match(lines[i + 1])):
            continue
        joined, j = ln, i + 1
        while j < len(lines) and j - i <= WRAP_LINES and full[j - 1]:
            nxt = lines[j]
            if (
                not nxt.strip()
                or (indented and not _CUT_REST.match(nxt))
                or lines[j - 1].rstrip().rstrip("\"')]}`*")[-1:] in ".!?"  # a sentence ended where the line did
                or nxt[:8] == lines[j - 1][:8]  # the next of a run of like records
                or (_HARD_RECORD_START if hard else _RECORD_START).match(nxt)
                or strip_prefix(nxt) != nxt
            ):
                break
            joined += sep + nxt
            j += 1
        if j > i + 1:
            out[i] = joined
    return out


# typography a forum, chat or word processor applies outside code blocks, and what copying from a web page or its
# HTML brings: curly quotes, an en/em dash for "--" (also before an option: "–lr"), no-break and other Unicode
# spaces, zero-width characters and a byte-order mark, HTML entities (&lt; &gt; &quot; &#39; &amp;)
_TYPOGRAPHY = str.maketrans(
    {
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u00a0": " ",
        "\u2007": " ",
        "\u202f": " ",
        "\u2009": " ",
        "\u200b": None,
        "\u200c": None,
        "\u200d": None,
        "\u2060": None,
        "\ufeff": None,
    }
)
_TYPOGRAPHY_CHARS = re.compile(
    "[\u201c\u201d\u201e\u2018\u2019\u201a\u00a0\u2007\u202f\u2009\u200b-\u200d\u2060\ufeff\u2013\u2014]"
)
_DASH = re.compile("(?<=\\s)[\u2013\u2014](?=\\s|\\w)|^[\u2013\u2014](?=\\w)")
_ENTITY = re.compile(r"&(?:lt|gt|quot|amp|apos|#\d{1,5}|#x[0-9a-fA-F]{1,4});")


# the C library's and the shell's messages in a non-English locale, read as the English text (formats/locales.py);
# only translations that are no English or common word ("Speicherzugriffsfehler", "Permiso denegado"; a German
# "Abgebrochen" alone is left as it is)
_LOCALISED = {t.text: t.english for t in TRANSLATIONS if not t.text.isascii() or " " in t.text or len(t.text) >= 12}
# a shell's report of a job a signal killed, "<signal> (core dumped)", whole: there a short word is the signal's
# ("Abgebrochen (Speicherabzug geschrieben)" is "Aborted (core dumped)")
_LOCALISED |= {
    f"{sig.text} {core.text}": f"{sig.english} {core.english}"
    for core in TRANSLATIONS
    if core.english == "(core dumped)"
    for sig in TRANSLATIONS
    if sig.locale == core.locale
    and sig.english in ("Segmentation fault", "Aborted", "Bus error", "Illegal instruction")
}
_LOCALISED_RE = re.compile("|".join(re.escape(k) for k in sorted(_LOCALISED, key=len, reverse=True)))


def _english(line: str) -> str:
    return _LOCALISED_RE.sub(lambda m: _LOCALISED[m.group(0)], line)


def _plain(line: str) -> str:
    if _TYPOGRAPHY_CHARS.search(line):
        line = _DASH.sub("--", line.translate(_TYPOGRAPHY))
    if "&" in line and _ENTITY.search(line):
        line = html.unescape(line)
    return line


def _dedented(lines: list[str]) -> list[str]:
    """A log indented as a whole (a markdown code block made by indenting, a quote in a mail) without that indent."""
    pads = [ln[: len(ln) - len(ln.lstrip())] for ln in lines if ln.strip()]
    pad = os.path.commonprefix(pads) if pads else ""
    if len(pad) < 2 and "\t" not in pad:
        return lines
    return [ln[len(pad) :] if ln.strip() else "" for ln in lines]


def uncolumned(line: str) -> str:
    """One evidence line without a column a paste or launcher puts on every line (a compose service, a gutter, a
    rank or pod tag, a timestamp), with a locale's C library and shell messages in English: for reading a quoted
    line on its own, where no share of lines can be counted."""
    for col in (_COMPOSE, *_LAUNCHER, _GUTTER):
        line = col.sub("", line, count=1)
    return _english(line) if _LOCALISED_RE.search(line) else line  # and in English (formats/locales.py)


# A log that reached the paste as JSON: the whole log one JSON string (a JSON API's ``{"detail": "…\\n…"}``, a
# notebook's stored output ``"text": "…\\n…"``, a string printed with repr-like escapes), or a list of JSON strings,
# one per line (nbformat's multiline ``"text": ["line\\n", …]`` and ``"traceback": [...]``). RFC 8259 §7 strings: a
# quote, then characters or backslash escapes, then a quote.
_JSON_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_ESCAPED_NEWLINE = re.compile(r"(?<!\\)((?:\\\\)*)\\n")  # a ``\n`` escape (not an escaped backslash before an n)
_LIST_ITEM = re.compile(r'^\s*"((?:[^"\\]|\\.)*)",?\s*$')
# the JSON around the string: an object's opening and its other members up to the key of the log's string
# (``{"name": "stderr", "output_type": "stream", "text": ``), carried by the transport, not by the log
_FRAMING = re.compile(
    r'^\s*+[\[{]?(?:\s*+"[^"\\]*+"\s*+:\s*+(?:"(?:[^"\\]|\\.)*+"|[-\w.]++)\s*+,)*+\s*+(?:"[^"\\]*+"\s*+:)?\s*+$'
)
# a line of a JSON document's own structure: a bracket, or a member whose value is a scalar or opens an array/object
_STRUCTURE = re.compile(r'^\s*(?:[\[\]{}],?|"[^"\\]*"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[-\w.]+|\[|\{)?,?)\s*$')
MIN_ESCAPED_LINES = 2  # a string holding a log holds line breaks; one (a message's own) is not a log


def unjson(raw_lines: list[str]) -> tuple[list[str], list[str]]:
    """(raw, decoded) lines of a log pasted as JSON: each JSON string that holds line breaks cut at them (the raw
    part, verbatim from the paste, stays the evidence; the decoded part is what the rules read), and a list of
    one-line JSON strings read line by line. Any other log comes back as it is, twice."""
    items = _mostly_items(raw_lines)
    if not items and not any("\\n" in ln for ln in raw_lines):
        return raw_lines, raw_lines
    raws: list[str] = []
    decoded: list[str] = []
    for ln in raw_lines:
        if items and _STRUCTURE.match(ln):
            raws.append(ln)
            decoded.append("")  # the notebook's own JSON ("text": [, "output_type": "stream",, ]): not the log's
            continue
        m = _LIST_ITEM.match(ln) if items else None
        cut = [(p, _decoded(p)) for p in _escaped_lines(m.group(1))] if m is not None else _cut(ln)
        for raw, text in cut or [("", "")]:
            raws.append(raw)
            decoded.append(text)
    return raws, decoded


def _escaped_lines(body: str) -> list[str]:
    """A JSON string's body cut at its ``\\n`` escapes (raw parts; none for its own final line break)."""
    parts = _ESCAPED_NEWLINE.split(body)
    # split() keeps the escaped backslashes before each \n as separators: they end the part before
    out = [parts[k] + (parts[k + 1] if k + 1 < len(parts) else "") for k in range(0, len(parts), 2)]
    return out[:-1] if len(out) > 1 and not out[-1] else out


def _mostly_items(lines: list[str]) -> bool:
    """Most lines are one JSON string each (nbformat's list of lines)."""
    head = [ln for ln in lines[:40] if ln.strip().strip("[]{},")][:20]
    if not head or sum(ln.lstrip().startswith('"') for ln in head) < MIN_SHARE * len(head):
        return False
    nonempty = [ln for ln in lines if ln.strip() and not _STRUCTURE.match(ln)]
    return len(nonempty) >= 3 and sum(_LIST_ITEM.match(ln) is not None for ln in nonempty) >= MIN_SHARE * len(nonempty)


def _cut(line: str) -> list[tuple[str, str]]:
    """One raw line as (raw, decoded) parts: a JSON string in it that holds line breaks becomes its lines, the text
    around it its own parts; a line without one is one part."""
    out: list[tuple[str, str]] = []
    at = 0
    for m in _JSON_STRING.finditer(line):
        body = m.group(1)
        if len(_ESCAPED_NEWLINE.findall(body)) < MIN_ESCAPED_LINES or _decoded(body) is body:
            continue  # (not a JSON string: a quoted Windows path, "C:\\Users\\name\\new", has escapes JSON has not)
        head = line[at : m.start()]
        if head.strip() and not _FRAMING.match(head):
            out.append((head, head))
        out.extend((part, _decoded(part)) for part in _escaped_lines(body))
        at = m.end()
    if not out:
        return [(line, line)]
    tail = line[at:]
    if tail.strip() not in ("", "}", "]", ",", "},", "],", '"}'):
        out.append((tail, tail))
    return out


def _decoded(part: str) -> str:
    """A JSON string's part with its escapes read (``\\"`` ``\\t`` ``\\u001b``); as it is when it does not decode."""
    if "\\" not in part:
        return part
    try:
        text = json.loads(f'"{part}"')
    except ValueError:
        return part
    return text if isinstance(text, str) else part


# VS Code's debugger shows an exception as a popup: "Exception has occurred: TypeError", the message on the next line,
# then the call stack as Python prints it but without the "Traceback" header and with the exception before its
# frames. Read in Python's order (frames, then "TypeError: message") so the frames are above the error they raised.
_POPUP = re.compile(r"^\s*Exception has occurred: ((?:[A-Za-z_][\w.]*\.)?[A-Z]\w*)\s*$")
_POPUP_FRAME = re.compile(r'^\s*File "[^"]+", line \d+')


def unpopup(raws: list[str], cleaned: list[str]) -> tuple[list[str], list[str]]:
    """(raw, cleaned) lines with each VS Code exception popup put in Python's traceback order: the popup's head
    read as the traceback's header, its frames next, its message last as ``Type: message``. The raw lines move
    with their readings (each stays the evidence for what it says); a popup without frames after it is left as
    it is."""
    if not any("Exception has occurred" in ln for ln in cleaned):
        return raws, cleaned
    order = list(range(len(cleaned)))
    read = list(cleaned)
    i = 0
    while i < len(cleaned):
        m = _POPUP.match(cleaned[i])
        if m is None:
            i += 1
            continue
        has_msg = i + 1 < len(cleaned) and cleaned[i + 1].strip() and not _POPUP_FRAME.match(cleaned[i + 1])
        start = i + 2 if has_msg else i + 1
        end = start
        while end < len(cleaned) and (_POPUP_FRAME.match(cleaned[end]) or cleaned[end][:1].isspace()):
            end += 1
        if not any(_POPUP_FRAME.match(cleaned[k]) for k in range(start, end)):
            i += 1
            continue
        read[i] = "Traceback (most recent call last):"
        if has_msg:
            read[i + 1] = f"{m.group(1)}: {cleaned[i + 1].strip()}"
            order[i + 1 : end] = list(range(start, end)) + [i + 1]
        else:
            order[i + 1 : end] = list(range(start, end))
        i = end
    if order == list(range(len(cleaned))) and read == cleaned:
        return raws, cleaned
    return [raws[k] for k in order], [read[k] for k in order]


# Windows PowerShell 5.1 turns a native program's stderr into an error record when it is redirected (``2>&1``, the
# ISE, ``$ErrorActionPreference = 'Stop'``): the first stderr line is printed as ``python : <line>``, then the
# position (``At line:1 char:1``, ``At C:\x\run.ps1:53 char:13``, localised: ``En línea: 1 Carácter: 1``), the
# command underlined (``+ python train.py``, ``+ ~~~~``), ``    + CategoryInfo          : NotSpecified: (<line>:String)
# [], RemoteException`` and ``    + FullyQualifiedErrorId : NativeCommandError``; the program's later lines follow
# as they are. Read as the program printed it: the head its own line, the record's scaffolding blank.
_PS_FIELD = re.compile(r"^\s*\+ (?:CategoryInfo|FullyQualifiedErrorId|PSComputerName)\s*: ")
_PS_NATIVE = re.compile(r"^\s*\+ FullyQualifiedErrorId\s*: NativeCommandError\b")
_PS_PART = re.compile(r"^\s*\+ |^\s{3,}\S")  # a field or the command (``+ …``), a field's wrapped rest
_PS_HEAD = re.compile(r"^(?:[\w.-]+|[A-Za-z]:\\[^:]*?)(?:\.exe)? : ")
PS_RECORD_LINES = 12  # a record: the head, one or two position lines, the command and its rule, its fields


def unrecord(raws: list[str], cleaned: list[str]) -> tuple[list[str], list[str]]:
    """(raw, cleaned) lines with each PowerShell native-command error record read as the program printed it: its
    head ``python : Traceback …`` read ``Traceback …`` (the raw line stays the evidence) and its scaffolding (the
    position, the underlined command, the fields) left out, so the program's lines meet again as it printed them."""
    if not any("NativeCommandError" in ln for ln in cleaned):
        return raws, cleaned
    drop: set[int] = set()
    read = list(cleaned)
    for f, ln in enumerate(cleaned):
        if not _PS_NATIVE.match(ln):
            continue
        start = f  # the record's scaffolding above its last field: fields, their wrapped rest, the underlined command
        while start > 0 and f - start < PS_RECORD_LINES and _PS_PART.match(cleaned[start - 1]):
            start -= 1
        end = f + 1  # the fields after it (PSComputerName) and the blank " " that closes the record
        while end < len(cleaned) and end - f < 3 and (_PS_FIELD.match(cleaned[end]) or not cleaned[end].strip()):
            end += 1
        # its head and position: ``prog : line`` one to three lines above the command, the position between
        head = next((k for k in range(start - 1, max(-1, start - 4), -1) if _PS_HEAD.match(cleaned[k])), None)
        if head is not None:
            read[head] = cleaned[head][len(_PS_HEAD.match(cleaned[head]).group(0)) :]  # type: ignore[union-attr]
            start = head + 1
        drop.update(range(start, end))
    if not drop:
        return raws, cleaned
    keep = [k for k in range(len(cleaned)) if k not in drop]
    return [raws[k] for k in keep], [read[k] for k in keep]


# What a person adds to a log in a thread that the program never printed: a line read as the paste's, not the log's
# (not usable by the rules: never a root line, never a plain line against a log of routine notices, never a break
# in a table of progress; the raw line stays in the evidence). Each on a whole line of its own:
# - the command they typed, after its prompt: a POSIX shell's ``$ cmd`` (bash's default PS1 ``\u@\h:\w\$ ``, Red
#   Hat's ``[\u@\h \W]\$ ``, a virtualenv's ``(venv) `` before it, root's ``#``, zsh's ``host ~ %``), Python's
#   ``>>> `` (sys.ps1; ``... `` is sys.ps2), IPython's ``In [3]: ``, PowerShell's ``PS C:\path> ``, cmd.exe's
#   ``C:\path>``
# - an elision mark where they left lines out: ``...``, ``…``, ``[...]``, ``(...)``, ``<snip>``
# - their own sentence (words and sentence punctuation only: no path, option, bracket, quote, ``=`` or ``:`` inside
#   it): said in the first person ("I get this error:", "my config is"); or, naming no failure, asked ("Any
#   idea?") or a lead-in ending in a colon that opens a paragraph, without a number, the log unindented after it
#   ("Here is the full log:"; never a program's heading, "Average time over 10 steps:" and its items); in a non-Latin script,
#   a line ending in a colon or a question mark, never a localised system message ("已放弃 (核心已转储)")
PROMPT = re.compile(  # at the line's start: a program's own ">>> loss: 0.6" or "    $ conda init" is indented
    r"^(?:\([\w.-]+\)\s*)?(?:[\w.-]+@[\w.-]+:[~/][^\s$#]*[$#]|\[[\w.-]+@[\w.-]+ [^\]]*\][$#]|[\w.-]+@[\w.-]+ [~/]\S* %"
    r"|\$) \S"
    r"|^(?:>>>|\.\.\.) \S|^In \[\d+\]: \S|^PS [A-Za-z]:\\[^>]*> \S|^[A-Za-z]:\\[^>\s]*>\S"
)
_ELISION = re.compile(r"^\s*(?:\.{3,}|…|\[(?:\.{3}|…)\]|\((?:\.{3}|…)\)|<snip>|\[snip\])\s*$", re.IGNORECASE)
_SENTENCE = re.compile(r"^\s*[^\W\d_][\w'’ ,;\-]*(?:[.!?]+ [\w'’ ,;\-]*)*(?:[.!?]+|:)?\s*$")
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|[Mm]y)\b")
_RULE_LINE = re.compile(r"^\s*[-=_*#~+]{3,}")
_FAILURE_WORD = re.compile(
    r"(?i)error|exception|fail|fatal|abort|killed|denied|fault|crash|traceback|warn|oom|memory|refused|reset|timed? ?out"
    r"|cannot|can't|unable|no such|not found|disconnect|terminat|core dump|\bnan\b"
)
# letters of the scripts a localised system or a person writes in (Cyrillic, Arabic, kana, CJK, Hangul)
NON_LATIN = r"[\u0400-\u04ff\u0600-\u06ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
_NON_LATIN_LEAD = re.compile(r"^[^\x00-\x7f]*" + NON_LATIN + r"[^:?]*[:?：？]\s*$")
MAX_SENTENCE_WORDS, MAX_LEAD_IN_WORDS = 20, 8


def asides(lines: list[str]) -> list[bool]:
    """Per line: it is the person's, not the program's (a typed command, an elision mark, their own sentence)."""
    out = []
    for i, text in enumerate(lines):
        # a lead-in opens a paragraph and the log follows it unindented (a program's heading has its items indented
        # or a rule under it: LSF's "Resource usage summary:" over "    CPU time :", "Your job looked like:" over dashes)
        after = next((ln for ln in lines[i + 1 : i + 4] if ln.strip()), "")
        opens = (i == 0 or not lines[i - 1].strip()) and not after[:1].isspace() and not _RULE_LINE.match(after)
        out.append(_aside(text, opens))
    return out


def typed_command(text: str) -> str | None:
    """The command typed at a prompt on this line (``PROMPT``), or None when the line is no prompt."""
    m = PROMPT.match(text)
    return None if m is None else text[m.end() - 1 :]  # the prompt's pattern ends on the command's first character


def superseded(lines: list[str], aside: list[bool]) -> range:
    """Several attempts in one paste: when the person typed the same command again, what the first run printed is
    an attempt they went past (the error they fixed before asking); the last run is the log. The lines from the
    first run of a command up to its last run (empty when none was typed again: a later different command,
    ``nvidia-smi`` or ``pip list`` after the error, supersedes nothing)."""
    typed: dict[str, int] = {}
    start = None
    for i, text in enumerate(lines):
        if not aside[i]:
            continue
        typed_here = typed_command(text)
        if typed_here is None:
            continue
        command = " ".join(typed_here.split())
        if command in typed:
            start = typed[command] if start is None else min(start, typed[command])
            end = i
        typed.setdefault(command, i)
    return range(0) if start is None else range(start, end)


def _aside(text: str, opens: bool) -> bool:
    if _ELISION.match(text):
        return True
    if PROMPT.match(text):
        return _FAILURE_WORD.search(text) is None  # never a program's own line after a like mark (">>> 3 errors")
    if _SENTENCE.match(text):
        words = text.split()
        if not 2 <= len(words) <= MAX_SENTENCE_WORDS:  # (a model's generated paragraph in an eval log is longer)
            return False
        if _FIRST_PERSON.search(text):
            return True
        if _FAILURE_WORD.search(text):
            return False
        end = text.rstrip()[-1]
        lead_in = end == ":" and opens and 3 <= len(words) <= MAX_LEAD_IN_WORDS and not any(c.isdigit() for c in text)
        return end == "?" or lead_in
    return _NON_LATIN_LEAD.match(text.strip()) is not None


def unpaste(raw_lines: list[str]) -> list[str]:
    """Each line as the rules should read it: colour codes and markdown/HTML wrappers dropped, a column the
    pasting tool put on every line removed (repeatedly: a quoted list of gutter lines)."""
    lines = [ln.rstrip("\r\n") for ln in raw_lines]
    joined = "\n".join(lines)
    if _ANSI.search(joined):
        lines = [_ANSI.sub("", ln) if ("\x1b" in ln or "[" in ln) else ln for ln in lines]
    if not joined.isascii() or "&" in joined:
        lines = [_plain(ln) for ln in lines]
    if _LOCALISED_RE.search(joined):
        lines = [_english(ln) for ln in lines]
    if "``" in joined or "~~~" in joined or "</" in joined or "<pre" in joined or "<details" in joined:
        lines = ["" if _WRAPPER.match(ln) else ln for ln in lines]
    lines = _marks(lines)
    for _ in range(4):  # layouts nest: a quoted list of gutter lines, an indented block of tagged lines
        dedented = _dedented(lines)
        changed = (
            _strip_column(lines, _COMPOSE)
            or next((c for c in (_strip_column(lines, col) for col in _LAUNCHER) if c is not None), None)
            or _strip_column(lines, _GUTTER, counted=True)
            or _strip_column(lines, _QUOTE)
            or _strip_column(lines, _BULLET)
            or (dedented if dedented is not lines else None)
        )
        if changed is None or changed == lines:
            break
        lines = _marks(changed)
    lines = _unwrapped(lines)  # lengths as pasted, before frames are rewritten
    return _ipython(lines)


def _marks(lines: list[str]) -> list[str]:
    """Per-line marks: markdown quote and pytest marks, whole-line emphasis."""
    lines = [_MARK.sub("", ln, count=1) if ln[:1] in _MARK_START else ln for ln in lines]
    for _ in range(2):  # emphasis inside emphasis: "_**Killed**_"
        lines = [_unemphasised(ln) if ln[-1:] in "*_`" else ln for ln in lines]
    return lines
