"""The detached process that runs one local workflow to the end.

Started by ``LocalBackend.submit`` in its own session, it outlives the CLI. It is the only writer of the
workflow's ``state.json`` while alive; it admits groups against the machine, runs tasks as process groups,
enforces memory limits and timeouts, stores outputs, and never leaves a task behind when it stops.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import psutil

from runshepherd.backends.base import Event, TaskStatus, aggregate_status
from runshepherd.backends.files.logfiles import TaskLog
from runshepherd.backends.files.objects import store_outputs
from runshepherd.backends.files.process import exit_code_of
from runshepherd.backends.files.records import utcnow, write_json_atomic
from runshepherd.backends.files.taskprep import prepare_task
from runshepherd.backends.local.admission import Ledger, Request, human_bytes, unschedulable_message
from runshepherd.backends.local.machine import MachineInfo, detect_machine
from runshepherd.backends.local.store import GroupRecord, ProcessRef, TaskRecord, WorkflowDir
from runshepherd.spec.model import Group, Task, WorkflowFile, format_duration
from runshepherd.spec.tokens import TokenError

TICK = 0.03
MEMORY_POLL = 0.1
ADMIT_POLL = 0.25
KILL_GRACE = 1.0
READER_JOIN = 2.0


def complete_codes(task: Task) -> set[int]:
    spec = task.exitActions.get("COMPLETE")
    if spec is None:
        return {0}
    codes: set[int] = set()
    for part in spec.split(","):
        lo, _, hi = part.strip().partition("-")
        codes.update(range(int(lo), int(hi or lo) + 1))
    return codes


def tree_rss(pid: int) -> int:
    """Resident memory of a process and all its descendants (what a cgroup limit would count)."""
    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for proc in procs:
        try:
            total += proc.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


CPU_INTERVAL = 1.0  # seconds: long enough to see a trainer that sleeps between steps


def trees_cpu_percent(pids: list[int], interval: float = CPU_INTERVAL) -> dict[int, float | None]:
    """CPU use of each process tree, in percent of one core, measured together over one ``interval``.

    A tree that is gone is None (unknown), never 0; a process that ends mid-interval stops counting."""
    trees: dict[int, list[psutil.Process]] = {}
    for pid in pids:
        try:
            root = psutil.Process(pid)
            procs = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            continue
        live = []
        for proc in procs:
            try:
                proc.cpu_percent(None)
                live.append(proc)
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        trees[pid] = live
    if trees:
        time.sleep(interval)
    out: dict[int, float | None] = {pid: None for pid in pids}
    for pid, live in trees.items():
        total = 0.0
        for proc in live:
            try:
                total += proc.cpu_percent(None)
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        out[pid] = total
    return out


def kill_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return  # the group is already gone — nothing left to stop


@dataclass
class Running:
    task: Task
    group: str
    proc: subprocess.Popen[bytes]
    log: TaskLog
    reader: threading.Thread
    memory_limit: int | None
    kill_reason: str | None = None
    kill_detail: str = ""
    term_sent_at: float | None = None
    sigkill_sent: bool = False


class Supervisor:
    def __init__(self, root: Path) -> None:
        self.wf = WorkflowDir(root)
        self.record = self.wf.read_record()
        self.workflow = WorkflowFile.model_validate_json(self.wf.model_path.read_text(encoding="utf-8")).workflow
        self.machine: MachineInfo = self.record.machine or detect_machine()
        self.state = self.wf.read_state()
        self.groups: dict[str, Group] = {g.name: g for g in self.workflow.task_groups()}
        self.deps = self.workflow.group_dependencies()
        self.ledger = Ledger(self.wf.state_dir, self.wf.workflow_id, ProcessRef.of(os.getpid()))
        self.running: dict[str, Running] = {}
        self.outcome: dict[str, tuple[TaskStatus, str | None]] = {}
        self.unschedulable: dict[str, str] = {}
        self.next_admit: dict[str, float] = {}
        self.next_memory_poll = 0.0
        self.stop_signal: int | None = None
        self.stopping: str | None = None
        self.dirty = True

    # ------------------------------------------------------------------------------------------ main loop
    def run(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, self._on_signal)
        try:
            while True:
                self.step()
                if not self.running and all(g.status.terminal() for g in self.state.groups):
                    break
                time.sleep(TICK)
        finally:
            for run in self.running.values():
                kill_group(run.proc.pid, signal.SIGKILL)
            self.ledger.close()
            if self.dirty or self.running:
                # Only a state not yet on disk is written: a write after the terminal one would wake
                # ``wait_for_change`` watchers for nothing (and made the conformance bound flaky under load).
                self.save()

    def _on_signal(self, signum: int, _frame: object) -> None:
        self.stop_signal = signum

    def step(self) -> None:
        if self.stopping is None:
            if self.wf.cancel_path.exists():
                self.stop_all("cancel")
            elif self.stop_signal is not None:
                self.stop_all("shutdown")
        with self.ledger.releasing():
            self.reap()
        self.enforce_memory()
        self.enforce_exec_timeout()
        self.escalate_kills()
        self.settle_groups()
        if self.stopping is None:
            self.schedule()
        if self.dirty:
            self.save()

    # ------------------------------------------------------------------------------------------ state
    def task_rec(self, name: str) -> TaskRecord:
        return self.state.task(name)

    def save(self) -> None:
        st = self.state
        st.seq += 1
        st.status = aggregate_status([g.status for g in st.groups])
        starts = [t.start_time for t in st.tasks if t.start_time]
        st.start_time = min(starts) if starts else None
        if st.status.terminal() and st.end_time is None:
            st.end_time = utcnow()
        failed = [g for g in st.groups if g.status.failed() and g.failure_message]
        primary = [g for g in failed if g.status is not TaskStatus.FAILED_UPSTREAM] or failed
        st.failure_message = primary[0].failure_message if primary else None
        write_json_atomic(self.wf.state_path, st)
        self.dirty = False

    def event(self, task: str, reason: str, message: str, **kw: object) -> None:
        self.wf.append_event(Event(time=utcnow(), task=task, reason=reason, message=message, **kw))

    def finish_group(self, g: GroupRecord, status: TaskStatus, message: str | None) -> None:
        g.status = status
        g.end_time = utcnow()
        g.failure_message = message
        self.dirty = True

    def end_unstarted(self, group: str, status: TaskStatus, message: str) -> None:
        """Tasks of a group that never ran take the group's fate."""
        g = self.state.group(group)
        for t in self.groups[group].tasks:
            rec = self.task_rec(t.name)
            if rec.status.alive() and t.name not in self.running:
                rec.status = status
                rec.failure_message = message
                rec.end_time = utcnow()
        self.finish_group(g, status, message)

    # ------------------------------------------------------------------------------------------ stopping
    def stop_all(self, why: str) -> None:
        """Cancel (user) or shutdown (signal): stop every task, mark every unfinished group."""
        self.stopping = why
        if why == "cancel":
            status, message = TaskStatus.FAILED_CANCELED, "canceled by the user"
        else:
            status = TaskStatus.FAILED_BACKEND_ERROR
            message = f"the local supervisor was stopped by signal {self.stop_signal} and stopped its tasks"
        for g in self.state.groups:
            if g.status.terminal():
                continue
            started = [t.name for t in self.groups[g.name].tasks if t.name in self.running]
            if started:
                self.outcome.setdefault(g.name, (status, message))
                for name in started:
                    self.request_kill(self.running[name], why, message)
            else:
                self.end_unstarted(g.name, status, message)

    def request_kill(self, run: Running, reason: str, detail: str = "", *, now: bool = False) -> None:
        if run.kill_reason is not None:
            return
        run.kill_reason, run.kill_detail = reason, detail
        run.term_sent_at = time.monotonic()
        kill_group(run.proc.pid, signal.SIGKILL if now else signal.SIGTERM)
        run.sigkill_sent = now

    def escalate_kills(self) -> None:
        grace = 0.3 if self.stopping == "shutdown" else KILL_GRACE
        for run in self.running.values():
            if run.term_sent_at is not None and not run.sigkill_sent:
                if time.monotonic() - run.term_sent_at >= grace:
                    kill_group(run.proc.pid, signal.SIGKILL)
                    run.sigkill_sent = True

    # ------------------------------------------------------------------------------------------ limits
    def enforce_memory(self) -> None:
        if time.monotonic() < self.next_memory_poll:
            return
        self.next_memory_poll = time.monotonic() + MEMORY_POLL
        for run in self.running.values():
            if run.memory_limit is None or run.kill_reason is not None:
                continue
            used = tree_rss(run.proc.pid)
            if used > run.memory_limit:
                used_s, limit_s = human_bytes(used), human_bytes(run.memory_limit)
                self.request_kill(run, "oom", f"OOMKilled: memory {used_s} used exceeds the limit {limit_s}", now=True)
                self.event(run.task.name, "OOMKilled", f"container used {used_s} of its {limit_s} memory limit")

    def enforce_exec_timeout(self) -> None:
        limit = self.workflow.timeout.exec_seconds
        if limit is None:
            return
        now = utcnow()
        for g in self.state.groups:
            if g.status is not TaskStatus.RUNNING or g.start_time is None or g.name in self.outcome:
                continue
            if (now - g.start_time).total_seconds() > limit:
                message = f"exec_timeout of {format_duration(limit)} exceeded; the task was stopped"
                self.outcome[g.name] = (TaskStatus.FAILED_EXEC_TIMEOUT, message)
                for t in self.groups[g.name].tasks:
                    run = self.running.get(t.name)
                    if run is not None:
                        run.log.write(
                            f"Task exceeded its exec_timeout of {format_duration(limit)}; stopping it", control=True
                        )
                        self.request_kill(run, "exec_timeout", message)

    # ------------------------------------------------------------------------------------------ tasks
    def reap(self) -> None:
        for name, run in list(self.running.items()):
            returncode = run.proc.poll()
            if returncode is None:
                continue
            kill_group(run.proc.pid, signal.SIGKILL)  # the container ends with its main process
            run.reader.join(READER_JOIN)
            del self.running[name]
            self.finish_task(run, exit_code_of(returncode), returncode)

    def finish_task(self, run: Running, code: int, returncode: int) -> None:
        rec = self.task_rec(run.task.name)
        rec.exit_code = code
        rec.end_time = utcnow()
        reason = run.kill_reason
        upload = reason in (None, "oom", "lead_done")
        if reason == "oom":
            rec.status, rec.failure_message = TaskStatus.FAILED, run.kill_detail
        elif reason == "exec_timeout":
            rec.status, rec.failure_message = TaskStatus.FAILED_EXEC_TIMEOUT, run.kill_detail
        elif reason == "cancel":
            rec.status, rec.failure_message = TaskStatus.FAILED_CANCELED, run.kill_detail
        elif reason == "shutdown":
            rec.status, rec.failure_message = TaskStatus.FAILED_BACKEND_ERROR, run.kill_detail
        elif reason in ("lead_done", "group_failed"):
            outcome = self.outcome[run.group][0]
            rec.status = TaskStatus.COMPLETED if outcome is TaskStatus.COMPLETED else TaskStatus.FAILED
            rec.failure_message = run.kill_detail if rec.status is TaskStatus.FAILED else None
        elif code in complete_codes(run.task):
            rec.status = TaskStatus.COMPLETED
        else:
            rec.status = TaskStatus.FAILED
            how = f" (killed by signal {-returncode})" if returncode < 0 else ""
            rec.failure_message = f"exit code {code}{how}"
        run.log.write(f"Task exited with code {code}", control=True)
        if upload:
            rec.outputs = store_outputs(self.wf, run.task.name, run.log)
        if not run.reader.is_alive():
            run.log.close()
        self.ledger.release(run.task.name)
        self.dirty = True

    def start_group(self, g: GroupRecord, gpus: dict[str, list[int]]) -> None:
        g.status = TaskStatus.RUNNING
        g.start_time = utcnow()
        group = self.groups[g.name]
        for t in group.tasks:
            self.start_task(t, group, gpus.get(t.name, []))
        self.dirty = True

    def start_task(self, task: Task, group: Group, gpus: list[int]) -> None:
        rec = self.task_rec(task.name)
        log = TaskLog(self.wf.log_path(task.name), task.name)
        self.event(
            task.name,
            "Scheduled",
            f"Successfully assigned {self.wf.workflow_id}/{task.name} to {self.machine.hostname}",
        )
        try:
            prepared = prepare_task(self.wf, task, group, gpus=gpus if self.machine.gpu_count else None)
        except (TokenError, OSError, ValueError) as err:
            log.write(f"Failed to prepare the task: {err}", control=True)
            self.fail_start(rec, log, None, f"could not prepare the task: {err}", TaskStatus.FAILED_START_ERROR)
            return
        for i, path in enumerate(prepared.input_dirs):
            log.write(f"Input {i} available at {path}", control=True)
        log.write(f"Running command: {shlex.join(prepared.argv)}", control=True)
        try:
            proc = subprocess.Popen(
                prepared.argv,
                cwd=prepared.cwd,
                env=prepared.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        except FileNotFoundError:
            program = prepared.argv[0]
            what = "No such file or directory" if "/" in program else "command not found"
            log.write(f"{program}: {what}")
            self.fail_start(rec, log, 127, f"exit code 127: {program}: {what}", TaskStatus.FAILED)
            return
        except OSError as err:
            program = prepared.argv[0]
            what = "Permission denied" if isinstance(err, PermissionError) else f"cannot execute: {err.strerror}"
            log.write(f"{program}: {what}")
            self.fail_start(rec, log, 126, f"exit code 126: {program}: {what}", TaskStatus.FAILED)
            return
        assert proc.stdout is not None
        reader = threading.Thread(target=log.pump, args=(proc.stdout,), daemon=True)
        reader.start()
        rec.status = TaskStatus.RUNNING
        rec.pid = proc.pid
        rec.pid_create_time = ProcessRef.of(proc.pid).create_time  # not yet reaped, so still inspectable
        rec.start_time = utcnow()
        self.event(task.name, "Started", f"Started container {task.name}")
        limit = self.workflow.resources_for(task).memory_bytes
        self.running[task.name] = Running(task, group.name, proc, log, reader, limit)

    def fail_start(self, rec: TaskRecord, log: TaskLog, code: int | None, message: str, status: TaskStatus) -> None:
        if code is not None:
            log.write(f"Task exited with code {code}", control=True)
        log.close()
        now = utcnow()
        rec.status, rec.exit_code, rec.failure_message = status, code, message
        rec.start_time = rec.start_time or now
        rec.end_time = now
        self.ledger.release(rec.name)
        self.dirty = True

    # ------------------------------------------------------------------------------------------ groups
    def settle_groups(self) -> None:
        for g in self.state.groups:
            if g.status is not TaskStatus.RUNNING:
                continue
            spec = self.groups[g.name]
            lead = next((t for t in spec.tasks if t.lead), spec.tasks[0])
            recs = {t.name: self.task_rec(t.name) for t in spec.tasks}
            if g.name not in self.outcome:
                lead_rec = recs[lead.name]
                others_failed = [
                    r for n, r in recs.items() if n != lead.name and r.status.terminal() and r.status.failed()
                ]
                if not spec.ignoreNonleadStatus and others_failed:
                    first = others_failed[0]
                    self.outcome[g.name] = (first.status, f"task {first.name!r}: {first.failure_message}")
                    self.stop_group(spec, "group_failed", f"stopped because task {first.name!r} failed")
                elif lead_rec.status.terminal():
                    message = None
                    if lead_rec.status.failed():
                        message = f"task {lead.name!r}: {lead_rec.failure_message}"
                    self.outcome[g.name] = (lead_rec.status, message)
                    self.stop_group(spec, "lead_done", f"stopped because the lead task {lead.name!r} ended")
            if g.name in self.outcome and not any(t.name in self.running for t in spec.tasks):
                status, message = self.outcome[g.name]
                self.finish_group(g, status, message)

    def stop_group(self, spec: Group, reason: str, detail: str) -> None:
        for t in spec.tasks:
            run = self.running.get(t.name)
            if run is not None:
                self.request_kill(run, reason, detail)

    def schedule(self) -> None:
        admitted: list[tuple[GroupRecord, dict[str, list[int]]]] = []
        with self.ledger.admitting():  # one lock hold and one ledger write per pass; processes start after it
            self._admit(admitted)
        for g, gpus in admitted:
            self.start_group(g, gpus)

    def _admit(self, admitted: list[tuple[GroupRecord, dict[str, list[int]]]]) -> None:
        now = utcnow()
        for g in self.state.groups:
            if g.status is TaskStatus.WAITING:
                ups = [self.state.group(d) for d in sorted(self.deps.get(g.name, ()))]
                bad = [u for u in ups if u.status.terminal() and u.status is not TaskStatus.COMPLETED]
                if bad:
                    msg = f"upstream group {bad[0].name!r} ended {bad[0].status.value}"
                    self.end_unstarted(g.name, TaskStatus.FAILED_UPSTREAM, msg)
                elif all(u.status is TaskStatus.COMPLETED for u in ups):
                    g.status = TaskStatus.SCHEDULING
                    g.scheduling_start_time = now
                    for t in self.groups[g.name].tasks:
                        rec = self.task_rec(t.name)
                        rec.status, rec.scheduling_start_time = TaskStatus.SCHEDULING, now
                    self.dirty = True
            if g.status is TaskStatus.SCHEDULING:
                self.try_start(g, admitted)

    def try_start(self, g: GroupRecord, admitted: list[tuple[GroupRecord, dict[str, list[int]]]]) -> None:
        queue_limit = self.workflow.timeout.queue_seconds
        waited = (utcnow() - (g.scheduling_start_time or utcnow())).total_seconds()
        if queue_limit is not None and waited > queue_limit:
            why = self.unschedulable.get(g.name, "")
            message = f"queue_timeout of {format_duration(queue_limit)} exceeded while waiting for resources"
            self.end_unstarted(g.name, TaskStatus.FAILED_QUEUE_TIMEOUT, message + (f": {why}" if why else ""))
            return
        if time.monotonic() < self.next_admit.get(g.name, 0.0):
            return
        self.next_admit[g.name] = time.monotonic() + ADMIT_POLL
        spec = self.groups[g.name]
        requests = {t.name: Request.of(self.workflow.resources_for(t)) for t in spec.tasks}
        gpus, reasons = self.ledger.try_admit(self.machine, requests)
        if not reasons:
            admitted.append((g, gpus))
            return
        message = unschedulable_message(reasons)
        if self.unschedulable.get(g.name) != message:
            self.unschedulable[g.name] = message
            for t in spec.tasks:
                self.event(
                    t.name,
                    "Unschedulable",
                    message,
                    kind="condition",
                    condition="PodScheduled",
                    condition_status=False,
                )
                self.event(t.name, "FailedScheduling", message)


def crash_record(root: Path, err: BaseException) -> None:
    """Last resort: the supervisor itself failed; say so in the state instead of leaving it RUNNING."""
    wf = WorkflowDir(root)
    try:
        state = wf.read_state()
    except (OSError, ValueError):
        return
    message = f"the local supervisor crashed: {type(err).__name__}: {err}"
    now = utcnow()
    for t in state.tasks:
        if t.status.alive():
            if t.pid is not None:
                kill_group(t.pid, signal.SIGKILL)
            t.status, t.failure_message, t.end_time = TaskStatus.FAILED_BACKEND_ERROR, message, now
    for g in state.groups:
        if g.status.alive():
            g.status, g.failure_message, g.end_time = TaskStatus.FAILED_BACKEND_ERROR, message, now
    state.status = aggregate_status([g.status for g in state.groups])
    state.failure_message = message
    state.end_time = now
    state.seq += 1
    write_json_atomic(wf.state_path, state)


def main(argv: list[str]) -> int:
    root = Path(argv[0])
    try:
        Supervisor(root).run()
    except Exception as err:  # noqa: BLE001 — any crash must still end the workflow visibly
        traceback.print_exc()
        crash_record(root, err)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
