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


def test_a_log_whose_tail_was_never_written_is_read_up_to_its_last_words(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Blind v30 zzzzzn-0018: a committed train.log whose last 339,973 bytes are NUL (the node died before the file's
    tail reached the disk, or it was preallocated) was "not a text log". The padding is no content: the error before
    it is read, also when the padding is longer than the tail the CLI reads; a file of nothing but padding is empty."""
    (here / "padded.log").write_bytes(LOG.encode() + b"\x00" * 340_000)
    (here / "long-pad.log").write_bytes(b"step 1 loss 2.0\n" * 70_000 + LOG.encode() + b"\x00" * 7_000_000)
    for name in ("padded.log", "long-pad.log"):
        assert main(["diagnose", "--log", name]) == 0, name
        out = capsys.readouterr().out
        assert "gpu_oom" in out and "\x00" not in out, name
    (here / "zeros.log").write_bytes(b"\x00" * 100_000)
    assert main(["diagnose", "--log", "zeros.log"]) == 2
    assert "empty" in capsys.readouterr().err
