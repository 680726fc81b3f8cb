"""The documented exception classes (runshepherd/diagnosis/formats/exceptions.py): each row reads its own quoted
example, and a traceback ending in that class names the row's family even when its message is one no pattern knows."""

from __future__ import annotations

import re

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.errorblock import exception_type
from runshepherd.diagnosis.formats.exceptions import ROWS, ExceptionClass, family_of
from runshepherd.diagnosis.rules.family import FAMILIES


@pytest.mark.parametrize("row", ROWS, ids=[r.example[:40] for r in ROWS])
def test_every_row_reads_its_quoted_example_and_cites_an_address(row: ExceptionClass) -> None:
    et = exception_type(row.example)
    assert et is not None, "the example is an exception line as the error block reads one"
    assert family_of(et[0]) == row.label
    assert row.label in FAMILIES
    assert re.match(r"https://\S+$", row.source)


@pytest.mark.parametrize("row", ROWS, ids=[r.example[:40] for r in ROWS])
def test_a_traceback_ending_in_the_class_names_its_family_whatever_the_message(row: ExceptionClass) -> None:
    etype = exception_type(row.example)[0]  # type: ignore[index]
    log = "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "/workspace/run.py", line 12, in <module>',
            "    main()",
            f"{etype}: the quick brown fox",  # a message none of the family's patterns reads
        ]
    )
    d = diagnose_log_text(log)
    assert d.label == row.label, (etype, d.label, d.explanation)
    assert any(etype in line for line in d.evidence)


def test_a_class_the_table_leaves_out_decides_nothing_by_its_type() -> None:
    # an HTTP error of any status: 401 is a credential, 404 a wrong name, 503 the network
    assert family_of("huggingface_hub.errors.HfHubHTTPError") is None
    assert family_of("TimeoutError") is None
    # a class of the same name in another library is not the documented one
    assert family_of("mylib.OutOfMemoryError") is None
