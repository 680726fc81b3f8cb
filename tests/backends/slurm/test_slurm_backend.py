"""Slurm-specific behaviour on the real cluster: memory limits, dependencies, groups, pending reasons, restart,
polling cost and the time limit."""

from __future__ import annotations

import re
import subprocess
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from runshepherd.backends.base import Status, TaskStatus
from runshepherd.backends.slurm import SlurmBackend
from runshepherd.diagnosis.pending import ResourceRequest, explain_pending

from ..conformance import wait_for, wait_terminal
from ..helpers import spec_from_yaml

OOM = """
workflow:
  name: slurm-oom
  resources:
    default: {cpu: 1, memory: 64Mi}
  tasks:
  - name: hog
    image: python:3.11-slim
    command: [python, -c, "import time; print('allocating', flush=True); b = bytearray(400 * 2**20); time.sleep(5)"]
"""

PIPELINE = """
workflow:
  name: slurm-pipe
  tasks:
  - name: make
    image: ubuntu:24.04
    command: [sh, -c, "sleep 1; echo data-$WORKFLOW_ID > {{output}}/data.txt"]
  - name: use
    image: ubuntu:24.04
    command: [sh, -c, "cat {{input:0}}/data.txt"]
    inputs: [{task: make}]
"""

BROKEN_UPSTREAM = """
workflow:
  name: slurm-broken
  tasks:
  - name: make
    image: ubuntu:24.04
    command: [sh, -c, "exit 2"]
  - name: use
    image: ubuntu:24.04
    command: [sh, -c, "echo never"]
    inputs: [{task: make}]
"""

GROUP = """
workflow:
  name: slurm-group
  groups:
  - name: pair
    tasks:
    - name: server
      lead: true
      image: ubuntu:24.04
      command: [sh, -c, "echo serving; sleep 2"]
    - name: client
      image: ubuntu:24.04
      command: [sh, -c, "echo asking {{host:server}}; sleep 1"]
"""

TOO_BIG = """
workflow:
  name: slurm-too-big
  resources:
    default: {cpu: 64}
  tasks:
  - name: huge
    image: ubuntu:24.04
    command: [sh, -c, "echo never"]
"""

TEN = "workflow:\n  name: slurm-ten\n  tasks:\n" + "".join(
    f"  - name: t{i}\n    image: ubuntu:24.04\n    command: [sh, -c, 'echo {i}']\n" for i in range(10)
)

TIMEOUT = """
workflow:
  name: slurm-timeout
  timeout: {exec_timeout: 3s}
  tasks:
  - name: forever
    image: ubuntu:24.04
    command: [sh, -c, "echo working; sleep SECONDS & wait"]
"""

ODD_DIR = """
workflow:
  name: slurm-odd-dir
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [sh, -c, 'echo "ran in $(pwd)"']
"""


def test_memory_overrun_is_failed_with_an_oom_event(backend: SlurmBackend) -> None:
    sub = backend.submit(spec_from_yaml(OOM))
    status = wait_terminal(backend, sub.workflow_id, 60)
    task = status.task("hog")
    assert status.status is Status.FAILED and task.status is TaskStatus.FAILED
    assert task.exit_code == 137
    events = backend.events(sub.workflow_id)
    oom = [e for e in events if e.reason == "OOMKilled"]
    assert oom and "--mem=64M" in oom[0].message and "JobState=OUT_OF_MEMORY" in oom[0].message
    lines = list(backend.logs(sub.workflow_id))
    assert any("] allocating" in line for line in lines)
    assert any("[hog][osmo] Slurm job" in line and "OUT_OF_MEMORY" in line for line in lines)


def test_inputs_become_afterok_dependencies_and_outputs_flow(backend: SlurmBackend) -> None:
    sub = backend.submit(spec_from_yaml(PIPELINE))
    status = wait_terminal(backend, sub.workflow_id, 60)
    assert status.status is Status.COMPLETED, status
    make, use = status.task("make"), status.task("use")
    assert use.start_time and make.end_time and use.start_time >= make.end_time.replace(microsecond=0)
    user_lines = [line for line in backend.logs(sub.workflow_id, task="use") if "][osmo]" not in line]
    assert user_lines[-1].endswith(f"] data-{sub.workflow_id}")


