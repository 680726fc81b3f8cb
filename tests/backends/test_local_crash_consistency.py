"""kill -9 at every write of a local submit: what is left is either no workflow or a whole one, and every command
works on it afterwards; a resubmit with the same key never makes a second workflow."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from runshepherd.backends.files.records import utcnow, write_json_atomic
from runshepherd.backends.local import LocalBackend
from runshepherd.backends.local.store import WorkflowDir, WorkflowRecord

from .helpers import spec_from_yaml

SPEC = """\
workflow:
  name: crash
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo hi"]
"""

CHILD = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    import runshepherd.backends.files.records as records
    from runshepherd.backends.local import LocalBackend
    from runshepherd.spec import load_spec_text

    die_at = int(sys.argv[2])
    calls = [0]
    real = os.replace

    def replace(src, dst):
        calls[0] += 1
        if calls[0] == die_at:
            os._exit(9)  # as kill -9: no cleanup, no finally
        real(src, dst)

    records.os.replace = replace  # the atomic writes of every record (os is shared: this patches os.replace)
    LocalBackend(Path(sys.argv[1])).submit(load_spec_text(sys.argv[3]), idempotency_key="s:1")
    os._exit(0)
    """
)


@pytest.mark.parametrize("die_at", [1, 2, 3, 4, 5, 6])
def test_a_submit_killed_at_any_write_leaves_a_usable_store(tmp_path: Path, die_at: int) -> None:
    state = tmp_path / "state"
    subprocess.run([sys.executable, "-c", CHILD, str(state), str(die_at), SPEC], check=False, timeout=60)
    backend = LocalBackend(state)
    for row in backend.list_workflows():  # every listed workflow answers every command
        backend.query(row.workflow_id)
        list(backend.logs(row.workflow_id))
        backend.events(row.workflow_id)
        backend.spec(row.workflow_id)
    again = backend.submit(spec_from_yaml(SPEC), idempotency_key="s:1")
    rows = backend.list_workflows()
    assert [r.workflow_id for r in rows] == [again.workflow_id]  # one workflow for the key, never two
    folders = sorted(p.name for p in (state / "workflows").iterdir())
    assert folders == [again.workflow_id]  # a half-created folder was removed


def test_a_record_without_state_reads_as_an_interrupted_submission(tmp_path: Path) -> None:
    """What an older version left when killed between record.json and state.json: readable, and says why."""
    backend = LocalBackend(tmp_path / "state")
    wf = WorkflowDir(tmp_path / "state" / "workflows" / "old-1")
    wf.root.mkdir(parents=True)
    (wf.root / "spec.yaml").write_text(SPEC)
    write_json_atomic(wf.record_path, WorkflowRecord(workflow_id="old-1", name="old", submit_time=utcnow()))
    assert [r.workflow_id for r in backend.list_workflows()] == ["old-1"]
    status = backend.query("old-1")
    assert status.status.value == "FAILED_BACKEND_ERROR"
    assert "interrupted before the workflow started" in (status.failure_message or "")
    assert list(backend.logs("old-1")) == []
    backend.cancel("old-1")  # nothing to cancel, and no crash


def test_an_event_caught_half_written_is_read_once_its_writer_finishes(tmp_path: Path) -> None:
    """The supervisor appends events while a monitor in another process reads them: a read that lands mid-write
    returns the events written so far (was: a JSON error that ended the monitoring session) and the next read has
    the finished one."""
    backend = LocalBackend(tmp_path / "state")
    wid = backend.submit(spec_from_yaml(SPEC), idempotency_key="e:1").workflow_id
    path = WorkflowDir(tmp_path / "state" / "workflows" / wid).events_path
    before = backend.events(wid)
    line = '{"time":"2026-12-04T16:30:00Z","task":"t","reason":"FailedScheduling","message":"0/1 nodes are busy"}'
    with path.open("a", encoding="utf-8") as fh:
        fh.write(line[:60])  # the writer's first bytes only
    assert backend.events(wid) == before
    with path.open("a", encoding="utf-8") as fh:
        fh.write(line[60:] + "\n")
    after = backend.events(wid)
    assert len(after) == len(before) + 1 and after[-1].message == "0/1 nodes are busy"
