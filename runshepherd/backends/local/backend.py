"""The local backend: a real single-machine scheduler behind the Backend Protocol.

Each submitted workflow is a directory under ``state_dir/workflows/`` run by a detached supervisor process
(``supervisor.py``); this class only writes records, starts supervisors and reads what they write, so any
process (a later CLI call, the agent, a test) can find and follow a workflow by id.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
from filelock import FileLock

import runshepherd
from runshepherd import wording
from runshepherd.backends.access import Access, AccessCheck, check_path
from runshepherd.backends.base import (
    BackendError,
    Event,
    Links,
    Node,
    Pool,
    Priority,
    Status,
    Submission,
    SubmissionRejected,
    TaskState,
    TaskStatus,
    TaskUsage,
    WholeLog,
    WorkflowNotFound,
    WorkflowStatus,
    WorkflowSummary,
    aggregate_status,
)
from runshepherd.backends.files.checks import Host, check_workflow, stage_localfiles
from runshepherd.backends.files.logfiles import complete_end, follow
from runshepherd.backends.files.objects import download as download_url
from runshepherd.backends.files.objects import file_url
from runshepherd.backends.files.records import (
    allocate_workflow_dir,
    span_seconds,
    utcnow,
    workflows_root,
    write_json_atomic,
    write_text_atomic,
)
from runshepherd.backends.local.machine import MachineInfo, detect_machine
from runshepherd.backends.local.store import (
    GroupRecord,
    ProcessRef,
    TaskRecord,
    WorkflowDir,
    WorkflowRecord,
    WorkflowState,
    all_workflow_dirs,
    process_alive,
    remove_abandoned,
)
from runshepherd.names import is_id

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.backends.local.admission import Usage
    from runshepherd.spec.document import SpecDocument

POOL = "local"
HOST = Host(
    backend="the local backend", where="on this host", machine="this machine", runs="local runs", single_pool=POOL
)
SUPERVISOR_START_GRACE = 30.0  # seconds a just-submitted workflow may lack a supervisor record
CANCEL_WAIT = 15.0
SUPERVISOR_DIED = "the local supervisor process died"
POOL_NOTES = [
    "the local backend runs tasks on this host; `image` is recorded but not used",
    "admission reserves the cpu/memory/gpu a task requests; `resources.memory` is enforced as a limit",
]

_CHILDREN: list[subprocess.Popen[bytes]] = []
_CHILDREN_LOCK = threading.Lock()  # a sweep's points submit and query from several threads of one process


@dataclass
class _Seen:
    """What a batched read keeps of a live workflow between passes."""

    wf: WorkflowDir
    record: WorkflowRecord
    ref: ProcessRef | None = None
    identity: tuple[int, int, int] = (0, 0, 0)
    state: WorkflowState | None = None


def _reap_children() -> None:
    """Collect exited supervisors this process started, so they do not linger as zombies. Under a lock: two sweep
    points reaping at once both saw the same exited child, and the second `remove` raised ValueError, stopping its
    point on an error before its diagnosis (CI, stop 47)."""
    with _CHILDREN_LOCK:
        _CHILDREN[:] = [child for child in _CHILDREN if child.poll() is None]


class LocalBackend:
    name = "local"
    cheap_logs = True  # logs are local files: the monitor may refresh progress between status polls
    cheap_status = True  # a status is a state file, and wait_for_change wakes only when it is rewritten
    runs_on_host = True  # tasks are processes on this machine (the image is recorded, not used)
    refuses_unfit = False  # admission queues a task this machine cannot hold for ever: the plan never submits it

    def __init__(self, state_dir: Path, *, machine: MachineInfo | None = None) -> None:
        self.state_dir = Path(state_dir).expanduser().resolve()
        self._injected = machine
        self._machine = machine
        self._seen: dict[str, _Seen] = {}  # live workflows of batched reads: what need not be read again
        # The state file's identity when each workflow was last looked at (a query, or a wait that timed out):
        # ``wait_for_change`` wakes for a write made since then, not only for one made during the wait.
        self._looked: dict[str, tuple[int, int, int]] = {}
        self._batch_lock = threading.Lock()

    @property
    def machine(self) -> MachineInfo:
        if self._machine is None:
            self._machine = detect_machine()
        return self._machine

    # ------------------------------------------------------------------------------------------ submit
    def submit(
        self,
        spec: SpecDocument,
        pool: str | None = None,
        *,
        priority: Priority = "NORMAL",
        idempotency_key: str | None = None,
    ) -> Submission:
        if pool not in (None, POOL):
            raise SubmissionRejected(f"pool {pool!r} does not exist on the local backend — use {POOL!r} or omit --pool")
        self.state_dir.mkdir(parents=True, exist_ok=True)
        warnings = check_workflow(spec.workflow, self.state_dir, spec.base_dir, HOST)
        declared = [o.url for t in spec.workflow.all_tasks() for o in t.outputs if o.url]
        with FileLock(str(self.state_dir / "submit.lock"), timeout=30):
            if idempotency_key is not None:
                existing = self.find_by_key(idempotency_key)
                if existing is not None:
                    return self._submission(
                        WorkflowDir(workflows_root(self.state_dir) / existing),
                        declared,
                        [f"already submitted with idempotency key {idempotency_key!r} as {existing}; not resubmitted"],
                    )
            remove_abandoned(self.state_dir)  # under the lock no submission is half-way: these were killed
            wf = WorkflowDir(allocate_workflow_dir(self.state_dir, spec.name))
            # Everything before record.json (the commit point), each file atomic: a kill at any instruction
            # leaves either no workflow (a folder without a record, removed by the next submit) or a whole one.
            write_text_atomic(wf.spec_path, spec.rendered_text)
            write_text_atomic(wf.template_path, spec.template_text)
            write_text_atomic(wf.model_path, spec.model.model_dump_json(by_alias=True, exclude_unset=True))
            stage_localfiles(spec.workflow, wf, spec.base_dir)
            write_json_atomic(wf.state_path, initial_state(wf.workflow_id, spec))
            timeout = spec.workflow.timeout
            record = WorkflowRecord(
                workflow_id=wf.workflow_id,
                name=spec.name,
                priority=priority,
                idempotency_key=idempotency_key,
                submit_time=utcnow(),
                declared_outputs=declared,
                warnings=warnings,
                machine=self._injected,
                exec_timeout=timeout.exec_seconds,
                queue_timeout=timeout.queue_seconds,
            )
            write_json_atomic(wf.record_path, record)
        self._start_supervisor(wf)
        return self._submission(wf, declared, warnings)

    def validate(self, spec: SpecDocument, pool: str | None = None) -> list[str]:
        """What submit would refuse, plus a warning when no task could ever fit this machine; nothing runs."""
        if pool not in (None, POOL):
            raise SubmissionRejected(f"pool {pool!r} does not exist on the local backend — use {POOL!r} or omit --pool")
        warnings = check_workflow(spec.workflow, self.state_dir, spec.base_dir, HOST)
        m = self.machine
        for t in spec.workflow.all_tasks():
            r = spec.workflow.resources_for(t)
            short = [
                what
                for what, asked, have in (
                    ("CPUs", r.cpu or 0, m.cpu_count),
                    ("memory", r.memory_bytes or 0, m.memory_bytes),
                    ("GPUs", r.gpu or 0, m.gpu_count),
                )
                if asked > have
            ]
            if short:
                warnings.append(
                    f"task {t.name!r} asks for more {', '.join(short)} than this machine has; "
                    "it would wait in the queue forever"
                )
        return warnings

    def _submission(self, wf: WorkflowDir, declared: list[str], warnings: list[str]) -> Submission:
        return Submission(
            workflow_id=wf.workflow_id, pool=POOL, overview_url=file_url(wf.root), outputs=declared, warnings=warnings
        )

    def _start_supervisor(self, wf: WorkflowDir) -> None:
        env = dict(os.environ)
        package_parent = str(Path(runshepherd.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH", "")) if p)
        with wf.supervisor_log.open("ab") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "runshepherd.backends.local.supervisor", str(wf.root)],
                cwd=wf.root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        with _CHILDREN_LOCK:
            _CHILDREN.append(proc)
        try:
            ref = ProcessRef.of(proc.pid)
        except psutil.NoSuchProcess:
            ref = ProcessRef(pid=proc.pid, create_time=0.0)  # died at once: query will report it
        write_json_atomic(wf.supervisor_path, ref)

    # ------------------------------------------------------------------------------------------ reading
    def _wf(self, workflow_id: str) -> WorkflowDir:
        wf = WorkflowDir(workflows_root(self.state_dir) / workflow_id)
        if not is_id(workflow_id) or not wf.record_path.is_file():
            raise WorkflowNotFound(workflow_id, self.name)
        return wf

    def _state(self, wf: WorkflowDir) -> WorkflowState:
        """The state, or — if its supervisor is gone while it claims to be alive — the post-mortem."""
        _reap_children()
        state = wf.read_state()
        if state.status.terminal() or self._supervisor_alive(wf):
            return state
        state = wf.read_state()  # the supervisor may have written its final state just before exiting
        if state.status.terminal():
            return state
        return post_mortem(wf, TaskStatus.FAILED_BACKEND_ERROR, SUPERVISOR_DIED)

    def _supervisor_alive(
        self, wf: WorkflowDir, ref: ProcessRef | None = None, record: WorkflowRecord | None = None
    ) -> bool:
        ref = ref or wf.read_supervisor()
        if ref is None:
            age = (utcnow() - (record or wf.read_record()).submit_time).total_seconds()
            return age < SUPERVISOR_START_GRACE
        return ref.alive()

    def query(self, workflow_id: str) -> WorkflowStatus:
        wf = self._wf(workflow_id)
        self._looked[workflow_id] = _file_identity(wf.state_path)  # stat first: a later write is a change
        return self._status(wf, wf.read_record(), self._state(wf))

    def query_many(self, workflow_ids: list[str]) -> dict[str, WorkflowStatus]:
        """Several workflows in one pass (a sweep's poll tick, `BatchQuery`). Each workflow has its own state
        file written by its own supervisor, so there is no single file to read: the pass stats every state file
        and opens only those rewritten since the last pass; the submit record (never rewritten) and the
        supervisor's pid record (written once) are read once per workflow. A tick where nothing changed opens
        no file at all; an unknown id raises WorkflowNotFound."""
        _reap_children()
        with self._batch_lock:
            out = {wid: self._batched(wid) for wid in dict.fromkeys(workflow_ids)}
        return out

    def _batched(self, workflow_id: str) -> WorkflowStatus:
        seen = self._seen.get(workflow_id)
        if seen is not None and _file_identity(seen.wf.state_path) == (0, 0, 0):
            seen = None  # its state file is gone: look the workflow up again (WorkflowNotFound if it was removed)
        if seen is None:
            wf = self._wf(workflow_id)
            seen = _Seen(wf=wf, record=wf.read_record())
        wf = seen.wf
        identity = _file_identity(wf.state_path)
        self._looked[workflow_id] = identity
        if seen.state is None or identity != seen.identity or identity == (0, 0, 0):
            seen.state, seen.identity = wf.read_state(), identity  # stat first: a write after it is read next pass
        state = seen.state
        if state.status.alive():
            if seen.ref is None:
                seen.ref = wf.read_supervisor()
            if not self._supervisor_alive(wf, seen.ref, seen.record):
                state = self._state(wf)  # re-read: the final state may have just been written, else post-mortem
                seen.state, seen.identity = state, _file_identity(wf.state_path)
        if state.status.terminal():
            self._seen.pop(workflow_id, None)  # final: a sweep never asks again
        else:
            self._seen[workflow_id] = seen
        return self._status(wf, seen.record, state)

    def _status(self, wf: WorkflowDir, record: WorkflowRecord, state: WorkflowState) -> WorkflowStatus:
        host = (record.machine.hostname if record.machine else None) or self.machine.hostname
        tasks = [to_task_state(t, host) for t in state.tasks]
        now = utcnow()
        end = state.end_time or (None if state.status.terminal() else now)
        queued_until = state.start_time or end
        return WorkflowStatus(
            workflow_id=record.workflow_id,
            name=record.name,
            status=state.status,
            pool=record.pool,
            backend=self.name,
            priority=record.priority,
            submit_time=record.submit_time,
            start_time=state.start_time,
            end_time=state.end_time,
            queued_time=span_seconds(record.submit_time, queued_until),
            duration=span_seconds(state.start_time, end),
            exec_timeout=record.exec_timeout,
            queue_timeout=record.queue_timeout,
            tasks=tasks,
            links=Links(overview=file_url(wf.root)),
            outputs=[url for t in tasks for url in t.outputs],
            failure_message=state.failure_message,
        )

    def list_workflows(
        self, *, statuses: list[Status] | None = None, pool: str | None = None, limit: int = 50
    ) -> list[WorkflowSummary]:
        if pool not in (None, POOL):
            return []
        rows = []
        for wf in all_workflow_dirs(self.state_dir):
            try:
                record, state = wf.read_record(), self._state(wf)
            except FileNotFoundError:
                continue  # being created right now
            if statuses and state.status not in statuses:
                continue
            end = state.end_time or (None if state.status.terminal() else utcnow())
            rows.append(
                WorkflowSummary(
                    workflow_id=record.workflow_id,
                    name=record.name,
                    status=state.status,
                    pool=record.pool,
                    priority=record.priority,
                    submit_time=record.submit_time,
                    start_time=state.start_time,
                    end_time=state.end_time,
                    duration=span_seconds(state.start_time, end),
                    overview_url=file_url(wf.root),
                )
            )
        rows.sort(key=lambda r: (r.submit_time or utcnow(), r.workflow_id), reverse=True)
        return rows[:limit]

    def logs(
        self,
        workflow_id: str,
        task: str | None = None,
        *,
        tail: int | None = None,
        timeout: float | None = None,
    ) -> Iterator[str]:
        """Existing lines (or the last ``tail``); on an alive workflow, follows for up to ``timeout`` seconds."""
        wf = self._wf(workflow_id)
        if task is not None and wf.log_path(task).is_file():
            names = [task]  # the common case, without parsing the state of a workflow of maybe 1000 tasks
        else:
            names = [t.name for t in wf.read_state().tasks]
            if task is not None:
                if task not in names:
                    raise BackendError(f"workflow {workflow_id} has no task {task!r} (tasks: {', '.join(names)})")
                names = [task]
        paths = [wf.log_path(n) for n in names]
        alive = bool(timeout) and self._state(wf).status.alive()  # only a follow needs to know
        ends = {p: complete_end(p) for p in paths}
        return follow(paths, ends, tail, timeout if alive else None, lambda: self._state(wf).status.terminal())

    def whole_log(self, workflow_id: str, task: str) -> WholeLog:
        """The task's log file itself: the streaming scanner reads all of it in constant memory."""
        wf = self._wf(workflow_id)
        path = wf.log_path(task)
        if not path.is_file() and task not in {t.name for t in wf.read_state().tasks}:
            raise BackendError(f"workflow {workflow_id} has no task {task!r}")
        return WholeLog(path=path)

    def events(self, workflow_id: str, task: str | None = None) -> list[Event]:
        wf = self._wf(workflow_id)
        return [e for e in wf.read_events() if task is None or e.task == task]

    def usage(self, workflow_id: str) -> list[TaskUsage]:
        """CPU (over one shared 1 s interval) and resident memory of each running task's process tree."""
        from runshepherd.backends.local.supervisor import CPU_INTERVAL, tree_rss, trees_cpu_percent

        state = self._state(self._wf(workflow_id))
        running = [
            t
            for t in state.tasks
            if t.status is TaskStatus.RUNNING and t.pid and process_alive(t.pid, t.pid_create_time)
        ]
        cpu = trees_cpu_percent([t.pid for t in running if t.pid])
        return [
            TaskUsage(
                task=t.name,
                cpu_percent=cpu.get(t.pid),
                cpu_interval_seconds=CPU_INTERVAL,
                rss_bytes=tree_rss(t.pid),
                gpus_allocated=0,
            )
            for t in running
            if t.pid
        ]

    def spec(self, workflow_id: str, *, template: bool = False) -> str:
        wf = self._wf(workflow_id)
        return (wf.template_path if template else wf.spec_path).read_text(encoding="utf-8")

    def cancel(self, workflow_id: str) -> None:
        """Ask the supervisor to stop the workflow and wait (bounded) until it is FAILED_CANCELED."""
        wf = self._wf(workflow_id)
        if self._state(wf).status.terminal():
            return
        wf.cancel_path.touch()
        deadline = time.monotonic() + CANCEL_WAIT
        while time.monotonic() < deadline:
            if wf.read_state().status.terminal():
                return
            if not self._supervisor_alive(wf):
                post_mortem(wf, TaskStatus.FAILED_CANCELED, "canceled by the user")
                return
            self.wait_for_change(workflow_id, 0.5)
        raise BackendError(f"{workflow_id}: cancel requested, but the supervisor has not stopped it yet")

    # ------------------------------------------------------------------------------------------ machine
    def _usage(self) -> Usage:
        from runshepherd.backends.local.admission import Ledger  # pools/resources only: not every command's import

        return Ledger.usage_of(self.state_dir)

    def pools(self) -> list[Pool]:
        m = self.machine
        used = len(self._usage().gpus)
        return [
            Pool(
                name=POOL,
                description=f"this machine ({m.hostname}): {wording.count(m.cpu_count, 'CPU')}, "
                f"{m.memory_bytes / 1024**3:.1f}Gi memory, {wording.count(m.gpu_count, 'GPU')}",
                backend=self.name,
                total_capacity=m.gpu_count,
                total_usage=used,
                total_free=max(0, m.gpu_count - used),
                notes=list(POOL_NOTES),
            )
        ]

    def resources(self, pool: str | None = None) -> list[Node]:
        if pool not in (None, POOL):
            raise BackendError(f"no pool {pool!r} on the local backend — it has one pool, {POOL!r}")
        m = self.machine
        usage = self._usage()
        disk_root = self.state_dir if self.state_dir.exists() else Path.home()
        disk = shutil.disk_usage(disk_root)
        gi = 1024**3
        return [
            Node(
                hostname=m.hostname,
                pool=POOL,
                conditions=["Ready"],
                cpu_total=float(m.cpu_count),
                cpu_free=max(0.0, m.cpu_count - usage.cpu),
                memory_total_gi=round(m.memory_bytes / gi, 2),
                memory_free_gi=round(max(0, m.memory_bytes - usage.memory) / gi, 2),
                storage_total_gi=round(disk.total / gi, 2),
                storage_free_gi=round(disk.free / gi, 2),
                gpu_total=m.gpu_count,
                gpu_free=max(0, m.gpu_count - len(usage.gpus)),
            )
        ]

    # ------------------------------------------------------------------------------------------ misc
    def check_access(self, uri: str, access: Access) -> AccessCheck:
        return check_path(uri, access, who="this machine")

    def download(self, url: str, dest: Path) -> list[Path]:
        return download_url(url, Path(dest), self.state_dir / "objects", backend=HOST.backend)

    def find_by_key(self, idempotency_key: str) -> str | None:
        found = [
            rec
            for rec in (wf.read_record() for wf in all_workflow_dirs(self.state_dir))
            if rec.idempotency_key == idempotency_key
        ]
        if not found:
            return None
        return max(found, key=lambda r: r.submit_time).workflow_id

    def wait_for_change(self, workflow_id: str, timeout: float) -> bool:
        """Poll the state file's identity every 20 ms (os.replace gives each write a new inode).

        The baseline is the identity when the caller last looked (its query, or its last wait that timed out), so
        a write between the query and the wait wakes it at once. Taken at the call instead, a task that ended in
        that gap (a quick failure) went unnoticed for the whole cadence: 30 s by default."""
        wf = self._wf(workflow_id)
        deadline = time.monotonic() + max(0.0, timeout)
        first = self._looked.pop(workflow_id, None) or _file_identity(wf.state_path)
        next_liveness = time.monotonic() + 0.5
        while True:
            now = time.monotonic()
            if now >= deadline:
                self._looked[workflow_id] = first  # a later wait goes on from here: nothing is missed between
                return False
            if _file_identity(wf.state_path) != first:
                return True
            time.sleep(min(0.02, deadline - now))
            if time.monotonic() >= next_liveness:
                next_liveness = time.monotonic() + 0.5
                if wf.read_state().status.alive() and not self._supervisor_alive(wf):
                    return True


def _file_identity(path: Path) -> tuple[int, int, int]:
    try:
        st = path.stat()
    except FileNotFoundError:
        return (0, 0, 0)  # not written yet (submit in progress)
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def initial_state(workflow_id: str, spec: SpecDocument) -> WorkflowState:
    groups = spec.workflow.task_groups()
    tasks = []
    for g in groups:
        lead = next((t.name for t in g.tasks if t.lead), g.tasks[0].name)
        tasks += [TaskRecord(name=t.name, group=g.name, lead=t.name == lead) for t in g.tasks]
    return WorkflowState(workflow_id=workflow_id, groups=[GroupRecord(name=g.name) for g in groups], tasks=tasks)


def to_task_state(t: TaskRecord, host: str) -> TaskState:
    return TaskState(
        name=t.name,
        group=t.group,
        status=t.status,
        exit_code=t.exit_code,
        failure_message=t.failure_message,
        lead=t.lead,
        node=host if t.start_time else None,
        scheduling_start_time=t.scheduling_start_time,
        start_time=t.start_time,
        end_time=t.end_time,
        outputs=list(t.outputs),
    )


def post_mortem(wf: WorkflowDir, status: TaskStatus, message: str) -> WorkflowState:
    """Finish a workflow whose supervisor is gone: stop orphaned tasks, record why, free its reservations."""
    with FileLock(str(wf.root / "postmortem.lock"), timeout=30):
        state = wf.read_state()
        if state.status.terminal():
            return state
        now = utcnow()
        for t in state.tasks:
            if not t.status.alive():
                continue
            if t.pid is not None and process_alive(t.pid, t.pid_create_time):
                try:
                    os.killpg(t.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass  # exited between the check and the kill
            t.status, t.failure_message, t.end_time = status, message, now
        for g in state.groups:
            if g.status.alive():
                g.status, g.failure_message, g.end_time = status, message, now
        state.status = aggregate_status([g.status for g in state.groups])
        state.failure_message = message
        state.end_time = now
        state.seq += 1
        write_json_atomic(wf.state_path, state)
        (wf.state_dir / "ledger" / f"{wf.workflow_id}.json").unlink(missing_ok=True)
        return state
