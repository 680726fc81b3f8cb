"""Local-backend behaviour beyond the shared suite: detachment, limits, admission, groups, files."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest

from runshepherd.backends.base import Status, SubmissionRejected, TaskStatus
from runshepherd.backends.local import LocalBackend, MachineInfo
from runshepherd.backends.local.store import WorkflowDir

from .conformance import wait_for, wait_running, wait_terminal
from .helpers import spec_from_yaml

GI = 1024**3
SMALL = MachineInfo(hostname="testbox", cpu_count=2, memory_bytes=4 * GI, gpu_count=0)


@pytest.fixture
def make_backend(tmp_path: Path) -> Iterator[Callable[..., LocalBackend]]:
    made: list[LocalBackend] = []

    def make(machine: MachineInfo | None = SMALL) -> LocalBackend:
        be = LocalBackend(tmp_path / "state", machine=machine)
        made.append(be)
        return be

    yield make
    for be in made:
        for row in be.list_workflows(limit=1000):
            if row.status.alive():
                be.cancel(row.workflow_id)


@pytest.fixture
def backend(make_backend: Callable[..., LocalBackend]) -> LocalBackend:
    return make_backend()


def one_task(name: str, command: str, extra: str = "", workflow_extra: str = "") -> str:
    """A one-task spec running ``command`` under sh; ``extra`` is indented YAML added to the task."""
    task_extra = textwrap.indent(textwrap.dedent(extra).strip(), "    ") if extra else ""
    wf_extra = textwrap.indent(textwrap.dedent(workflow_extra).strip(), "  ") if workflow_extra else ""
    return (
        f"workflow:\n  name: {name}\n{wf_extra}\n  tasks:\n  - name: main\n    image: ubuntu\n"
        f"    command: [sh, -c, {json.dumps(command)}]\n{task_extra}\n"
    )


def log_text(be: LocalBackend, wid: str) -> str:
    return "\n".join(be.logs(wid))


# ------------------------------------------------------------------------------------------- detachment
def test_workflow_outlives_the_submitting_process(backend: LocalBackend, tmp_path: Path) -> None:
    spec_path = tmp_path / "spec.yaml"
    spec_path.write_text(one_task("detached", "sleep 1; echo done > {{output}}/done.txt"))
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from runshepherd.backends.local import LocalBackend
        from runshepherd.spec.loader import load_spec_file
        be = LocalBackend(Path({str(backend.state_dir)!r}))
        print(be.submit(load_spec_file({str(spec_path)!r})).workflow_id)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    wid = out.stdout.strip()
    assert backend.query(wid).status.alive()  # the submitter has exited; the workflow has not
    status = wait_terminal(backend, wid)
    assert status.status is Status.COMPLETED
    assert any(u.endswith("done.txt") for u in status.outputs)


def test_killed_supervisor_gives_backend_error_and_no_orphans(backend: LocalBackend) -> None:
    sub = backend.submit(spec_from_yaml(one_task("orphan", "echo up; sleep 60")))
    running = wait_running(backend, sub.workflow_id)
    assert running.status is Status.RUNNING
    wf = WorkflowDir(backend.state_dir / "workflows" / sub.workflow_id)
    task_pid = wf.read_state().task("main").pid
    assert task_pid is not None and psutil.pid_exists(task_pid)
    supervisor = wf.read_supervisor()
    assert supervisor is not None
    os.kill(supervisor.pid, signal.SIGKILL)
    status = wait_terminal(backend, sub.workflow_id, deadline=10)
    assert status.status is Status.FAILED_BACKEND_ERROR
    task = status.task("main")
    assert task.status is TaskStatus.FAILED_BACKEND_ERROR
    assert task.failure_message == "the local supervisor process died"
    deadline = time.monotonic() + 5
    while psutil.pid_exists(task_pid) and psutil.Process(task_pid).status() != psutil.STATUS_ZOMBIE:
        assert time.monotonic() < deadline, "the orphaned task was not stopped"
        time.sleep(0.05)


def test_terminated_supervisor_stops_its_tasks_and_says_so(backend: LocalBackend) -> None:
    sub = backend.submit(spec_from_yaml(one_task("term", "sleep 60")))
    wait_running(backend, sub.workflow_id)
    wf = WorkflowDir(backend.state_dir / "workflows" / sub.workflow_id)
    supervisor = wf.read_supervisor()
    assert supervisor is not None
    os.kill(supervisor.pid, signal.SIGTERM)
    status = wait_terminal(backend, sub.workflow_id, deadline=10)
    assert status.status is Status.FAILED_BACKEND_ERROR
    assert "signal 15" in (status.task("main").failure_message or "")


# ------------------------------------------------------------------------------------------- limits
def test_memory_limit_kills_with_137_and_oomkilled_event(backend: LocalBackend) -> None:
    hog = "python -c \"import time; x = b'x' * (400 * 1024 * 1024); time.sleep(30)\""
    sub = backend.submit(spec_from_yaml(one_task("oom", hog, "resources:\n  memory: 100Mi")))
    status = wait_terminal(backend, sub.workflow_id)
    task = status.task("main")
    assert status.status is Status.FAILED
    assert task.status is TaskStatus.FAILED and task.exit_code == 137
    assert (task.failure_message or "").startswith("OOMKilled: memory ")
    assert task.failure_message.endswith("exceeds the limit 100Mi")
    oom = [e for e in backend.events(sub.workflow_id) if e.reason == "OOMKilled"]
    assert len(oom) == 1 and oom[0].message.endswith("of its 100Mi memory limit")
    assert "[main][osmo] Task exited with code 137" in log_text(backend, sub.workflow_id)


def test_exec_timeout_stops_the_task(backend: LocalBackend) -> None:
    spec = one_task("slow", "sleep 30", workflow_extra="timeout:\n  exec_timeout: 1s")
    t0 = time.monotonic()
    sub = backend.submit(spec_from_yaml(spec))
    status = wait_terminal(backend, sub.workflow_id)
    assert status.status is Status.FAILED_EXEC_TIMEOUT
    assert status.task("main").status is TaskStatus.FAILED_EXEC_TIMEOUT
    assert status.exec_timeout == 1
    assert time.monotonic() - t0 < 15


def test_gpu_request_on_gpu_less_machine_stays_pending(backend: LocalBackend) -> None:
    sub = backend.submit(spec_from_yaml(one_task("gpu", "echo never", "resources:\n  gpu: 2")))
    expected = (
        "PodScheduled: False, Reason: Unschedulable, Message: 0/1 nodes are available: "
        "1 Insufficient nvidia.com/gpu (requested 2, node has 0)."
    )
    deadline = time.monotonic() + 30
    while not any(e.line().endswith(expected) for e in backend.events(sub.workflow_id)):
        assert time.monotonic() < deadline, [e.line() for e in backend.events(sub.workflow_id)]
        backend.wait_for_change(sub.workflow_id, 0.2)
    time.sleep(0.5)
    status = backend.query(sub.workflow_id)
    assert status.status is Status.PENDING
    assert status.task("main").status is TaskStatus.SCHEDULING
    assert any(e.reason == "FailedScheduling" for e in backend.events(sub.workflow_id))
    backend.cancel(sub.workflow_id)  # cancel works while pending
    assert backend.query(sub.workflow_id).status is Status.FAILED_CANCELED


def test_queue_timeout_on_oversize_request(backend: LocalBackend) -> None:
    spec = one_task("qt", "echo never", "resources:\n  gpu: 2", workflow_extra="timeout:\n  queue_timeout: 1s")
    status = wait_terminal(backend, backend.submit(spec_from_yaml(spec)).workflow_id)
    assert status.status is Status.FAILED_QUEUE_TIMEOUT
    task = status.task("main")
    assert task.status is TaskStatus.FAILED_QUEUE_TIMEOUT and task.start_time is None
    assert "Insufficient nvidia.com/gpu" in (task.failure_message or "")


def test_cpu_reserved_by_one_workflow_blocks_another(backend: LocalBackend) -> None:
    big = backend.submit(spec_from_yaml(one_task("big", "sleep 60", "resources:\n  cpu: 2")))
    wait_running(backend, big.workflow_id)
    small = backend.submit(spec_from_yaml(one_task("small", "echo ran", "resources:\n  cpu: 1")))
    wait_for(
        backend,
        small.workflow_id,
        lambda s: any(
            "Insufficient cpu (requested 1, node has 0 free of 2)" in e.message for e in backend.events(s.workflow_id)
        ),
    )
    assert backend.query(small.workflow_id).status is Status.PENDING
    node = backend.resources()[0]
    assert node.cpu_total == 2 and node.cpu_free == 0
    backend.cancel(big.workflow_id)
    assert wait_terminal(backend, small.workflow_id).status is Status.COMPLETED


# ------------------------------------------------------------------------------------------- structure
PIPELINE = """
workflow:
  name: pipe
  tasks:
  - name: produce
    image: ubuntu
    command: [sh, -c, "{produce}"]
  - name: consume
    image: ubuntu
    command: [sh, -c, "cat {{{{input:0}}}}/data.txt > {{{{output}}}}/copy.txt; echo consumed"]
    inputs:
    - task: produce