def test_failed_upstream_cancels_the_dependant(backend: SlurmBackend) -> None:
    sub = backend.submit(spec_from_yaml(BROKEN_UPSTREAM))
    status = wait_terminal(backend, sub.workflow_id, 60)
    assert status.status is Status.FAILED
    assert status.task("make").exit_code == 2
    assert status.task("use").status is TaskStatus.FAILED_UPSTREAM


def test_a_group_runs_together(backend: SlurmBackend) -> None:
    sub = backend.submit(spec_from_yaml(GROUP))
    status = wait_terminal(backend, sub.workflow_id, 60)
    assert status.status is Status.COMPLETED
    server, client = status.task("server"), status.task("client")
    assert server.lead and not client.lead
    assert client.start_time and server.start_time
    # Released in one call: Slurm made both jobs eligible at the same moment, to its one-second resolution (the
    # controller stamps each job of the call in turn, so a second boundary may fall between them; a release per job,
    # each after its own poll, would be seconds apart). When they start depends on room in the partition: under CI's
    # parallel tests a CPU may free up seconds later, so start times are not compared.
    jobs = [j.job_id for j in backend._dir(sub.workflow_id).read_slurm_record().tasks]
    shown = [backend.cli.run("scontrol", ["show", "job", "-o", job]).stdout for job in jobs]
    eligible = [re.findall(r"\bEligibleTime=(\S+)", text) for text in shown]
    assert len(jobs) == 2 and len(eligible[0]) == 1 and len(eligible[1]) == 1, shown
    apart = abs(datetime.fromisoformat(eligible[0][0]) - datetime.fromisoformat(eligible[1][0]))
    assert apart <= timedelta(seconds=1), shown
    assert any(line.endswith("] asking 127.0.0.1") for line in backend.logs(sub.workflow_id, task="client"))


def test_request_larger_than_any_node_waits_and_is_explained_as_no_node_fits(backend: SlurmBackend) -> None:
    sub = backend.submit(spec_from_yaml(TOO_BIG))
    try:
        status = wait_for(
            backend,
            sub.workflow_id,
            lambda s: any(e.reason == "Unschedulable" for e in backend.events(s.workflow_id)),
            20,
        )
        assert status.status is Status.PENDING
        lines = [e.line() for e in backend.events(sub.workflow_id)]
        assert any("Reason=PartitionConfig" in line for line in lines), lines
        why = explain_pending(
            lines, backend.pools(), backend.resources(None), ResourceRequest(cpu=64, pool=status.pool)
        )
        assert why.kind == "node_fit" and "No single machine" in why.summary
    finally:
        backend.cancel(sub.workflow_id)
    assert backend.query(sub.workflow_id).status is Status.FAILED_CANCELED


def test_a_new_process_finds_workflows_by_key_and_lists_them(backend: SlurmBackend, tmp_path: Path) -> None:
    key = f"restart-{time.time_ns()}"
    sub = backend.submit(spec_from_yaml(PIPELINE), idempotency_key=key)
    fresh = SlurmBackend(backend.state_dir, {"slurm_conf": str(backend.cli.slurm_conf)})
    assert fresh.find_by_key(key) == sub.workflow_id
    wait_terminal(fresh, sub.workflow_id, 60)
    assert sub.workflow_id in [r.workflow_id for r in fresh.list_workflows(statuses=[Status.COMPLETED])]
    # Even without the shared records, the job comments tell Slurm's jobs apart.
    other = SlurmBackend(tmp_path / "elsewhere", {"slurm_conf": str(backend.cli.slurm_conf)})
    assert other.find_by_key(key) == sub.workflow_id


def test_one_poll_of_a_ten_task_workflow_is_one_scheduler_call(backend: SlurmBackend) -> None:
    sub = backend.submit(spec_from_yaml(TEN))
    before = backend.cli.calls
    status = backend.query(sub.workflow_id)
    assert backend.cli.calls - before == 1 and len(status.tasks) == 10
    final = wait_terminal(backend, sub.workflow_id, 90)
    assert final.status is Status.COMPLETED
    before = backend.cli.calls
    backend.query(sub.workflow_id)
    backend.events(sub.workflow_id)
    assert backend.cli.calls == before  # finished jobs are remembered: no scheduler call at all


