"""Label-preserving paste layouts: the marks people and their tools add when a log is pasted into an issue or chat.

Each layout is a pure function of the log text and a seeded ``random.Random`` (deterministic per case), changing
how the log looks, never what it says: markdown bold/italics around error lines, list bullets, ``> `` quotes,
pytest's ``E   `` failure prefix, ANSI colour codes, Jupyter/IPython 8 tracebacks, CRLF line ends, the prefixes
loggers and launchers put before each line (a Python logging timestamp, ``[rank0]:``, Ray's ``(pid=123)``, docker
compose's ``worker-1  | ``), an editor's or ``cat -n``'s line-number gutter, VS Code's ``Exception has occurred: X``
popup, an exception whose message is printed on the next line, soft-wrapped long lines, a collapsed
``<details>`` block and the whole log as one JSON string (an API response's body, a notebook's stored output). A diagnoser that reads logs rather than layouts gives the same label before and after
(``bench_diagnosis.py --invariance`` counts the cases whose label changes).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

Layout = Callable[[str, random.Random], str]

# a line a person would highlight in a paste: the error, by its usual words
_ERRORISH = re.compile(r"error|exception|fail|fatal|killed|denied|not found|out of memory|traceback", re.IGNORECASE)
_EXC = re.compile(r"^(?P<indent>\s*)(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)):[ \t]+(?P<msg>\S.*)$")
_FRAME = re.compile(r'^(?P<indent>\s*)File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<func>.+)$')
_TB = re.compile(r"^\s*Traceback \(most recent call last\):\s*$")


def _lines(text: str) -> list[str]:
    return text.splitlines()


def _join(lines: list[str], text: str) -> str:
    return "\n".join(lines) + ("\n" if text.endswith(("\n", "\r")) else "")


def _error_lines(lines: list[str]) -> list[int]:
    hits = [i for i, ln in enumerate(lines) if ln.strip() and _ERRORISH.search(ln)]
    if hits:
        return hits
    last = [i for i, ln in enumerate(lines) if ln.strip()]
    return last[-1:]


def _last_exception(lines: list[str]) -> int | None:
    for i in range(len(lines) - 1, -1, -1):
        if _EXC.match(lines[i]):
            return i
    return None


def bold(text: str, rnd: random.Random) -> str:
    """``**…**`` around the error-looking lines (a person highlighting the error)."""
    lines = _lines(text)
    for i in _error_lines(lines):
        ln = lines[i].strip()
        if not ln.startswith("*"):
            lines[i] = f"**{ln}**"
    return _join(lines, text)


def italics(text: str, rnd: random.Random) -> str:
    """``*…*`` or ``_…_`` around the error-looking lines."""
    mark = rnd.choice(["*", "_"])
    lines = _lines(text)
    for i in _error_lines(lines):
        lines[i] = f"{mark}{lines[i].strip()}{mark}"
    return _join(lines, text)


def bullets(text: str, rnd: random.Random) -> str:
    """Every non-empty line a list item (``- `` or ``* ``)."""
    mark = rnd.choice(["- ", "* "])
    return _join([mark + ln if ln.strip() else ln for ln in _lines(text)], text)


def quote(text: str, rnd: random.Random) -> str:
    """A markdown quote (``> ``) on every line from a random point on (a reply quoting the tail of a log)."""
    lines = _lines(text)
    start = rnd.randrange(0, max(1, len(lines) // 2))
    return _join(lines[:start] + [("> " + ln) if ln else ">" for ln in lines[start:]], text)


def pytest_e(text: str, rnd: random.Random) -> str:
    """pytest's failure report: ``E   `` before the last exception line and the lines after it."""
    lines = _lines(text)
    at = _last_exception(lines)
    nonempty = [i for i, ln in enumerate(lines) if ln.strip()]
    start = at if at is not None else (nonempty[-3] if len(nonempty) >= 3 else 0)
    pad = " " * rnd.choice([3, 7])
    return _join(lines[:start] + [f"E{pad}{ln}" for ln in lines[start:]], text)


_RED, _GREEN, _CYAN, _YELLOW, _RESET = "\x1b[0;31m", "\x1b[0;32m", "\x1b[0;36m", "\x1b[1;33m", "\x1b[0m"
_LEVEL = re.compile(r"\b(ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|FATAL)\b")


