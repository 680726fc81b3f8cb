"""`orchestrate … | head -1`: once the reader has closed the pipe, the command ends quietly with the status a shell
gives a command stopped by SIGPIPE (141). Before: a silent exit 1 (rich's and click's handling of the broken pipe),
which the exit codes keep for a run that failed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_helpers import env_for, orchestrate_bin


@pytest.mark.parametrize("args", [["recipe", "list"], ["recipe", "list", "--json"], ["pools"]])
def test_a_reader_that_closed_the_pipe_gives_141_and_no_words(tmp_path: Path, args: list[str]) -> None:
    proc = subprocess.Popen(
        [*orchestrate_bin(), *args],
        cwd=tmp_path,
        env={**env_for(tmp_path), "RUNSHEPHERD_BACKEND": "local"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first line is written
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141 and err == b"", err
