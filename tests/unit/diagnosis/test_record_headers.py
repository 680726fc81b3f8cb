"""A traceback logged one line per record behind a logger's header (level, date and time, emitting file and line):
the header is a prefix, so the frames, the quoted code and the stopping exception are read as Python printed them."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.errorblock import prepare, strip_prefix

# a serving engine that logs each line of a worker's traceback as its own ERROR record (the header written here in
# the two layouts vLLM's logger has used: ``[file.py:N]`` and ``file.py:N]``)
_RECORDS = [
    "INFO 03-02 11:00:01 [server.py:88] Loading weights",
    "ERROR 03-02 11:00:09 [worker.py:210] Worker failed to start.",
    "ERROR 03-02 11:00:09 [worker.py:210] Traceback (most recent call last):",
    'ERROR 03-02 11:00:09 [worker.py:210]   File "/srv/app/main.py", line 41, in <module>',
    "ERROR 03-02 11:00:09 [worker.py:210]     table = build_table(rows)",
    'ERROR 03-02 11:00:09 [worker.py:210]   File "/srv/app/tables.py", line 17, in build_table',
    "ERROR 03-02 11:00:09 [worker.py:210]     return rows[0].keys()",
    "ERROR 03-02 11:00:09 [worker.py:210] IndexError: list index out of range",
]


@pytest.mark.parametrize("bracketed", [True, False])
def test_a_traceback_logged_as_records_has_its_exception_line_found(bracketed: bool) -> None:
    lines = _RECORDS if bracketed else [ln.replace(" [worker.py", " worker.py") for ln in _RECORDS]
    block = prepare(lines)
    assert block.root == len(lines) - 1
    assert block.lines[block.root].text == "IndexError: list index out of range"
    assert block.lines[4].code and block.lines[6].code  # the quoted source lines keep their indentation
    d = diagnose_log_text("\n".join(lines) + "\n")
    assert d.label == "user_code_error" and d.confidence >= 0.6


def test_the_header_comes_off_behind_a_process_tag_and_a_warning_record_stays_a_warning() -> None:
    tagged = "(EngineCore pid=812) ERROR 11-20 08:15:02 [core.py:700] ValueError: bad value"
    assert strip_prefix(tagged) == "ValueError: bad value"
    block = prepare(["WARNING 11-20 08:15:01 [loader.py:12] ValueError: a skipped shard, going on"])
    assert block.lines[0].text.startswith("ValueError") and block.lines[0].warning


def test_a_timestamp_and_its_column_bar_come_off_a_drivers_relayed_traceback() -> None:
    """A driver that relays its child's output as "HH:MM:SS |   <line>" (and loguru's "date time | LEVEL | …"): the
    bar is the timestamp's column separator, so the child's exception line is read, indented as the driver printed
    it."""
    assert strip_prefix("17:13:49 |   ValueError: cannot both") == "  ValueError: cannot both"
    assert strip_prefix("2025-12-28 13:06:19.123 | ERROR    | app:main:42 - boom") == "ERROR    | app:main:42 - boom"
    relayed = [
        "17:13:49 | STAGE 1: pair generation",
        "17:13:49 |   Traceback (most recent call last):",
        '17:13:49 |     File "gen.py", line 158, in <module>',
        "17:13:49 |       pairs = make_pairs(require_correct=True, require_incorrect=True)",
        "17:13:49 |   ValueError: Cannot require both correct and incorrect simultaneously.",
    ]
    block = prepare(relayed)
    assert block.root == len(relayed) - 1
    assert diagnose_log_text("\n".join(relayed) + "\n").label == "user_code_error"