def ansi(text: str, rnd: random.Random) -> str:
    """Terminal colours kept in the paste: the severity word and the exception type coloured, error lines red."""
    out = []
    for ln in _lines(text):
        m = _EXC.match(ln)
        if m:
            ln = f"{m['indent']}{_RED}{m['type']}{_RESET}: {m['msg']}"
        elif _LEVEL.search(ln):
            ln = _LEVEL.sub(lambda x: f"{_YELLOW}{x[1]}{_RESET}", ln, count=1)
        elif ln.strip() and _ERRORISH.search(ln):
            ln = f"{_RED}{ln}{_RESET}"
        out.append(ln)
    return _join(out, text)


def jupyter(text: str, rnd: random.Random) -> str:
    """IPython 8's traceback: coloured rule and header, ``File path:N, in f`` frames, ``---> N`` arrows."""
    lines = _lines(text)
    out: list[str] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        if _TB.match(ln):
            exc = next((lines[j] for j in range(i + 1, min(len(lines), i + 200)) if _EXC.match(lines[j])), None)
            name = _EXC.match(exc)["type"] if exc else "Exception"  # type: ignore[index]
            out.append(f"{_RED}{'-' * 75}{_RESET}")
            out.append(f"{_RED}{name}{_RESET}{' ' * 32}Traceback (most recent call last)")
            i += 1
            continue
        f = _FRAME.match(ln)
        if f:
            out.append(f"File {_GREEN}{f['path']}:{f['line']}{_RESET}, in {_CYAN}{f['func']}{_RESET}")
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if nxt.strip() and not _FRAME.match(nxt) and not _EXC.match(nxt) and nxt.startswith((" ", "\t")):
                out.append(f"{_GREEN}---> {f['line']}{_RESET} {nxt.strip()}")
                i += 1
            out.append("")
            i += 1
            continue
        m = _EXC.match(ln)
        out.append(f"{m['indent']}{_RED}{m['type']}{_RESET}: {m['msg']}" if m else ln)
        i += 1
    return _join(out, text)


def crlf(text: str, rnd: random.Random) -> str:
    """Windows line ends."""
    return _join(_lines(text), text).replace("\n", "\r\n")


def _prefixed(prefix: Callable[[int], str]) -> Layout:
    def layout(text: str, rnd: random.Random) -> str:
        return _join([prefix(n) + ln for n, ln in enumerate(_lines(text))], text)

    return layout


def _clock(rnd: random.Random, sep: str, fraction: Callable[[int], str], zone: str) -> Layout:
    """A timestamp column that ticks a second per line (``sep`` between date and time, then the fraction)."""
    base = rnd.randrange(3600)

    def stamp(n: int) -> str:
        t = base + n
        return f"2024-01-02{sep}{t // 3600 % 24:02d}:{t // 60 % 60:02d}:{t % 60:02d}{fraction(n)}{zone} "

    return _prefixed(stamp)


def timestamp(text: str, rnd: random.Random) -> str:
    """Python logging's ``%(asctime)s`` before every line."""
    return _clock(rnd, " ", lambda n: f",{(n * 37) % 1000:03d}", "")(text, rnd)


def rank(text: str, rnd: random.Random) -> str:
    """torchrun's ``--tee``/``--log-line-prefix-template`` rank tag: ``[rank0]: ``."""
    r = rnd.randrange(8)
    return _prefixed(lambda n: f"[rank{r}]: ")(text, rnd)


def ray_pid(text: str, rnd: random.Random) -> str:
    """Ray's worker output tag: ``(pid=123) `` or ``(RayTrainWorker pid=123, ip=10.0.0.2) ``."""
    pid = rnd.randrange(100, 99999)
    tag = rnd.choice([f"(pid={pid}) ", f"(RayTrainWorker pid={pid}, ip=10.0.0.{pid % 250}) "])
    return _prefixed(lambda n: tag)(text, rnd)


def compose(text: str, rnd: random.Random) -> str:
    """docker compose's service column: ``worker-1  | ``."""
    name = rnd.choice(["worker-1  | ", "trainer_1  | ", "app-1     | "])
    return _prefixed(lambda n: name)(text, rnd)


def gutter(text: str, rnd: random.Random) -> str:
    """A line-number gutter: ``cat -n`` (``     1\\t``) or an editor/viewer (`` 12 | ``)."""
    style = rnd.choice(["cat", "bar"])
    if style == "cat":
        return _prefixed(lambda n: f"{n + 1:6d}\t")(text, rnd)
    return _prefixed(lambda n: f"{n + 1:>4} | ")(text, rnd)


def _split_last_exception(text: str) -> tuple[list[str], int, re.Match[str]] | None:
    """The lines, the index of the last ``Type: message`` line and its match (None when there is none)."""
    lines = _lines(text)
    at = _last_exception(lines)
    m = _EXC.match(lines[at]) if at is not None else None
    return (lines, at, m) if at is not None and m is not None else None


