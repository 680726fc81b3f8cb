"""A backend line written with a newline in it (the echo of a multi-line `python -c` script, a multi-line error)
keeps the task's tag on every line.

Before: only the first line carried `[task][osmo]`; the rest of the script landed bare in the log, so `logs --raw`
showed `raise RuntimeError(...)` from the spec as if the job had printed it, with no time and no task.
"""

from __future__ import annotations

from pathlib import Path

from runshepherd.backends.files.logfiles import TaskLog
from runshepherd.logs.prefix import split_prefix


def test_every_line_of_a_multiline_control_write_is_tagged_as_the_backends(tmp_path: Path) -> None:
    log = TaskLog(tmp_path / "log", "train")
    log.write("Running command: python -c 'import sys\nraise RuntimeError(\"CUDA out of memory\")\n'", control=True)
    log.write("epoch 1 loss=0.5")
    log.close()
    lines = (tmp_path / "log").read_text().splitlines()
    parsed = [split_prefix(line) for line in lines]
    assert [(p.task, p.platform) for p in parsed] == [("train", True)] * 3 + [("train", False)], lines
    assert [p.text for p in parsed] == [
        "Running command: python -c 'import sys",
        'raise RuntimeError("CUDA out of memory")',
        "'",
        "epoch 1 loss=0.5",
    ], lines
    assert all(p.timestamp for p in parsed), lines
