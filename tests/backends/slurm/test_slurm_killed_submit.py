"""kill -9 inside a Slurm submit, after its jobs were sbatch'ed and before its record: the next submit with the
same key cancels the orphaned jobs, removes the half-made folder, and submits once, whole."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

from runshepherd.backends.slurm import SlurmBackend

from ..conformance import wait_terminal
from ..helpers import spec_from_yaml

SPEC = """
workflow:
  name: slurm-half
  tasks:
  - name: main
    image: ubuntu:24.04
    command: [sh, -c, "echo ran"]
"""

CHILD = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    import runshepherd.backends.slurm.backend as sb
    from runshepherd.spec import load_spec_text

    real = sb.write_json_atomic

    def die_on_record(path, data):
        if path.name == "slurm.json" or "record" in path.name:
            os._exit(9)  # as kill -9, between the sbatch calls and the record
        real(path, data)

    sb.write_json_atomic = die_on_record
    be = sb.SlurmBackend(Path(sys.argv[1]), {"slurm_conf": sys.argv[2]})
    be.submit(load_spec_text(sys.argv[3]), idempotency_key=sys.argv[4])
    os._exit(0)
    """
)


def test_a_submit_killed_before_its_record_is_cleaned_up_and_done_once(tmp_path: Path, slurm_conf: Path) -> None:
    state = tmp_path / "state"
    key = f"half-{uuid.uuid4().hex[:8]}:1"  # the cluster is shared: keys of other runs must not collide
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(state), str(slurm_conf), SPEC, key],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 9, child.stderr[-2000:]
    backend = SlurmBackend(state, {"slurm_conf": str(slurm_conf)})
    assert backend.find_by_key(key) is None  # the half-made workflow is not taken for a submitted one
    sub = backend.submit(spec_from_yaml(SPEC), idempotency_key=key)
    assert wait_terminal(backend, sub.workflow_id).status.value == "COMPLETED"
    assert [w.workflow_id for w in backend.list_workflows()] == [sub.workflow_id]
    half = [p for p in (state / "slurm" / "workflows").iterdir() if p.name != sub.workflow_id]
    assert len(half) == 1 and (half[0] / "abandoned").is_file()  # marked, its jobs canceled, never listed
    assert backend.find_by_key(key) == sub.workflow_id
    assert SlurmBackend(state, {"slurm_conf": str(slurm_conf)}).find_by_key(key) == sub.workflow_id