def vscode(text: str, rnd: random.Random) -> str:
    """VS Code's debugger popup: ``Exception has occurred: X`` then the message, then the frames."""
    found = _split_last_exception(text)
    if found is None:
        return text
    lines, at, m = found
    head = [f"Exception has occurred: {m['type'].rsplit('.', 1)[-1]}", m["msg"]]
    tb = next((j for j in range(at - 1, max(-1, at - 200), -1) if _TB.match(lines[j])), None)
    if tb is None:
        return _join(lines[:at] + head + lines[at + 1 :], text)
    return _join(lines[:tb] + head + lines[tb + 1 : at] + lines[at + 1 :], text)


def next_line_message(text: str, rnd: random.Random) -> str:
    """An exception whose message starts with a newline: ``AssertionError:`` then the message on its own line."""
    found = _split_last_exception(text)
    if found is None:
        return text
    lines, at, m = found
    return _join(lines[:at] + [f"{m['indent']}{m['type']}:", m["msg"]] + lines[at + 1 :], text)


def soft_wrap(text: str, rnd: random.Random) -> str:
    """Long lines broken at a space near column 80-120 (a terminal or mail client's wrap; no indent added)."""
    width = rnd.choice([80, 100, 120])
    out: list[str] = []
    for ln in _lines(text):
        while len(ln) > width:
            cut = ln.rfind(" ", width // 2, width)
            if cut < 0:
                break
            out.append(ln[:cut])
            ln = ln[cut + 1 :]
        out.append(ln)
    return _join(out, text)


def details(text: str, rnd: random.Random) -> str:
    """A collapsed ``<details>`` block around a fenced copy of the log, as issue templates ask for."""
    summary = rnd.choice(["Full log", "Logs", "Click to expand", "Output"])
    fence = rnd.choice(["```", "```text", "```shell"])
    body = text if text.endswith("\n") else text + "\n"
    return f"<details>\n<summary>{summary}</summary>\n\n{fence}\n{body}```\n\n</details>\n"


def smart_quotes(text: str, rnd: random.Random) -> str:
    """A forum's or word processor's typography outside a code block: curly quotes, en dashes for ``--``."""
    out = []
    for ln in _lines(text):
        ln = re.sub(r'"([^"]*)"', "\u201c\\1\u201d", ln)
        ln = re.sub(r"(?<=\w)'(?=\w)", "\u2019", ln)
        ln = re.sub(r"'([^']*)'", "\u2018\\1\u2019", ln)
        out.append(ln.replace(" -- ", " \u2013 "))
    return _join(out, text)


def nbsp(text: str, rnd: random.Random) -> str:
    """Copied from a rendered web page: runs of spaces (indentation, columns) come as no-break spaces."""
    return _join([re.sub(r"(?<= ) |^ | (?= )", "\u00a0", ln) for ln in _lines(text)], text)


def indent(text: str, rnd: random.Random) -> str:
    """A markdown code block made by indenting every line four spaces (or a tab)."""
    pad = rnd.choice(["    ", "\t"])
    return _join([pad + ln if ln else ln for ln in _lines(text)], text)


def github_actions(text: str, rnd: random.Random) -> str:
    """A GitHub Actions raw log: ``2024-01-02T03:04:05.1234567Z `` before every line."""
    return _clock(rnd, "T", lambda n: f".{(n * 7919) % 10**7:07d}", "Z")(text, rnd)


def kubectl_prefix(text: str, rnd: random.Random) -> str:
    """``kubectl logs --prefix``: ``[pod/trainer-0/pytorch] `` before every line."""
    tag = rnd.choice(["[pod/trainer-0/pytorch] ", "[pod/train-job-worker-1/main] "])
    return _prefixed(lambda n: tag)(text, rnd)


def hard_wrap(text: str, rnd: random.Random) -> str:
    """A terminal's copy of long lines: cut at the width exactly, inside words."""
    width = rnd.choice([80, 100, 120])
    out: list[str] = []
    for ln in _lines(text):
        while len(ln) > width:
            out.append(ln[:width])
            ln = ln[width:]
        out.append(ln)
    return _join(out, text)


def html_entities(text: str, rnd: random.Random) -> str:
    """Copied from a page's HTML source or a mail notification: ``&lt;``, ``&gt;``, ``&quot;``, ``&#39;``, ``&amp;``."""
    table = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})
    return _join([ln.translate(table) for ln in _lines(text)], text)


