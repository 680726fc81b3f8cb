"""A failed run whose only error came early and was followed by progress is named by that error, and the
explanation says so truthfully. Before, it said "The run printed a few steps after this error" whatever the
count: on a 100 MB log with the CUDA OOM on line 3 and a million step lines after it, "a few" was made up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_progress_after_the_error_is_not_counted_as_a_few_steps(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tmp_path = here
    log = tmp_path / "job.log"
    steps = "".join(f"epoch 1 step {i} loss=0.5\n" for i in range(2000))
    log.write_text(
        'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n" + steps + "exit code 1\n"
    )
    assert main(["diagnose", "--log", str(log), "--json"]) == 0
    found = json.loads(capsys.readouterr().out.splitlines()[-1])
    text = json.dumps(found)
    assert "gpu_oom" in text
    assert "a few steps" not in text and "went on printing progress after this error" in text
