"""The severity a log line states for itself, read from the record's header, whatever the emitter.

Every logging library writes a record as a header of fields, then the message; one header field is the level. The
fields before it are time stamps, ids and tags (they hold a digit, a bracket, a paren, a pipe: ``2024-05-12``,
``host:454:484``, ``[0]``, ``(pid=7)``, ``routes.go:1006:``) or one upper-case component name (``NCCL``); the
level is a level word (``INFO``, ``WARNING``, ``level=info``, ``[DEBUG]``) or one of glog's letters (``I``, ``W``,
``E``, ``F``, with ``D``/``V`` for debug) when a time stamp or a source location sits next to it. A plain word of
prose ends the header: "I think the loss …" states no level. So one reader covers the documented layouts, and the
ones nobody here has seen that follow the same convention:

- glog/absl ``I0203 20:56:03.518998 1 server.cc:141] …`` (https://github.com/google/glog#log-line-prefix-format;
  https://abseil.io/docs/cpp/guides/logging), old TensorFlow's ``I tensorflow/…/dso_loader.cc:135] …``, SkyPilot's
  ``I 03-07 15:54:39 backend_utils.py:503] …``
- Python logging's ``%(levelname)s`` field: ``INFO:root:…`` (``logging.BASIC_FORMAT``), ``2021-01-29 08:29:52 |
  INFO | fairseq.trainer | …``, ``… - root - WARNING - …``, ``[2025-03-19 10:01:24,600] [INFO] [runner.py:607:main]``
  (https://docs.python.org/3/library/logging.html#logrecord-attributes)
- logfmt / Go's slog ``time=… level=INFO source=images.go:704 msg=…`` (https://pkg.go.dev/log/slog#TextHandler),
  Go's log with a level after the caller ``2024/05/12 06:47:18 routes.go:1006: INFO …``
- Rust tracing ``2024-09-03T02:47:53.402023Z  INFO text_generation_router: …``
  (https://docs.rs/tracing-subscriber/latest/tracing_subscriber/fmt/format/struct.Full.html)
- c10's ``[W reducer.cpp:1234] …``, the HF Trainer's ``[WARNING|trainer.py:2762] 2023-09-13 …``
- spdlog's default pattern ``[2014-10-31 23:46:59.678] [my_loggername] [info] Some message``
  (https://github.com/gabime/spdlog/wiki/3.-Custom-formatting)
- bracketed letters ``[07/04/2024-13:50:35] [TRT-LLM] [I] …`` (TensorRT-LLM's logger), llama.cpp's ``0.25.727.078 I
  slot …`` (common/log.cpp), NCCL's ``host:454:484 [0] NCCL INFO …`` and ``… [0] include/socket.h:185 WARN …``
"""

from __future__ import annotations

import re
from typing import Literal

Level = Literal["debug", "info", "warning", "error"]

_WORDS: dict[str, Level] = {
    "TRACE": "debug",
    "DEBUG": "debug",
    "VERBOSE": "debug",
    "INFO": "info",
    "NOTICE": "info",
    "WARN": "warning",
    "WARNING": "warning",
    "ERROR": "error",
    "ERR": "error",
    "SEVERE": "error",
    "CRITICAL": "error",
    "CRIT": "error",
    "FATAL": "error",
    "PANIC": "error",
}
_LETTERS: dict[str, Level] = {"D": "debug", "V": "debug", "I": "info", "W": "warning", "E": "error", "F": "error"}
HEADER_FIELDS = 8  # a level further into the line than this is a word of the message
# a field of the header: holds a digit (a time stamp, an id, ``host:pid:tid``), is bracketed or parenthesised, a
# separator, or a source location (``routes.go:1006:``)
_FIELD = re.compile(r"^(?:\S*\d\S*|[\[(<]\S*|\S*[\])>]|[|\-:]+|[\w./-]+\.\w+:\d+\]?:?)$")
# a date's day or month name, as strftime's %a/%A/%b/%B and syslog write it (``Wed 07 Sep 2022 07:54:03 - INFO -``,
# ``Jan 30 10:33:08 host …``): a time stamp's field when a number follows it
_DATE_WORD = re.compile(
    r"^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)(?:day|sday|nesday|rsday|urday)?,?$"
    r"|^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)(?:uary|ruary|ch|il|e|y|ust|tember|ober|ember)?\.?,?$"
)
_COMPONENT = re.compile(r"^[A-Z][A-Z0-9_-]{1,11}$")  # an emitter's upper-case name before its level (``NCCL INFO``)
_BRACKETED = re.compile(r"\[([A-Za-z]{1,8})(?:\]|\|(?=\S))|<([A-Za-z]{1,8})>|^\[([A-Z])$")
# glog's letter and date, also bracketed after a tag (c10's ``[rank2]:[W326 09:37:45.124 ProcessGroupNCCL.cpp:1487]``)
_GLOG = re.compile(r"^(?:\S*\[)?([IWEF])\d{3,4}$")
# a level glued to the time stamp before it (``%(asctime)s:%(levelname)s:`` gives ``15:42:27,061:INFO:``)
_GLUED = re.compile(r"^\S*\d[:,|-]\[?([A-Z]{3,8})(?:[\]:|-]\S*)?$")
# what may follow a bare level letter at the head of a line: a time stamp or a source location (glog without its
# date, TensorFlow 1's ``I tensorflow/…/x.cc:135]``, SkyPilot's ``I 03-07 15:54:39 …``)
_AFTER_LETTER = re.compile(r"^(?:\d|[\w.-]*/[\w./-]*\.\w+:\d+\]|[\w.-]+\.\w+:\d+\])")
_WORD_HEAD = re.compile(r"^[\[(<]?([A-Za-z]{3,8})(?:[\])>]?[:|\]-]*)$|^([A-Z]{3,8})[:|\]]")