def json_string(text: str, rnd: random.Random) -> str:
    """The whole log as one JSON string (escaped newlines, quotes and control characters on one line): the body of
    a JSON API response (``{"detail": "…"}``), a notebook's stored stream output (nbformat's ``"text"``, which may be
    one string), or the string alone."""
    body = json.dumps(text)
    style = rnd.choice(["bare", "api", "notebook"])
    if style == "api":
        return '{"status": "error", "detail": ' + body + "}\n"
    if style == "notebook":
        return '{"name": "stderr", "output_type": "stream", "text": ' + body + "}\n"
    return body + "\n"


# what a person writes around a log in a thread, never what the log says: a lead-in, a remark between excerpts,
# a closing question (in English and in the languages of the threads' commentary); none names a failure
_LEAD_INS = [
    "When I run the training script I get the following output:",
    "Here is the full log:",
    "I ran it again with the same config and this is what I see:",
    "After that, the output is:",
    "Then I get:",
    "Below is the output of my run.",
    "my command is as above, and the output:",
    "Hi, thanks for the great work! I am trying to reproduce the results.",
    "运行之后输出如下：",
    "执行以下命令后：",
    "Запускаю обучение, вывод такой:",
    "Al ejecutar el script obtengo lo siguiente:",
    "実行すると以下のようになります。",
]
_CLOSERS = [
    "Any idea?",
    "Any idea what is going on here?",
    "Can someone help me with this?",
    "Thanks in advance!",
    "Is this expected?",
    "What should I do?",
    "请问这是什么原因？",
    "Подскажите, пожалуйста, в чем дело?",
    "¿Alguien sabe qué pasa?",
]


def _between(lines: list[str], rnd: random.Random) -> int:
    """Where a person breaks a log to comment: before a traceback's header, else at a blank line (0: nowhere;
    never inside a record: a traceback's frames, a warning's lines)."""
    tb = [i for i, ln in enumerate(lines) if _TB.match(ln)]
    if tb:
        return tb[0]
    blank = [i for i, ln in enumerate(lines) if not ln.strip() and 0 < i < len(lines) - 1]
    return rnd.choice(blank) + 1 if blank else 0


def prose(text: str, rnd: random.Random) -> str:
    """The person's own sentences around and inside the log: a lead-in, a remark where the log breaks, a question
    after it (each on its own line, as a thread shows a paste outside a code block)."""
    lines = _lines(text)
    at = _between(lines, rnd)
    if at > 0:
        lines[at:at] = ["", rnd.choice(_LEAD_INS[3:]), ""]
    return _join([rnd.choice(_LEAD_INS), "", *lines, "", rnd.choice(_CLOSERS)], text)


_COMMANDS = [
    "$ python train.py --config configs/base.yaml",
    "(venv) user@gpu-node:~/project$ torchrun --nproc_per_node 4 train.py --batch_size 32",
    "[me@login01 experiments]$ sbatch run.sh",
    "me@macbook ~/code % python main.py --epochs 10",
    "root@3f2a9c1e7b2d:/workspace# bash scripts/finetune.sh",
    ">>> trainer.train()",
    "In [3]: main(args)",
    "PS C:\\Users\\me\\project> python train.py --epochs 10",
    "C:\\Users\\me\\project>python train.py --epochs 10",
]


def command(text: str, rnd: random.Random) -> str:
    """The command the person typed, with its prompt, on the line above the output (a shell, Python's ``>>>``,
    IPython's ``In [3]:``, PowerShell's ``PS C:\\…>``, cmd.exe's ``C:\\…>``)."""
    return _join([rnd.choice(_COMMANDS), *_lines(text)], text)


def powershell(text: str, rnd: random.Random) -> str:
    """A native program's stderr in Windows PowerShell 5.1 (``2>&1``, the ISE): its first line becomes an error
    record (``python : <line>``, the position ``At line:1 char:1``, the command underlined, ``+ CategoryInfo`` and
    ``+ FullyQualifiedErrorId : NativeCommandError``), the lines after it are printed as they are."""
    lines = _lines(text)
    first = next((i for i, ln in enumerate(lines) if _ERRORISH.search(ln) or _TB.match(ln)), None)
    if first is None:
        return text
    cmd = "python train.py --epochs 10"
    head = lines[first]
    record = [
        f"python : {head}",
        "At line:1 char:1",
        f"+ {cmd}",
        "+ " + "~" * len(cmd),
        f"    + CategoryInfo          : NotSpecified: ({head}:String) [], RemoteException",
        "    + FullyQualifiedErrorId : NativeCommandError",
        " ",
    ]
    return _join([*lines[:first], *record, *lines[first + 1 :]], text)


