"""formats/nonfatal.py: each form of a line that does not stop its program reads its own quoted example."""

from __future__ import annotations

import re

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.formats import nonfatal


def test_each_form_reads_its_example() -> None:
    m = re.search(nonfatal.COMMAND_NOT_FOUND, nonfatal.COMMAND_NOT_FOUND_EXAMPLE)
    assert m is not None and m.group("bin") == "SBATCH"
    assert re.search(nonfatal.COMMAND_NOT_FOUND, "-bash: nvitop: command not found").group("bin") == "nvitop"  # type: ignore[union-attr]
    assert re.search(nonfatal.PYTHON_WARNING, nonfatal.PYTHON_WARNING_EXAMPLE)
    assert not re.search(nonfatal.PYTHON_WARNING, "RuntimeError: CUDA error: out of memory")


def test_a_scripts_failed_command_before_a_python_exception_is_history() -> None:
    log = (
        f"{nonfatal.COMMAND_NOT_FOUND_EXAMPLE}\n"
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    open('/data/train.csv')\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/data/train.csv'\n"
    )
    assert diagnose_log_text(log).label == "file_not_found"