def _word(tok: str, first: bool = True) -> Level | None:
    m = _WORD_HEAD.match(tok)
    if m is None:
        return None
    word = m.group(1) or m.group(2)
    # an upper-case level stands bare (``INFO text``); a capitalised or lower-case one opens the line with its
    # punctuation (``Error:``, ``warning:``; ``[info]`` is read as bracketed), or it is a word of prose ("Error Message
    # Summary:") or a metric's name after a field ("Top-1 Error: 23.1")
    if not (word.isupper() or (first and (word.islower() or word.istitle()) and tok != word)):
        return None
    return _WORDS.get(word.upper())


def severity(line: str) -> Level | None:
    """The level the line's own header states (``None`` when it states none: plain output, prose, a traceback)."""
    toks = line[:240].split()
    for k, tok in enumerate(toks[:HEADER_FIELDS]):
        if tok.startswith("level="):
            return _WORDS.get(tok[6:].strip("\"'").upper())
        if m := _GLOG.match(tok):
            return _LETTERS[m.group(1)]
        if (m := _GLUED.match(tok)) and m.group(1) in _WORDS:
            return _WORDS[m.group(1)]
        for b in _BRACKETED.finditer(tok):
            inner = b.group(1) or b.group(2) or b.group(3)
            if b.group(3) and not _AFTER_LETTER.match(toks[k + 1] if k + 1 < len(toks) else ""):
                continue
            if inner in _LETTERS:
                return _LETTERS[inner]
            if (inner.isupper() or inner.islower() or inner.istitle()) and inner.upper() in _WORDS:
                return _WORDS[inner.upper()]
        level = _word(tok, k == 0)
        if level is not None:
            return level
        if tok in _LETTERS:
            if k + 1 >= len(toks):
                return None
            after = toks[k + 1]
            stamped = k > 0 and any(c.isdigit() or c in "[]" for c in "".join(toks[:k]))
            return _LETTERS[tok] if stamped or _AFTER_LETTER.match(after) else None
        if _FIELD.match(tok) or (_COMPONENT.match(tok) and k + 1 < len(toks) and _word(toks[k + 1], False)):
            continue
        if _DATE_WORD.match(tok) and k + 1 < len(toks) and toks[k + 1][:1].isdigit():
            continue
        if k + 1 < len(toks) and toks[k + 1] in ("|", "-"):  # a logger's name between separators
            continue
        return None
    return None


# every error level severity() reads holds one of these (a cheap test before reading the header)
_ERROR_GATE = re.compile(
    r"(?<![A-Za-z])(?:[EF]|ERR|ERROR|SEVERE|CRIT|CRITICAL|FATAL|PANIC|[Ee]rror|[Ff]atal|[Cc]ritical)(?![a-z])"
    r"|level=|[<\[](?:[Ee]rr|[Cc]rit|[Ss]ev|[Pp]an)"
)


def is_error_record(line: str) -> bool:
    """The line's header states an error level (``[error]``, ``E0530 …``, ``level=error``, ``… | ERROR | …``)."""
    return bool(_ERROR_GATE.search(line, 0, 240)) and severity(line) == "error"


def is_info_record(line: str) -> bool:
    """The line's header states info or debug level: the program's own account of normal work."""
    return severity(line) in ("debug", "info")


def below_error(line: str) -> bool:
    """The line's header states a level below error (debug, info, warning): the program said it went on."""
    return severity(line) in ("debug", "info", "warning")


# The emitter a record names before its error level, as a logger prints it: ``wandb: ERROR …`` (wandb's terminal
# log), ``(APIServer pid=23283) ERROR 08-01 21:34:51 …`` (vLLM's process-tagged logger), ``slurmstepd: error: …``. A
# header of time stamps and ids alone names no emitter (a program's main logger).
# (the header ends on a separator: ``wandb:``, ``)``, ``]``, ``|``, ``-``; "RuntimeError: CUDA error: …" is a message)
_CHANNEL = re.compile(
    r"^(?P<pre>[^\n]{0,60}?[:\])|-]\s*)(?<![\w-])(?P<lvl>ERROR|FATAL|CRITICAL|[Ee]rror|[Ff]atal)(?=[:\]|\s])"
)
_EXCEPTION = re.compile(r"(?:Error|Exception|Warning)\b")
_NAME = re.compile(r"[A-Za-z][\w.-]{2,}")
_NUMBER = re.compile(r"\d+")


def error_channel(line: str) -> str | None:
    """The emitter and level an error record states in its header, its numbers (pids, times, ranks) blanked, so
    every record of the same emitter at that level has the same key; None when the header names no emitter."""
    m = _CHANNEL.match(line)
    if m is None or not _NAME.search(m.group("pre")) or _EXCEPTION.search(m.group("pre")):
        return None
    return f"{_NUMBER.sub('#', m.group('pre').strip())} {m.group('lvl').upper()}"
