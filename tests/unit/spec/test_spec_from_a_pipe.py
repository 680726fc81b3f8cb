"""A spec, config or runs file given as a named pipe is read in bounded time, never waited on forever."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from runshepherd.spec import SpecError, limits, load_spec_file

SPEC = "workflow:\n  name: piped\n  tasks:\n  - name: t\n    image: x\n    command: [echo, hi]\n"


def test_a_pipe_nobody_writes_to_is_refused_with_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "PIPE_SECONDS", 0.3)
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)
    # before: open() of a FIFO with no writer blocked, so `orchestrate validate FIFO` never returned
    with pytest.raises(SpecError, match=r"spec.yaml: is a pipe that did not send its whole text within 0.3 s"):
        load_spec_file(fifo)


def test_a_pipe_with_a_writer_is_read_like_a_file(tmp_path: Path) -> None:
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "w") as fh:  # noqa: PTH123 - the writer end of the pipe, as <(…) would be
            fh.write(SPEC)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert load_spec_file(fifo).workflow.name == "piped"
    finally:
        writer.join(5)
