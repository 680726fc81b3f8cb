"""Split the structured prefix off a log line: timestamp, task, retry, platform marker.

Formats: OSMO ``YYYY/MM/DD HH:MM:SS [task] text``, ``[task retry-1]``, ``[task][osmo] text`` (the
platform's own lines); bracketed ``[YYYY-MM-DD HH:MM:SS] text``; ISO ``2025-01-02T03:04:05.123Z text``
(Kubernetes and many loggers). Anything else is plain text with no timestamp. Timestamps are kept as
strings here and parsed only when needed, because parsing every line would dominate the read time.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import NamedTuple

_ISO = re.compile(r"(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2})(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?[ \t]")
_RETRY = re.compile(r"^(.*?) retry-(\d+)$")


class Prefixed(NamedTuple):
    timestamp: str | None  # "YYYY?MM?DD?HH:MM:SS", any separators
    task: str | None
    retry: int | None
    platform: bool  # an OSMO "[osmo]" control/data line
    text: str


def split_prefix(line: str) -> Prefixed:
    """Separate the prefix from the message. Never fails: unknown shapes come back as plain text."""
    if len(line) >= 20 and line[4] == "/" and line[7] == "/" and line[10] == " " and line[13] == ":":
        ts = line[:19]
        rest = line[20:] if line[19:20] == " " else line[19:]
        if rest.startswith("["):
            end = rest.find("]")
            if end > 0:
                tag = rest[1:end]
                rest = rest[end + 1 :]
                platform = rest.startswith("[osmo]")
                if platform:
                    rest = rest[6:]
                if rest.startswith(" "):
                    rest = rest[1:]
                task, retry = tag, None
                if " retry-" in tag:
                    m = _RETRY.match(tag)
                    if m:
                        task, retry = m.group(1), int(m.group(2))
                return Prefixed(ts, task, retry, platform, rest)
        return Prefixed(ts, None, None, False, rest)
    if len(line) >= 21 and line[0] == "[" and line[5] == "-" and line[20] == "]":
        return Prefixed(line[1:20], None, None, False, line[22:] if line[21:22] == " " else line[21:])
    if len(line) >= 20 and line[4] == "-" and line[7] == "-" and line[13] == ":":
        m = _ISO.match(line)
        if m:
            return Prefixed(m.group(1), None, None, False, line[m.end() :])
    return Prefixed(None, None, None, False, line)


def parse_timestamp(ts: str) -> datetime | None:
    """Parse a prefix timestamp (fixed positions, any separators) as UTC; None if it is not a real date."""
    try:
        return datetime(
            int(ts[0:4]),
            int(ts[5:7]),
            int(ts[8:10]),
            int(ts[11:13]),
            int(ts[14:16]),
            int(ts[17:19]),
            tzinfo=UTC,
        )
    except ValueError:
        return None


def as_utc(moment: datetime) -> datetime:
    """Naive datetimes are taken as UTC, the zone the log prefixes are written in."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
