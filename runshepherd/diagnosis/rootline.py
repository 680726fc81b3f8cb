"""The backoff before "unknown": read a failed log's root error line by the families' own vocabularies.

When no rule names the failure, the verdict used to be "unknown" even when the log's last error says, in plain
words, what kind of thing went wrong ("failed to allocate 2 GiB on device", "403 Forbidden", "deadline exceeded").
Each family declares a small documented vocabulary (``Family.root_words``); this module picks the root error line
(the scheduler's reason, the exception that ended the run, the last ``Error:``/``FATAL``/glog ``E``/``F`` line the
run did not get past) and reads it. The result is a weak signal (0.5-0.65) whose explanation quotes the line and
says it is a reading of that one line. It is only asked when the verdict would otherwise be "unknown".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from runshepherd.diagnosis.errorblock import _FAILING, Line, exception_type, is_event_line, is_warning
from runshepherd.diagnosis.models import Diagnosis
from runshepherd.diagnosis.rules.base import ORDER_EVENT, ORDER_FAILURE_MESSAGE, Context, Signal
from runshepherd.diagnosis.rules.family import FAMILIES, RootWords, plain
from runshepherd.diagnosis.severity import below_error

# how the explanation of every reading says what it is (the LLM path treats such a verdict as unsure)
READING = "this is a reading of one line"
MAX_LINES = 12  # root-line candidates read, most telling first
# an exception named anywhere in a line (after a timestamp or tag no prefix rule knows, or heading Jupyter's
# traceback: ``HTTPError      Traceback (most recent call last)``)
_EXC_ANYWHERE = re.compile(
    r"(?<![\w.])(?:[a-z_]\w*\.)*(?P<type>[A-Z][A-Za-z0-9]*(?:Error|Exception|Failure|Fault|Exhausted|Denied|NotFound"
    r"|Timeout|Unavailable|Interrupt))(?=:\s|\s{2,}Traceback|\s*$)"
)
# the run's ending notices: an abort, a kill, a core dump, a launcher's report of a child's exit status. They say the
# run ended, not why, so they are read only when no other line speaks
_ENDING = re.compile(
    r"\bAborted\b|\bcore dumped\b|\bKilled\b|\bkilled by signal\b|\bexit ?(?:code|status)\b|\bexited with\b"
    r"|\bChildFailedError\b|\belastic\.multiprocessing\b|\bSending process \d+ closing signal\b",
    re.IGNORECASE,
)
# a line that says something went wrong, in words beyond the error block's own list (``_FAILING``)
_SAYS_WRONG = re.compile(
    r"\b(?:couldn't|could not|unable|exceed(?:ed|s)|no matching|unavailable|insufficient|too old|rejected|expired"
    r"|violat\w+|deleted|terminated|died|lost|out of)\b"
    r"|已杀死|段错误|核心已转储|总线错误|非法指令",  # glibc's zh_CN strsignal texts (Killed, Segmentation fault…)
    re.IGNORECASE,
)
# (a metric named like a failure, its value after a qualifier: ``mean ar error (without repeats): nan``, ``error rate:
# 0.3``, or a percentage right after its name: ``validation error 5.733333 %``, ``test error of best model 5.75 %``)
_SETTING_AFTER = re.compile(
    r"""\w*(?:\s*\([^()]{0,40}\))?(?:\s*=\s*['"]?[\w.]|['"]\s*:\s*['"]?[\w.]|\s*:\s*(?:[-+]?\d|(?:nan|[-+]?inf)\b)"""
    r"|(?:\s+(?:of|on|for|at)(?:\s+\w+){1,3})?\s+[-+]?\d+(?:\.\d+)?\s?%)",
    re.IGNORECASE,
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# a message cut by the terminal or the paste: the line ends mid-sentence and the next line goes on with it
_OPEN_END = re.compile(r"(?:[:,(]|\b(?:but|and|or|to|of|for|the|a|an|in|on|with|at|by|is|was|from))\s*$", re.IGNORECASE)
# a tqdm/Keras progress bar on the line (``45%|████▌     | 450/1000 [01:02<01:15, 7.2it/s, loss=nan]``, ``12/100
# [==>....]``): its counters and postfix are not an error's words; text glued after the bar (a carriage return
# overwrote it) is read alone
_BAR = re.compile(r"\d+%\|[^|]*\|[^\[\]]*(?:\[[^\]]*\])?|\d+/\d+\s*\[(?:[=>.\-]+|\d+:\d+[^\]]*)\]")
# a source line as ``grep -n`` prints it (``src/train.py:120:    raise ValueError("lr must be positive")``): the code
# that would say it, not the program saying it; a compiler's ``file.cc:12:5: error:`` and pytest's ``file.py:12:
# RuntimeError`` say something and are kept
_GREPPED = re.compile(
    r"^\s*[\w.~/\\-]*\.(?:py|pyx|ipynb|c|cc|cpp|cxx|cu|cuh|h|hpp|go|rs|js|ts|java|scala|kt|rb|jl|lua|sh|bash)[:-]\d+[:-]"
    r"(?!\d+:)\s*(?:(?:raise|assert|return|if|elif|while|except|import)\b|def |class |from \S+ import |for \w|with \w"
    r"|else:|try:|#|//|(?:print|warnings\.warn|(?:self\.)?log(?:ger|ging)?\.\w+|LOG|CHECK\w*)\s*\("
    r"|[\w.]+(?:\[[^\]]*\])?\s*=[^=])"
)
# a program's usage text (argparse's and click's ``usage: prog [-h] …``, an option synopsis line ``[--lr LR]
# [--epochs EPOCHS]``, a help line ``  --lr LR   learning rate``): it shows how to call the program, whatever its
# option names say; the error argparse prints after it is read
_USAGE = re.compile(
    r"^\s*usage:|^\s*(?:\[-{1,2}[^\]]*\]\s*)+$|^\s{2,}-{1,2}[\w-]+(?:[ =][A-Z_<>{}\w,-]+)?(?:,\s*-{1,2}[\w-]+)?\s{2,}\S",
    re.IGNORECASE,
)
# A vocabulary word that is part of a name: a path or URL component (``…/manifests/registry.ollama.ai/…``,
# ``'manifests/train.csv'``, ``artifacts\\stage``) or an option (``--local-rank=1``). It names a thing; the line's own
# words say what happened to it. (A match that itself holds a slash or opens the option, such as ``/dev/shm``, is
# the vocabulary naming the thing on purpose.)
_NAME_TOKEN = re.compile(r"[^\s'\"`()\[\]{}<>,;]+")
# a clause that says what would happen, not what did (``Object creation will fail if spilling is required``, ``…
# unless the token is set``): its words are not the line's report
_CONDITIONAL = re.compile(r"\b(?:if|unless|whether|in case)\b[^.;:!?,]*$", re.IGNORECASE)
# a path on disk: rooted (``/``, ``~/``, ``./``, ``../``, ``C:\\``), two or more parts, or a file with an extension
# (``manifests/train.csv``); not prose joined by one slash (``submit/allocate``, ``accounting/QOS``, ``and/or``) and
# not a URL, whose path names the API called (a registry's ``/v2/<name>/manifests/<tag>``)
_PATH = re.compile(
    r"(?!\w+://)(?:[/~]|\.\.?[/\\]|[A-Za-z]:\\|[^/\\]*[/\\][^/\\]*[/\\]|[^/\\]+[/\\][^/\\]*\.[A-Za-z]\w{0,5}(?::\d+)*:?$)"
)
_SOURCE_AT = re.compile(r"\.(?:py|pyx|c|cc|cpp|cxx|cu|cuh|h|hpp|go|rs|java|scala|js|ts)(?::\d+)*:?$")


def read_root_line(
    ctx: Context, open_errors: list[Line], got_past: Callable[[list[Line], int], bool], allowed: set[str] | None = None
) -> Signal | None:
    """The family the root error line's words point to, as a weak signal; None when no vocabulary fits."""
    for order, ln, text in _candidates(ctx, open_errors, got_past):
        hit = _read(text, allowed)
        if hit is None:
            continue
        label, entry = hit
        fam = FAMILIES[label]
        quoted = ln.raw.strip()
        evidence = [ln.raw.rstrip()]
        nxt = _continuation(ctx, order, ln)
        if nxt is not None:
            evidence.append(nxt.raw.rstrip())
        explanation = (
            f"No rule recognised this failure; {READING}, the log's root error: "
            f"“{quoted[:300]}”. It speaks of {entry.topic}, so the likeliest reading is: {plain(fam.explanation)}"
        )
        return Signal(
            label,  # type: ignore[arg-type]
            fam.origin,
            entry.strength,
            order if order < 0 else ln.index,
            evidence,
            explanation,
            fam.fix_kind,
            plain(fam.fix_description),
            what_would_confirm=(
                "The rest of the log around the quoted line: this verdict rests on that one line's words."
            ),
        )
    return None


def is_root_reading(diag: Diagnosis) -> bool:
    """The verdict is a root-line reading (weak, one line's words), not a rule's."""
    return READING in diag.explanation


def read_text(text: str, allowed: set[str] | None = None) -> tuple[str, RootWords] | None:
    """The family (and the vocabulary entry) one line's words point to: the strongest entry, the earliest on ties."""
    return _read(_words_of(text), allowed)


def _read(text: str, allowed: set[str] | None) -> tuple[str, RootWords] | None:
    best: tuple[float, int, str, RootWords] | None = None
    for label, fam in FAMILIES.items():
        if allowed is not None and label not in allowed:
            continue
        for entry in fam.root_words:
            m = next((m for m in entry.regex.finditer(text) if _said(text, m)), None)
            if m is None:
                continue
            if entry.when is not None and not entry.when.search(text):
                continue
            if entry.unless is not None and entry.unless.search(text):
                continue
            key = (entry.strength, -m.start(), label, entry)
            if best is None or key[:2] > best[:2]:
                best = key
    return (best[2], best[3]) if best is not None else None


def _said(text: str, m: re.Match[str]) -> bool:
    """The match is the line's own report: not a word that is one part of a name (a path, a URL, an option) and
    not inside a clause that says what would happen (``if …``)."""
    start, end = m.span()
    if start == end:
        return True
    if _CONDITIONAL.search(text, 0, start):
        return False
    matched = m.group(0)
    if not any(c.isspace() for c in matched) and ("/" in matched or "\\" in matched):
        return True  # the vocabulary names a path on purpose (/dev/shm)
    first = re.match(r"[A-Za-z]+", matched)
    last = re.search(r"[A-Za-z]+$", matched)
    return not (
        (first is not None and _name_part(text, start, start + first.end()))
        or (last is not None and _name_part(text, start + last.start(), end))
    )


def _name_part(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is a word inside a path, URL or option token, not the whole token. A source location
    (``…/c10d/ProcessGroupNCCL.cpp:1521``) is not such a name: its parts name the code that speaks."""
    for tok in _NAME_TOKEN.finditer(text):
        if tok.start() <= start < tok.end():
            name = tok.group(0)
            if not (_PATH.match(name) or name.startswith("--")) or _SOURCE_AT.search(name):
                return False
            return not (tok.start() == start and tok.end() == end)
    return False


def _says_wrong(text: str) -> bool:
    """The line says something went wrong: a failure word that is not a setting's name (``timeout=1s``,
    ``'timeout': 900``, ``#failure=3`` in a printed configuration)."""
    for regex in (_FAILING, _SAYS_WRONG):
        for m in regex.finditer(text):
            if not _SETTING_AFTER.match(text, m.end()):
                return True
    return False


def _words_of(text: str) -> str:
    """The line with the exception types it names also spelled as words (``ReadTimeoutError`` → "Read Timeout
    Error"), so that one vocabulary reads a message and a class name alike."""
    names = [m.group("type") for m in _EXC_ANYWHERE.finditer(text)]
    et = exception_type(text)
    if et is not None:
        names.append(et[0].rsplit(".", 1)[-1])
    spelled = " ".join(_CAMEL.sub(" ", n) for n in dict.fromkeys(names))
    return f"{text} {spelled}" if spelled else text


def _candidates(
    ctx: Context, open_errors: list[Line], _got_past: Callable[[list[Line], int], bool]
) -> Iterable[tuple[int, Line, str]]:
    """Root-line candidates, most telling first: the scheduler's reason, the task's error events (latest first),
    the exception that ended the traceback (the root one, then the last one), the last error line the run did not
    get past, the other open error lines (latest first), then exceptions named in the middle of a line."""
    seen: set[tuple[int, int]] = set()
    out: list[tuple[int, Line]] = []

    def add(order: int, ln: Line | None) -> None:
        if ln is None or (order, ln.index) in seen:
            return
        # a line logged at INFO or DEBUG level is the program's own account of normal work (a shutdown notice, a
        # config dump), never the root error; the level is read after any process tag (``(EngineCore pid=7) INFO``)
        if order == 0 and not _may_be_root(ln):
            return
        seen.add((order, ln.index))
        out.append((order, ln))

    if ctx.failure_message:
        from runshepherd.diagnosis.errorblock import prepare

        add(ORDER_FAILURE_MESSAGE, prepare([ctx.failure_message]).lines[0])
    for ln in reversed(ctx.events.errors):
        add(ORDER_EVENT, ln)
    open_at = {ln.index for ln in open_errors}
    lines = ctx.log.lines
    exceptions = [i for i in ctx.log.exceptions if i in open_at]
    if ctx.log.root is not None and ctx.log.root in open_at:
        add(0, lines[ctx.log.root])
    if exceptions:
        add(0, lines[exceptions[-1]])
    ending = [ln for ln in open_errors if _ENDING.search(ln.text)]
    for ln in reversed(open_errors):
        if not _ENDING.search(ln.text):
            add(0, ln)
    # then a line that says something failed without an error's form (no severity, no exception), the run's
    # ending notices (an abort, a kill, a launcher's exit report: what the root error caused), and an exception
    # named in the middle of a line
    for ln in reversed(lines):
        if ln.usable and _says_wrong(ln.text) and not _got_past(lines, ln.index):
            add(0, ln)
    for ln in reversed(ending):
        add(0, ln)
    if not open_errors:
        for ln in lines:
            if not ln.code and not ln.warning and _EXC_ANYWHERE.search(ln.text) and not _got_past(lines, ln.index):
                add(0, ln)
    for order, ln in out[:MAX_LINES]:
        text = ln.text if order < 0 else _outside_bar(ln.text)
        if not text.strip():
            continue
        nxt = _continuation(ctx, order, ln)
        if nxt is not None:
            text = f"{text} {nxt.text.strip()}"
        yield order, ln, _words_of(text)


def _may_be_root(ln: Line) -> bool:
    """A line that can be the root error: not logged below error level (a warning, a notice: the level its header
    states, read by severity.py for every layout), not a grepped source line, not a program's usage text (a
    Kubernetes event's ``Warning`` type is the event table's, not a level)."""
    clean = ln.clean
    if is_event_line(clean):
        return True
    return not any(below_error(t) or _GREPPED.search(t) or _USAGE.search(t) for t in (clean, ln.text, ln.raw))


def _outside_bar(text: str) -> str:
    """The line without a progress bar and its counters (what a carriage return glued after it stays)."""
    m = _BAR.search(text)
    while m is not None:
        text = text[: m.start()] + " " + text[m.end() :]
        m = _BAR.search(text)
    return text


def _continuation(ctx: Context, order: int, ln: Line) -> Line | None:
    """The next log line when it goes on with this line's message (the line ends mid-sentence)."""
    if order < 0 or not _OPEN_END.search(ln.text) or ln.index + 1 >= len(ctx.log.lines):
        return None
    nxt = ctx.log.lines[ln.index + 1]
    t = nxt.text.strip()
    if not t or nxt.code or is_warning(t) or exception_type(t) is not None or t.startswith(("File ", "Traceback")):
        return None
    return nxt