def test_unknown_partition_is_rejected_at_submit(backend: SlurmBackend) -> None:
    from runshepherd.backends.base import SubmissionRejected

    with pytest.raises(SubmissionRejected, match="partition"):
        backend.submit(spec_from_yaml(PIPELINE), pool="no-such-partition")
    assert backend.list_workflows() == []


@pytest.mark.slow
def test_exec_timeout_stops_the_job_to_the_second_and_gives_failed_exec_timeout(backend: SlurmBackend) -> None:
    """The in-job runner stops the command at exec_timeout (3 s), with what it started (the backgrounded sleep):
    Slurm's own --time is whole minutes checked about every 30 s, so alone it stopped a 20 s limit after 60-100 s.
    Slurm's TIMEOUT state (the backstop) maps the same way: test_slurm_timeout_state_is_failed_exec_timeout."""
    seconds = f"300.{uuid.uuid4().int % 10**9}"  # names this test's sleep among the cluster's processes
    sub = backend.submit(spec_from_yaml(TIMEOUT.replace("SECONDS", seconds)))
    status = wait_terminal(backend, sub.workflow_id, 60)
    assert status.status is Status.FAILED_EXEC_TIMEOUT
    task = status.task("forever")
    assert task.status is TaskStatus.FAILED_EXEC_TIMEOUT and "exec_timeout of 3s exceeded" in (
        task.failure_message or ""
    )
    assert task.start_time and task.end_time and (task.end_time - task.start_time).total_seconds() < 30
    assert any(e.reason == "DeadlineExceeded" for e in backend.events(sub.workflow_id))
    assert any("Task exceeded its exec_timeout of 3s; stopping it" in line for line in backend.logs(sub.workflow_id))
    ps = subprocess.run(["pgrep", "-f", f"sleep {seconds}"], capture_output=True, text=True)
    assert ps.stdout.strip() == "", "the backgrounded sleep was stopped with the command"


def test_slurm_timeout_state_is_failed_exec_timeout() -> None:
    """Slurm's own time limit (the backstop when the runner cannot act) reads as an exec timeout, with the event."""
    from datetime import UTC, datetime

    from runshepherd.backends.slurm.backend import _events_for
    from runshepherd.backends.slurm.jobs import verdict
    from runshepherd.backends.slurm.records import Observation, TaskJob

    v = verdict("TIMEOUT", "TimeLimit", None)
    assert v.status is TaskStatus.FAILED_EXEC_TIMEOUT and "time limit" in (v.message or "")
    now = datetime.now(UTC)
    job = TaskJob(name="t", group="t", lead=True, job_id="7")
    old = Observation(state="RUNNING", reason="None", status=TaskStatus.RUNNING, start_time=now)
    new = Observation(state="TIMEOUT", reason="TimeLimit", status=v.status, start_time=now, end_time=now)
    assert [e.reason for e in _events_for(job, old, new)] == ["DeadlineExceeded"]


def test_a_shared_dir_with_spaces_quotes_hash_and_percent_runs(tmp_path: Path, slurm_conf: Path) -> None:
    """The generated #SBATCH directives quote what sbatch would split or cut: the job runs, its output lands."""
    odd = SlurmBackend(tmp_path / "my runs" / "it's #1 at 50%", {"slurm_conf": str(slurm_conf)})
    sub = odd.submit(spec_from_yaml(ODD_DIR))
    status = wait_terminal(odd, sub.workflow_id, 60)
    assert status.status is Status.COMPLETED, status
    lines = list(odd.logs(sub.workflow_id))
    assert any(line.endswith(f"] ran in {odd.root}/workflows/{sub.workflow_id}/tasks/t/work") for line in lines)
    assert any("Slurm job" in line and "JobState=COMPLETED" in line for line in lines)
    assert (odd.root / "workflows" / sub.workflow_id / "tasks" / "t" / "slurm.out").exists()  # --output kept


def test_dataset_inputs_are_refused_in_the_slurm_backends_own_words(backend: SlurmBackend) -> None:
    from runshepherd.backends.base import SubmissionRejected

    text = PIPELINE.replace("inputs: [{task: make}]", "inputs: [{dataset: {name: imagenet}}]")
    with pytest.raises(SubmissionRejected) as info:
        backend.submit(spec_from_yaml(text))
    message = str(info.value)
    assert message.startswith("the Slurm backend cannot run this spec") and "local" not in message
