"""Where "healthy" ends on a bare log: what counts as the run's progress, and what the program went on past."""

from __future__ import annotations

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.errorblock import prepare
from runshepherd.diagnosis.positive import is_progress


def test_a_traceback_frames_source_line_is_not_progress() -> None:
    # the call quoted under a frame names an epoch, but it is source the traceback prints, not a step the run took
    log = (
        "| reading 812 pairs from corpus/dev.src\n"
        "Traceback (most recent call last):\n"
        '  File "run.py", line 46, in main\n'
        '    pipeline.read_split("dev", epoch=0)\n'
        '  File "pipe/pairs.py", line 96, in read_split\n'
        "    return PairSet(\n"
    )
    lines = prepare(log.splitlines()).lines
    assert lines[3].code and not is_progress(lines[3])
    assert diagnose_log_text(log).label != "healthy"
