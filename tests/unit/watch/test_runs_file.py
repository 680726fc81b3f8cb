"""A runs file that names one run twice is refused (exit 2, both entries named): before, `watch --runs` watched,
printed and notified it twice (3,000 entries of one workflow: 3,000 reports)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.errors import UsageError
from runshepherd.watch.runsfile import load_runs


def test_the_same_run_twice_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "runs.yaml"
    f.write_text("runs:\n- {id: a, workflow_id: wf-1}\n- {id: b, workflow_id: wf-2}\n- {id: c, workflow_id: wf-1}\n")
    with pytest.raises(UsageError, match=r"runs 'a' and 'c' are the same run \(wf-1\) — keep one entry"):
        load_runs(f)
    f.write_text("runs:\n- {id: a, workflow_id: wf-1}\n- {id: b, backend: slurm, job_id: '4711'}\n")
    assert [r.identity for r in load_runs(f)] == ["wf-1", "4711"]