def elided(text: str, rnd: random.Random) -> str:
    """A person's ``...`` (or ``[...]``) where they left lines out, once or twice between the log's lines."""
    lines = _lines(text)
    if len(lines) < 4:
        return text
    for at in sorted(rnd.sample(range(1, len(lines)), min(2, len(lines) - 1)), reverse=True):
        lines[at:at] = [rnd.choice(["...", "[...]", "…", "(...)"])]
    return _join(lines, text)


_FIRST_ATTEMPTS = [
    [
        "$ python train.py",
        "Traceback (most recent call last):",
        '  File "train.py", line 3, in <module>',
        "    import wandb",
        "ModuleNotFoundError: No module named 'wandb'",
        "$ pip install wandb",
        "Successfully installed wandb-0.16.6",
        "$ python train.py",
    ],
    [
        ">>> main(args)",
        "Traceback (most recent call last):",
        '  File "<stdin>", line 1, in <module>',
        "NameError: name 'main' is not defined",
        ">>> from train import main",
        ">>> main(args)",
    ],
]


def attempts(text: str, rnd: random.Random) -> str:
    """Several attempts in one paste: a first run's error, the command that fixed it, the run again (the log): the
    question is the last attempt, so its label is the log's."""
    return _join([*rnd.choice(_FIRST_ATTEMPTS), *_lines(text)], text)


_POSIX_PATH = re.compile(r"(?<![\w.:/~-])/(?:[\w.+@-]+/)+[\w.+@-]*")


def _windows_path(m: re.Match[str]) -> str:
    path = m.group(0)
    for posix, win in (("/home/", "C:\\Users\\"), ("/root/", "C:\\Users\\root\\"), ("/usr/", "C:\\")):
        if path.startswith(posix):
            path = win + path[len(posix) :]
            break
    else:
        path = "C:" + path
    return path.replace("/", "\\")


def windows(text: str, rnd: random.Random) -> str:
    """The same run on Windows: absolute paths (a traceback's frames, a file it could not open) with a drive and
    backslashes (``C:\\Users\\me\\anaconda3\\lib\\site-packages\\torch\\nn\\modules\\module.py``); URLs stay."""
    return _join([ln if "://" in ln else _POSIX_PATH.sub(_windows_path, ln) for ln in _lines(text)], text)


def localised(text: str, rnd: random.Random) -> str:
    """The same run on a machine set to another language: the C library's and the shell's messages ("Segmentation
    fault", "(core dumped)", "No such file or directory", "Killed") in one locale's translation (glibc's and bash's
    catalogues, runshepherd/diagnosis/formats/locales.py)."""
    from runshepherd.diagnosis.formats.locales import TRANSLATIONS

    locale = rnd.choice(sorted({t.locale for t in TRANSLATIONS}))
    for t in TRANSLATIONS:
        if t.locale == locale:
            text = text.replace(t.english, t.text)
    return text


LAYOUTS: dict[str, Layout] = {
    "bold": bold,
    "italics": italics,
    "bullets": bullets,
    "quote": quote,
    "pytest_e": pytest_e,
    "ansi": ansi,
    "jupyter": jupyter,
    "crlf": crlf,
    "timestamp": timestamp,
    "rank": rank,
    "ray_pid": ray_pid,
    "compose": compose,
    "gutter": gutter,
    "vscode": vscode,
    "next_line_message": next_line_message,
    "soft_wrap": soft_wrap,
    "details": details,
    "smart_quotes": smart_quotes,
    "nbsp": nbsp,
    "indent": indent,
    "github_actions": github_actions,
    "kubectl_prefix": kubectl_prefix,
    "hard_wrap": hard_wrap,
    "html_entities": html_entities,
    "json_string": json_string,
    "prose": prose,
    "command": command,
    "powershell": powershell,
    "elided": elided,
    "attempts": attempts,
    "windows": windows,
    "localised": localised,
}


MIXABLE = [n for n in LAYOUTS if n not in ("soft_wrap", "hard_wrap", "json_string")]


def mixed(text: str, rnd: random.Random) -> str:
    """Three layouts at once, chosen and ordered at random (a quoted, coloured, timestamped paste …)."""
    for name in rnd.sample(MIXABLE, 3):
        text = LAYOUTS[name](text, rnd)
    return text


LAYOUTS["mixed"] = mixed


def apply(name: str, text: str, case_id: str) -> str:
    """Layout ``name`` applied to one case's log, seeded by the case id (the same text every run)."""
    return LAYOUTS[name](text, random.Random(f"{name}:{case_id}"))