"""


def test_pipeline_passes_data_via_input_token(backend: LocalBackend) -> None:
    spec = PIPELINE.format(produce="echo payload-42 > {{output}}/data.txt")
    status = wait_terminal(backend, backend.submit(spec_from_yaml(spec)).workflow_id)
    assert status.status is Status.COMPLETED
    copy = [u for u in status.task("consume").outputs if u.endswith("copy.txt")]
    assert copy and Path(copy[0].removeprefix("file://")).read_text().strip() == "payload-42"
    assert status.task("consume").start_time >= status.task("produce").end_time


def test_downstream_of_failed_task_is_failed_upstream(backend: LocalBackend) -> None:
    status = wait_terminal(backend, backend.submit(spec_from_yaml(PIPELINE.format(produce="exit 4"))).workflow_id)
    assert status.status is Status.FAILED
    assert status.task("produce").exit_code == 4
    consume = status.task("consume")
    assert consume.status is TaskStatus.FAILED_UPSTREAM and consume.start_time is None
    assert "produce" in (consume.failure_message or "")


GROUP = """
workflow:
  name: grp
  groups:
  - name: train
    ignoreNonleadStatus: {ignore}
    tasks:
    - name: master
      lead: true
      image: ubuntu
      command: [sh, -c, "echo master at {{{{host:worker}}}}; sleep 0.5"]
    - name: worker
      image: ubuntu
      command: [sh, -c, "{worker}"]
