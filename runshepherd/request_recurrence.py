"""A request that asks for a job again and again ("every night", "every day at 3am", "daily") is run once, and the
plan says so.

RunShepherd runs a job once, now: it has no scheduler of its own. So the words asking for a repeat are cut out
before any expert reads the request (they name no workflow: before, "train a small classifier every night" was
`train-classifier-every`, and the repeat was dropped without a word), and the plan names them and what to use
instead: cron (or a systemd timer) running `orchestrate run --spec FILE --yes`, or the scheduler's own recurring
jobs where it has them. Cadences inside a job ("evaluate every epoch", "checkpoint every 30 minutes", "every 100
steps") are the job's own settings and stay; so do "daily"/"nightly" used as adjectives ("daily prices", "the
pytorch nightly image", "daily and weekly prices"), the days of the data ("for each day of the week", "each year of
data") and any part of a file name, a path or a flag's value (`data/daily.csv`, `--schedule daily`).
"""

from __future__ import annotations

import re

_TIME = r"(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?|noon|midnight)"
_DAY_UNIT = (
    r"(?:night|day|morning|evening|afternoon|week|weekday|weekend|month|year"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
)
_FREQUENCY = r"(?:hourly|daily|nightly|weekly|monthly|yearly|annual)"
_RECURRENCE = re.compile(
    # never a part of a file name, a path or a flag's value (`daily.csv`, `data/daily`, `--schedule daily`)
    r"(?<![\w./=-])"
    rf"(?:\bat\s+{_TIME}\s+)?"  # "at 3am every day"
    # "for each day of the week", "data from every weekend", "each year of data": the days are the data's
    rf"(?:(?<!\bfor )(?<!\bof )(?<!\bin )(?<!\bfrom )(?<!\bper )(?<!\bby )"
    rf"\b(?:every|each)\s+(?:other\s+|single\s+)?(?:\d+\s+)?{_DAY_UNIT}\b(?!\s+of\b)"
    # "daily" as the last word of a clause; not one of a list of adjectives ("daily and weekly prices")
    rf"|\b(?:daily|nightly|weekly|monthly)\b(?!\s*(?:,|and\b|or\b)\s*{_FREQUENCY}\b)"
    rf"(?=\s*(?:$|[,;:!?)]|\.(?!\w)|at\s+{_TIME}|and\b|on\b)))"
    rf"(?:\s+at\s+{_TIME}\b)?"  # "every day at 3am"
    r"(?![\w/-])",
    re.I,
)
_FLAG_BEFORE = re.compile(r"(?:^|\s)--?[\w-]+\s+$")  # `--schedule daily`: the value of a flag the script gets


def split_recurrence(text: str) -> tuple[str, list[str]]:
    """``text`` without the words that ask for the job to repeat, and those words as written (in order)."""
    found = [m for m in _RECURRENCE.finditer(text) if not _FLAG_BEFORE.search(text, 0, m.start())]
    if not found:
        return text, []
    pieces = [text[a:b] for a, b in zip([0, *(m.end() for m in found)], [*(m.start() for m in found), len(text)])]
    clean = pieces[0]
    for piece in pieces[
        1:
    ]:  # the request reads on as written: "classifier daily." is "classifier.", never "classifier ."
        piece = piece.lstrip(" \t")
        clean = clean.rstrip(" \t") + ("" if piece[:1] in tuple(",.;:!?)") else " ") + piece
    clean = re.sub(r"\(\s*\)", " ", clean)  # "(every night)"
    if not pieces[0].strip():  # "every night, train …" is "train …"
        clean = clean.lstrip(" \t,.;:!?")
    return re.sub(r"[ \t]{2,}", " ", clean).strip(), [m.group(0).strip() for m in found]


def recurrence_notes(said: list[str]) -> list[str]:
    """The plan's words for a repeat the request asked for: not done, and what does it."""
    if not said:
        return []
    shown = ", ".join(f"`{s}`" for s in said)
    return [
        f"not done: {shown} — RunShepherd runs the job once, now, and never again by itself; to repeat it, have cron "
        "(or a systemd timer) run `orchestrate run --spec FILE --yes` at those times, or use the scheduler's own "
        "recurring jobs where it has them"
    ]
