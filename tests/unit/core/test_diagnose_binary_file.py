"""`diagnose --log` on a file that is not text (random bytes, a .gz) says so, exit 2 — before: random bytes were
"healthy — confidence 0.80: The run is making progress" with a line of binary garbage as evidence."""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from runshepherd.cli.main import main

LOG = (
    'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
)


def test_random_bytes_and_a_gzip_are_not_diagnosed(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "rand.log").write_bytes(random.Random(0).randbytes(200_000))
    (here / "run.log.gz").write_bytes(gzip.compress(LOG.encode() * 200))
    for name in ("rand.log", "run.log.gz"):
        assert main(["diagnose", "--log", name]) == 2
        out = capsys.readouterr()
        assert f"{name} (" in out.err and "not a text log" in out.err and "unpacked first" in out.err
        assert "healthy" not in out.out


def test_a_text_log_with_some_stray_bytes_is_still_read(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "run.log").write_bytes(b"\x1b[31mstep 1\x1b[0m \xff\xfe\n" + LOG.encode())
    assert main(["diagnose", "--log", "run.log"]) == 0
    assert "gpu_oom" in capsys.readouterr().out