"""


def test_group_starts_together_and_follows_its_lead(backend: LocalBackend) -> None:
    spec = GROUP.format(ignore="true", worker="exit 1")
    sub = backend.submit(spec_from_yaml(spec))
    status = wait_terminal(backend, sub.workflow_id)
    assert status.status is Status.COMPLETED  # the non-lead failure is ignored
    master, worker = status.task("master"), status.task("worker")
    assert master.lead and not worker.lead
    assert worker.status is TaskStatus.FAILED and worker.exit_code == 1
    assert abs((master.start_time - worker.start_time).total_seconds()) < 1.0
    assert "] master at 127.0.0.1" in log_text(backend, sub.workflow_id)


def test_group_fails_on_non_lead_failure_when_not_ignored(backend: LocalBackend) -> None:
    status = wait_terminal(
        backend, backend.submit(spec_from_yaml(GROUP.format(ignore="false", worker="exit 1"))).workflow_id
    )
    assert status.status is Status.FAILED
    assert status.task("worker").status is TaskStatus.FAILED


def test_lead_exit_stops_the_rest_of_the_group(backend: LocalBackend) -> None:
    t0 = time.monotonic()
    status = wait_terminal(
        backend, backend.submit(spec_from_yaml(GROUP.format(ignore="true", worker="sleep 60"))).workflow_id
    )
    assert status.status is Status.COMPLETED
    assert status.task("worker").end_time is not None
    assert time.monotonic() - t0 < 20


FILES = """
workflow:
  name: files
  tasks:
  - name: main
    image: ubuntu
    command: [sh, /tmp/entry.sh]
    environment:
      GREETING: hi there
      NUM: 3
    files:
    - path: /tmp/entry.sh
      contents: |
        echo "greeting=$GREETING num=$NUM"
        echo "wf=$WORKFLOW_ID out=$OUTPUT_DIR token={{output}}"
        cat /tmp/data.bin
        cat conf/settings.txt; echo
        python -c "import sys; print('py=' + sys.executable)"
    - path: /tmp/data.bin
      base64: true
      contents: aGVsbG8gYmFzZTY0Cg==
    - path: conf/settings.txt
      contents: relative file
"""


def test_files_materialised_and_environment_set(backend: LocalBackend) -> None:
    sub = backend.submit(spec_from_yaml(FILES))
    status = wait_terminal(backend, sub.workflow_id)
    text = log_text(backend, sub.workflow_id)
    assert status.status is Status.COMPLETED, text
    out_dir = backend.state_dir / "workflows" / sub.workflow_id / "tasks" / "main" / "output"
    assert "greeting=hi there num=3" in text
    assert f"wf={sub.workflow_id} out={out_dir} token={out_dir}" in text
    assert "] hello base64" in text and "] relative file" in text
    assert f"py={Path(sys.executable).parent}/python" in text  # `python` is RunShepherd's interpreter
    work = backend.state_dir / "workflows" / sub.workflow_id / "tasks" / "main" / "work"
    assert (work / "tmp" / "entry.sh").is_file()
    assert f"Running command: sh {work}/tmp/entry.sh" in text


# ------------------------------------------------------------------------------------------- exit codes
@pytest.mark.parametrize(
    ("command", "code", "line"),
    [
        (["no-such-binary-xyz", "--flag"], 127, "[main] no-such-binary-xyz: command not found"),
        (["/etc"], 126, "[main] /etc: Permission denied"),
        (["sh", "-c", "kill -TERM $$"], 143, None),
    ],
)
def test_start_failures_and_signals_map_to_shell_exit_codes(
    backend: LocalBackend, command: list[str], code: int, line: str | None
) -> None:
    spec = f"workflow:\n  name: codes\n  tasks:\n  - name: main\n    image: x\n    command: {json.dumps(command)}\n"
    sub = backend.submit(spec_from_yaml(spec))
    status = wait_terminal(backend, sub.workflow_id)
    task = status.task("main")
    assert status.status is Status.FAILED and task.exit_code == code
    if line:
        assert line in log_text(backend, sub.workflow_id)


def test_log_keeps_partial_last_line_and_cuts_a_long_line_saying_so(backend: LocalBackend) -> None:
    cmd = "python -c \"import sys; print('L' * 100000); sys.stdout.write('no newline at end')\""
    sub = backend.submit(spec_from_yaml(one_task("lines", cmd)))
    wait_terminal(backend, sub.workflow_id)
    lines = list(backend.logs(sub.workflow_id))
    # a line over RAW_LINE_BYTES (64 KiB, the stored line's timestamp and task prefix included) keeps its head and
    # says where it was cut, so logs --raw stays bounded; before, all 100,000 characters came through
    cut = [ln for ln in lines if "] " + "L" * 60000 in ln]
    assert len(cut) == 1 and len(cut[0]) < 66000, [len(ln) for ln in lines]
    assert re.search(r"L … \[line cut at 65,536 of 100,\d{3} bytes\]$", cut[0]), cut[0][-80:]
    assert any(line.endswith("[main] no newline at end") for line in lines)


# ------------------------------------------------------------------------------------------- submission
def test_unsupported_inputs_are_rejected_with_a_fix(backend: LocalBackend) -> None:
    spec = one_task("rej", "true", "inputs:\n- url: s3://bucket/data\nprivileged: true")
    with pytest.raises(SubmissionRejected) as err:
        backend.submit(spec_from_yaml(spec))
    message = str(err.value)
    assert "s3://bucket/data" in message and "file://" in message
    assert "privileged" in message
    assert backend.list_workflows() == []


@pytest.mark.parametrize("path", ["../../../../../escaped.txt", "/tmp/../../../../../../escaped.txt"])
def test_a_files_path_that_climbs_out_with_dotdot_is_refused_and_nothing_is_written(
    backend: LocalBackend, tmp_path: Path, path: str
) -> None:
    """Before: `path: ../../../../x` wrote the file outside the task's folder (into the state dir's parent tree)."""
    spec = one_task("climb", "true", f"files:\n- path: {json.dumps(path)}\n  contents: hi")
    with pytest.raises(SubmissionRejected, match=r"climbs out with '\.\.'.*e\.g\. /tmp/escaped\.txt"):
        backend.submit(spec_from_yaml(spec))
    assert backend.list_workflows() == []
    assert not list(tmp_path.rglob("escaped.txt"))


def test_file_url_input_and_declared_outputs(backend: LocalBackend, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "x.txt").write_text("local data")
    spec = one_task(
        "urls", "cat {{input:0}}/x.txt", f"inputs:\n- url: {data.as_uri()}\noutputs:\n- url: s3://bucket/out"
    )
    sub = backend.submit(spec_from_yaml(spec))
    assert sub.outputs == ["s3://bucket/out"]
    assert any("kept in the local backend's object store" in w for w in sub.warnings)
    assert wait_terminal(backend, sub.workflow_id).status is Status.COMPLETED
    assert "[main] local data" in log_text(backend, sub.workflow_id)


def test_ids_increment_per_name(backend: LocalBackend) -> None:
    ids = [backend.submit(spec_from_yaml(one_task("same", "true"))).workflow_id for _ in range(2)]
    assert ids == ["same-1", "same-2"]
    for wid in ids:
        wait_terminal(backend, wid)


def test_pool_reports_this_machine(backend: LocalBackend) -> None:
    (pool,) = backend.pools()
    assert pool.name == "local" and pool.total_capacity == 0 and pool.effective_gpu_free() == 0
    assert any("image" in note for note in pool.notes)
    (node,) = backend.resources("local")
    assert node.hostname == "testbox" and node.cpu_total == 2 and node.memory_total_gi == 4


def test_wait_for_change_wakes_on_status_change(backend: LocalBackend) -> None:
    sub = backend.submit(spec_from_yaml(one_task("wake", "sleep 0.5")))
    wait_running(backend, sub.workflow_id)
    t0 = time.monotonic()
    woke = backend.wait_for_change(sub.workflow_id, 10)
    assert woke and time.monotonic() - t0 < 5


def test_a_change_between_the_query_and_the_wait_wakes_the_wait(backend: LocalBackend, tmp_path: Path) -> None:
    """The monitor queries, then waits: a task that ends in between (a quick failure) must wake the wait at once.
    Before, the wait took its baseline when called, saw no further change and slept the whole cadence (30 s by
    default, so `run` reported a failed 0-second task half a minute late)."""
    sub = backend.submit(spec_from_yaml(one_task("gap", "sleep 0.3; exit 1")))
    wait_running(backend, sub.workflow_id)
    assert backend.query(sub.workflow_id).status is Status.RUNNING  # the caller looks ...
    other = LocalBackend(tmp_path / "state", machine=SMALL)  # ... and the task ends before it waits
    wait_for(other, sub.workflow_id, lambda st: st.status.terminal())
    assert backend.wait_for_change(sub.workflow_id, 10) is True
    assert backend.query(sub.workflow_id).status is Status.FAILED
    assert backend.wait_for_change(sub.workflow_id, 0.3) is False  # looked at the end: nothing new since


def test_a_file_path_that_begins_another_is_rewritten_once_and_whole(backend: LocalBackend) -> None:
    """`/tmp/k` and `/tmp/k2` both in `files:`: each reference reaches its own file (was: `/tmp/k2` rewritten
    twice into `<work>/tmp/<work>/tmp/k2`, "No such file or directory"); `/tmp/kx` is no file and stays as it is."""
    extra = "files:\n- path: /tmp/k\n  contents: first\n- path: /tmp/k2\n  contents: second"
    sub = backend.submit(spec_from_yaml(one_task("prefix", "cat /tmp/k; echo; cat /tmp/k2; echo; echo /tmp/kx", extra)))
    status = wait_terminal(backend, sub.workflow_id)
    text = log_text(backend, sub.workflow_id)
    assert status.status is Status.COMPLETED, text
    assert "[main] first" in text and "[main] second" in text and "[main] /tmp/kx" in text


def test_localpath_files_are_copied_at_submit(backend: LocalBackend, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text("print('from localpath')\n")
    spec = one_task("localpath", "python /code/train.py", "files:\n- path: /code/train.py\n  localpath: train.py")
    sub = backend.submit(spec_from_yaml(spec, base_dir=project))
    (project / "train.py").write_text("print('edited after submit')\n")  # the run uses the submitted copy
    assert wait_terminal(backend, sub.workflow_id).status is Status.COMPLETED
    assert "[main] from localpath" in log_text(backend, sub.workflow_id)
