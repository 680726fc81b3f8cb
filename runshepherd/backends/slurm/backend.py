"""The Slurm backend: one batch job per task on a real Slurm cluster, behind the Backend Protocol.

Submit prepares every task exactly as the local backend does (same layout, files, tokens, environment), in a
folder every node can read (``shared_dir``), then calls sbatch once per task with dependencies from `inputs`.
Status is one ``squeue`` call per poll for all unfinished jobs of a workflow (zero once all are finished, since
final observations are kept); the in-job runner's ``exit.json`` covers jobs Slurm has already forgotten.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filelock import FileLock

import runshepherd
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
    WholeLog,
    WorkflowNotFound,
    WorkflowStatus,
    WorkflowSummary,
    aggregate_status,
)
from runshepherd.backends.files.checks import Host, check_workflow, stage_localfiles
from runshepherd.backends.files.logfiles import complete_end, follow, format_line
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
from runshepherd.backends.files.taskprep import prepare_task
from runshepherd.backends.slurm import nodes as slurm_nodes
from runshepherd.backends.slurm.cli import SlurmCli, find_slurm_conf
from runshepherd.backends.slurm.jobs import (
    NEVER_FITS,
    SQUEUE_FIELDS,
    JobRow,
    exit_code_of,
    parse_squeue,
    verdict,
)
from runshepherd.backends.slurm.order import group_order
from runshepherd.backends.slurm.records import (
    Observation,
    Observations,
    SlurmDir,
    SlurmRecord,
    TaskJob,
    all_slurm_dirs,
)
from runshepherd.backends.slurm.script import BatchJob, batch_script
from runshepherd.names import is_id

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.spec.document import SpecDocument
    from runshepherd.spec.model import Workflow

CANCEL_WAIT = 20.0
FOLLOW_REQUERY = 1.0  # seconds between status checks while following logs (each costs one squeue call)
SQUEUE_FORMAT = ",".join(f"{f}:|" for f in SQUEUE_FIELDS)
HOST = Host(backend="the Slurm backend", where="on the Slurm nodes", machine="the Slurm nodes", runs="Slurm runs")


ABANDONED = "abandoned"  # marks the folder of a submit killed before its record (see _remove_orphans)


class SlurmBackend:
    name = "slurm"
    runs_on_host = True  # tasks run on the cluster's nodes as the submitting user (no container image)
    refuses_unfit = False  # a request beyond every node can pend at sbatch for ever: the plan never submits it

    def __init__(self, state_dir: Path, options: dict[str, Any] | None = None) -> None:
        opts = dict(options or {})
        self.state_dir = Path(state_dir).expanduser().resolve()
        self.root = Path(opts.get("shared_dir") or self.state_dir / "slurm").expanduser().resolve()
        self.partition: str | None = opts.get("partition")
        self.python = str(opts.get("python") or sys.executable)
        conf = find_slurm_conf(opts.get("slurm_conf"))
        self.cli = SlurmCli(conf, opts.get("bin_dir"))

    # ------------------------------------------------------------------------------------------ submit
    def submit(
        self,
        spec: SpecDocument,
        pool: str | None = None,
        *,
        priority: Priority = "NORMAL",
        idempotency_key: str | None = None,
    ) -> Submission:
        workflow = spec.workflow
        self.root.mkdir(parents=True, exist_ok=True)
        warnings = self._check(workflow, spec.base_dir)
        declared = [o.url for t in workflow.all_tasks() for o in t.outputs if o.url]
        partition = pool or self.partition or self._default_partition()
        with FileLock(str(self.root / "submit.lock"), timeout=60):
            if idempotency_key is not None:
                self._remove_orphans(idempotency_key)
                existing = self.find_by_key(idempotency_key)
                if existing is not None:
                    rec = self._dir(existing).read_slurm_record()
                    return Submission(
                        workflow_id=existing,
                        pool=rec.pool,
                        outputs=declared,
                        overview_url=file_url(self._dir(existing).root),
                        warnings=[
                            f"already submitted with idempotency key {idempotency_key!r} as {existing}; not resubmitted"
                        ],
                    )
            wf = SlurmDir(allocate_workflow_dir(self.root, spec.name))
            write_text_atomic(wf.spec_path, spec.rendered_text)
            write_text_atomic(wf.template_path, spec.template_text)
            stage_localfiles(workflow, wf, spec.base_dir)
            jobs = self._sbatch_all(wf, workflow, partition, priority, idempotency_key)
            timeout = workflow.timeout
            record = SlurmRecord(
                workflow_id=wf.workflow_id,
                name=spec.name,
                pool=partition,
                priority=priority,
                idempotency_key=idempotency_key,
                submit_time=utcnow(),
                tasks=jobs,
                declared_outputs=declared,
                warnings=warnings,
                exec_timeout=timeout.exec_seconds,
                queue_timeout=timeout.queue_seconds,
            )
            write_json_atomic(wf.slurm_record_path, record)
        return Submission(
            workflow_id=wf.workflow_id,
            pool=partition,
            overview_url=file_url(wf.root),
            outputs=declared,
            warnings=warnings,
        )

    def _check(self, workflow: Workflow, base_dir: Path | None) -> list[str]:
        warnings = check_workflow(workflow, self.root, base_dir, HOST)
        if any(workflow.resources_for(t).storage_bytes for t in workflow.all_tasks()):
            warnings.append("`storage` is not requested from Slurm (nodes' local disk is not scheduled here)")
        return warnings

    def _default_partition(self) -> str:
        text = self.cli.run("scontrol", ["show", "partition", "-o"]).stdout
        name = slurm_nodes.default_partition(text)
        if name is None:
            raise SubmissionRejected("the Slurm cluster has no default partition — pass --pool PARTITION")
        return name

    def _sbatch_all(
        self, wf: SlurmDir, workflow: Workflow, partition: str, priority: str, key: str | None
    ) -> list[TaskJob]:
        """One job per task, upstream groups first; on any refusal cancel what was submitted and say why.

        A group's jobs are submitted held and released in one call, so they become eligible in the same scheduler
        pass and start together when the partition has room for all of them (`--dependency=after` waits for Slurm's
        next periodic pass, up to a minute). Held jobs are not a gang: on a full partition one may start before
        another frees its CPUs (a heterogeneous job would be allocated as one; not done).
        """
        jobs: dict[str, TaskJob] = {}
        exec_seconds = workflow.timeout.exec_seconds
        package_parent = Path(runshepherd.__file__).resolve().parent.parent
        try:
            for group in group_order(workflow):
                lead = next((t for t in group.tasks if t.lead), group.tasks[0])
                together = len(group.tasks) > 1
                for task in [lead, *[t for t in group.tasks if t is not lead]]:
                    res = workflow.resources_for(task)
                    prepared = prepare_task(wf, task, group, base_env={"PATH": os.environ.get("PATH", os.defpath)})
                    write_json_atomic(
                        wf.prepared_path(task.name),
                        {"argv": prepared.argv, "cwd": str(prepared.cwd), "env": prepared.env},
                    )
                    job = BatchJob(
                        workflow_id=wf.workflow_id,
                        task=task.name,
                        idempotency_key=key,
                        partition=partition,
                        workflow_dir=wf.root,
                        work_dir=prepared.cwd,
                        scheduler_out=wf.scheduler_out(task.name),
                        resources=res,
                        priority=priority,
                        after_ok=sorted({jobs[i.task].job_id for i in task.inputs if i.task and i.task in jobs}),
                        hold=together,
                        exec_seconds=exec_seconds,
                        python=self.python,
                        package_parent=package_parent,
                    )
                    script = wf.job_script(task.name)
                    script.write_text(batch_script(job), encoding="utf-8")
                    script.chmod(0o755)
                    proc = self.cli.run("sbatch", ["--parsable", str(script)], check=False)
                    if proc.returncode != 0:
                        raise SubmissionRejected(f"Slurm refused task {task.name!r}: {proc.stderr.strip()} ({script})")
                    job_id = proc.stdout.strip().split(";")[0]
                    mem = res.memory_bytes
                    jobs[task.name] = TaskJob(
                        name=task.name,
                        group=group.name,
                        lead=task is lead,
                        job_id=job_id,
                        mem_mb=-(-mem // 1024**2) if mem else None,
                    )
                if together:
                    self.cli.run("scontrol", ["release", ",".join(jobs[t.name].job_id for t in group.tasks)])
        except BaseException:
            if jobs:
                self.cli.run("scancel", [j.job_id for j in jobs.values()], check=False)
            raise
        return list(jobs.values())

    # ------------------------------------------------------------------------------------------ observing
    def _dir(self, workflow_id: str) -> SlurmDir:
        wf = SlurmDir(workflows_root(self.root) / workflow_id)
        if not is_id(workflow_id) or not wf.slurm_record_path.is_file():
            from runshepherd.backends.slurm import foreign

            if foreign.JOB_ID_RE.match(workflow_id.strip()):  # a plain sbatch job id: say how it is followed here
                wid = foreign.workflow_id_for(workflow_id.strip())
                if SlurmDir(workflows_root(self.root) / wid).slurm_record_path.is_file():
                    hint = f"Slurm job {workflow_id.strip()} is followed here as workflow {wid}: use that id"
                else:
                    hint = (
                        f"a job from plain sbatch is followed as workflow {wid}: `orchestrate watch "
                        f"{workflow_id.strip()} --backend slurm` records it, then status/logs/diagnose take {wid}"
                    )
                raise WorkflowNotFound(workflow_id, self.name, hint)
            raise WorkflowNotFound(workflow_id, self.name)
        return wf

    def _squeue(self, job_ids: list[str]) -> dict[str, JobRow]:
        """All of the given jobs in ONE scheduler call (the polling cost the issue asks about)."""
        if not job_ids:
            return {}
        plain = [j for j in job_ids if "_" not in j]
        elements = [j for j in job_ids if "_" in j]  # array elements of adopted `sbatch --array` jobs
        rows: dict[str, JobRow] = {}
        if plain:
            proc = self.cli.run("squeue", ["-h", "-t", "all", "-j", ",".join(plain), "-O", SQUEUE_FORMAT], check=False)
            if proc.returncode != 0 and "Invalid job id" not in proc.stderr:
                raise BackendError(f"squeue failed: {proc.stderr.strip()}")
            rows.update({row.job_id: row for row in parse_squeue(proc.stdout)})
        if elements:
            from runshepherd.backends.slurm.foreign import array_rows

            fmt = f"ArrayJobID:|,ArrayTaskID:|,{SQUEUE_FORMAT}"
            proc = self.cli.run("squeue", ["-h", "-t", "all", "-j", ",".join(elements), "-O", fmt], check=False)
            if proc.returncode != 0 and "Invalid job id" not in proc.stderr:
                raise BackendError(f"squeue failed: {proc.stderr.strip()}")
            for element, text in array_rows(proc.stdout).items():
                for row in parse_squeue(text):
                    rows[element] = row.model_copy(update={"job_id": element})
        return rows

    def _observe_many(self, dirs: list[SlurmDir]) -> dict[str, tuple[SlurmRecord, Observations]]:
        loaded = {wf.workflow_id: (wf, wf.read_slurm_record(), wf.read_observed()) for wf in dirs}
        wanted = [
            j.job_id
            for _, rec, obs in loaded.values()
            for j in rec.tasks
            if j.name not in obs.tasks or obs.tasks[j.name].status.alive()
        ]
        rows = self._squeue(wanted)
        out = {}
        for wid, (wf, rec, _) in loaded.items():
            with FileLock(str(wf.lock_path), timeout=30):
                obs = wf.read_observed()  # another process may have observed meanwhile
                changed = any(
                    self._update(wf, rec, obs, j, rows.get(j.job_id))
                    for j in rec.tasks
                    if j.name not in obs.tasks or obs.tasks[j.name].status.alive()
                )
                changed = self._queue_timeout(wf, rec, obs) or changed
                if changed:
                    wf.write_observed(obs)
            out[wid] = (rec, obs)
        return out

    def _observe(self, wf: SlurmDir) -> tuple[SlurmRecord, Observations]:
        return self._observe_many([wf])[wf.workflow_id]

    def _update(self, wf: SlurmDir, rec: SlurmRecord, obs: Observations, job: TaskJob, row: JobRow | None) -> bool:
        old = obs.tasks.get(job.name) or Observation(scheduling_start_time=rec.submit_time)
        new = old.model_copy()
        done = wf.read_exit(job.name)
        if row is not None:
            code = done.exit_code if done else exit_code_of(row.wait_status)
            v = verdict(row.state, row.reason, code)
            if v.oom and done is None:
                code = 137
            new.state, new.reason, new.status = row.state, row.reason, v.status
            new.exit_code = code if v.status.terminal() and row.start_time else None
            if v.status is TaskStatus.COMPLETED:
                new.exit_code = 0 if code is None else code
            new.failure_message = v.message
            new.node = row.nodes if row.start_time else None
            new.scheduling_start_time = row.submit_time or old.scheduling_start_time
            new.start_time = row.start_time
            new.end_time = row.end_time or (done.end_time if done and v.status.terminal() else None)
        elif done is not None:  # Slurm has forgotten the job; the runner's record says how it ended
            new.state = "COMPLETED" if done.exit_code == 0 else "FAILED"
            new.status = TaskStatus.COMPLETED if done.exit_code == 0 else TaskStatus.FAILED
            new.exit_code, new.end_time = done.exit_code, done.end_time
            new.failure_message = None if done.exit_code == 0 else f"the command exited with code {done.exit_code}"
        else:
            new.state, new.status = "UNKNOWN", TaskStatus.FAILED_BACKEND_ERROR
            new.failure_message = f"Slurm no longer knows job {job.job_id} and it left no exit record"
        if done is not None and done.timed_out and new.status.terminal():  # stopped at the limit, whatever it exited
            limit = f"{rec.exec_timeout:g}s" if rec.exec_timeout else "its exec_timeout"
            new.status = TaskStatus.FAILED_EXEC_TIMEOUT
            new.failure_message = f"exec_timeout of {limit} exceeded; the runner stopped the command (job {job.job_id})"
        if new.status.terminal() and done is not None:
            new.outputs = list(done.outputs)
        if new == old and job.name in obs.tasks:
            return False
        for event in _events_for(job, old if job.name in obs.tasks else None, new):
            wf.append_event(event)
        if new.status.terminal() and not new.scheduler_lines_appended and not rec.foreign:
            _append_scheduler_lines(wf, job, new)
            new.scheduler_lines_appended = True
        obs.tasks[job.name] = new
        return True

    def _queue_timeout(self, wf: SlurmDir, rec: SlurmRecord, obs: Observations) -> bool:
        """`timeout.queue_timeout`: Slurm has no such limit, so jobs that never started by then are canceled."""
        if not rec.queue_timeout or obs.queue_timed_out:
            return False
        waiting = [j for j in rec.tasks if obs.tasks.get(j.name) and obs.tasks[j.name].status.in_queue()]
        started = any(o.start_time for o in obs.tasks.values())
        if not waiting or started or (utcnow() - rec.submit_time).total_seconds() < rec.queue_timeout:
            return False
        self.cli.run("scancel", [j.job_id for j in waiting], check=False)
        now = utcnow()
        for j in waiting:
            o = obs.tasks[j.name]
            o.status, o.end_time, o.state = TaskStatus.FAILED_QUEUE_TIMEOUT, now, "CANCELLED"
            o.failure_message = f"still queued after queue_timeout ({rec.queue_timeout:g}s); canceled"
            wf.append_event(Event(time=now, task=j.name, reason="QueueTimeout", message=o.failure_message))
        obs.queue_timed_out = True
        return True

    # ------------------------------------------------------------------------------------------ reading
    def query(self, workflow_id: str) -> WorkflowStatus:
        wf = self._dir(workflow_id)
        rec, obs = self._observe(wf)
        return _status(wf, rec, obs)

    def query_many(self, workflow_ids: list[str]) -> dict[str, WorkflowStatus]:
        """Several workflows in ONE squeue call (all their unfinished jobs); unknown ids raise WorkflowNotFound."""
        dirs = [self._dir(w) for w in dict.fromkeys(workflow_ids)]
        seen = self._observe_many(dirs)
        return {wf.workflow_id: _status(wf, *seen[wf.workflow_id]) for wf in dirs}

    def list_workflows(
        self, *, statuses: list[Status] | None = None, pool: str | None = None, limit: int = 50
    ) -> list[WorkflowSummary]:
        rows = []
        for wid, (rec, obs) in self._observe_many(all_slurm_dirs(self.root)).items():
            if pool is not None and rec.pool != pool:
                continue
            ws = _status(SlurmDir(workflows_root(self.root) / wid), rec, obs)
            if statuses and ws.status not in statuses:
                continue
            rows.append(
                WorkflowSummary(
                    workflow_id=wid,
                    name=rec.name,
                    status=ws.status,
                    pool=rec.pool,
                    priority=rec.priority,
                    submit_time=rec.submit_time,
                    start_time=ws.start_time,
                    end_time=ws.end_time,
                    duration=ws.duration,
                    overview_url=ws.links.overview,
                )
            )
        rows.sort(key=lambda r: (r.submit_time or utcnow(), r.workflow_id), reverse=True)
        return rows[:limit]

    def logs(
        self, workflow_id: str, task: str | None = None, *, tail: int | None = None, timeout: float | None = None
    ) -> Iterator[str]:
        wf = self._dir(workflow_id)
        rec, obs = self._observe(wf)
        names = [j.name for j in rec.tasks]
        if task is not None:
            if task not in names:
                raise BackendError(f"workflow {workflow_id} has no task {task!r} (tasks: {', '.join(names)})")
            names = [task]
        paths = [wf.log_path(n) for n in names]
        alive = _status(wf, rec, obs).status.alive()
        ends = {p: complete_end(p) for p in paths}
        return follow(paths, ends, tail, timeout if alive else None, lambda: self._finished(wf), recheck=FOLLOW_REQUERY)

    def sstat_tres(self, workflow_id: str) -> str | None:
        """`sstat` TRES usage of the workflow's running jobs (GPU use where Slurm's GPU accounting is on), or None."""
        wf = self._dir(workflow_id)
        rec, obs = self._observe(wf)
        running = [
            j.job_id for j in rec.tasks if j.name in obs.tasks and obs.tasks[j.name].status is TaskStatus.RUNNING
        ]
        if not running:
            return None
        proc = self.cli.run(
            "sstat", ["-a", "-P", "-n", "-j", ",".join(running), "--format=JobID,TRESUsageInAve"], check=False
        )
        return proc.stdout if proc.returncode == 0 else None

    def adopt(self, identity: str) -> str:
        """Follow a job or array submitted with plain `sbatch`: record it (once) as workflow ``sbatch-<id>``
        whose tasks' logs are the jobs' own output files (read in place, never written to)."""
        from runshepherd.backends.slurm import foreign

        ident = identity.strip()
        if not foreign.JOB_ID_RE.match(ident):
            raise WorkflowNotFound(identity, self.name, "give a RunShepherd workflow id or a Slurm job id (e.g. 4711)")
        wid = foreign.workflow_id_for(ident)
        wf = SlurmDir(workflows_root(self.root) / wid)
        if wf.slurm_record_path.is_file():
            return wid
        proc = self.cli.run("scontrol", ["show", "job", "-o", ident], check=False)
        jobs = foreign.jobs_of(proc.stdout) if proc.returncode == 0 else []
        if not jobs:
            raise WorkflowNotFound(
                identity, self.name, f"Slurm does not know job {ident} ({proc.stderr.strip() or 'no such job'})"
            )
        with FileLock(str(self.root / "submit.lock"), timeout=60):
            if wf.slurm_record_path.is_file():
                return wid
            wf.root.mkdir(parents=True, exist_ok=True)
            for j in jobs:
                log = wf.log_path(j.name)
                log.parent.mkdir(parents=True, exist_ok=True)
                if j.stdout and not log.exists():
                    log.symlink_to(j.stdout)
                err = wf.task_dir(j.name) / "stderr"
                if j.stderr and j.stderr != j.stdout and not err.is_symlink():
                    err.symlink_to(j.stderr)
            (wf.root / "description.txt").write_text(foreign.describe(jobs[0]), encoding="utf-8")
            record = SlurmRecord(
                workflow_id=wid,
                name=jobs[0].name.rsplit("_", 1)[0] if len(jobs) > 1 else jobs[0].name,
                pool=jobs[0].partition or "unknown",
                submit_time=jobs[0].submit_time or utcnow(),
                tasks=[TaskJob(name=j.name, group=j.name, lead=True, job_id=j.job_id) for j in jobs],
                foreign=True,
            )
            write_json_atomic(wf.slurm_record_path, record)
        return wid

    def whole_log(self, workflow_id: str, task: str) -> WholeLog:
        """The job's log file (the in-job runner's output, then Slurm's own verdict lines once it ended)."""
        wf = self._dir(workflow_id)
        rec, _ = self._observe(wf)  # appends Slurm's verdict lines to a finished job's log
        if task not in {j.name for j in rec.tasks}:
            raise BackendError(f"workflow {workflow_id} has no task {task!r}")
        err = wf.task_dir(task) / "stderr"  # an adopted job's separate --error file, when it has one
        return WholeLog(path=wf.log_path(task), stderr=err if err.is_symlink() or err.is_file() else None)

    def _finished(self, wf: SlurmDir) -> bool:
        rec, obs = self._observe(wf)
        return _status(wf, rec, obs).status.terminal()

    def events(self, workflow_id: str, task: str | None = None) -> list[Event]:
        wf = self._dir(workflow_id)
        self._observe(wf)
        return [e for e in wf.read_events() if task is None or e.task == task]

    def spec(self, workflow_id: str, *, template: bool = False) -> str:
        wf = self._dir(workflow_id)
        if wf.read_slurm_record().foreign:
            return ""  # a job from plain sbatch has no workflow spec (its description is in `explain`)
        return (wf.template_path if template else wf.spec_path).read_text(encoding="utf-8")

    def description(self, workflow_id: str) -> str | None:
        """A plain sbatch job's command and output file, as Slurm reported them when it was first followed."""
        wf = self._dir(workflow_id)
        path = wf.root / "description.txt"
        return path.read_text(encoding="utf-8") if wf.read_slurm_record().foreign and path.is_file() else None

    def cancel(self, workflow_id: str) -> None:
        """scancel every unfinished job of the workflow (one call), then wait (bounded) until Slurm agrees."""
        wf = self._dir(workflow_id)
        rec, obs = self._observe(wf)
        alive = [j.job_id for j in rec.tasks if j.name not in obs.tasks or obs.tasks[j.name].status.alive()]
        if not alive:
            return
        self.cli.run("scancel", alive)
        deadline = time.monotonic() + CANCEL_WAIT
        while time.monotonic() < deadline:
            rec, obs = self._observe(wf)
            if _status(wf, rec, obs).status.terminal():
                return
            time.sleep(0.3)
        raise BackendError(f"{workflow_id}: scancel sent, but Slurm still reports jobs of it as alive")

    # ------------------------------------------------------------------------------------------ cluster
    def pools(self) -> list[Pool]:
        parts = self.cli.run("scontrol", ["show", "partition", "-o"]).stdout
        nodes = self.cli.run("scontrol", ["show", "node", "-o"]).stdout
        return slurm_nodes.pools_of(parts, nodes)

    def resources(self, pool: str | None = None) -> list[Node]:
        text = self.cli.run("scontrol", ["show", "node", "-o"]).stdout
        found = slurm_nodes.nodes_of(text, pool)
        if pool is not None and not found:
            raise BackendError(f"no partition {pool!r} with nodes on this Slurm cluster — see `orchestrate pools`")
        return found

    # ------------------------------------------------------------------------------------------ misc
    def check_access(self, uri: str, access: Access) -> AccessCheck:
        return check_path(uri, access, who="this machine (the cluster's shared filesystem as seen from here)")

    def download(self, url: str, dest: Path) -> list[Path]:
        return download_url(url, Path(dest), self.root / "objects", backend=HOST.backend)

    def find_by_key(self, idempotency_key: str) -> str | None:
        """From the shared records; if those are gone, from the job comments Slurm still holds."""
        found = [
            r
            for r in (d.read_slurm_record() for d in all_slurm_dirs(self.root))
            if r.idempotency_key == idempotency_key
        ]
        if found:
            return max(found, key=lambda r: r.submit_time).workflow_id
        # A half-made folder of this store (a killed submit) is not a submission: submit() removes it.
        tagged = [(r, r.tag) for r in self._tagged(idempotency_key) if not self._half_made(r.tag.workflow_id)]
        if not tagged:
            return None
        return max(tagged, key=lambda rt: int(rt[0].job_id.split("_")[0]))[1].workflow_id

    def _tagged(self, idempotency_key: str) -> list[Any]:
        proc = self.cli.run("squeue", ["-h", "-t", "all", "-O", SQUEUE_FORMAT], check=False)
        return [r for r in parse_squeue(proc.stdout) if r.tag and r.tag.key == idempotency_key]

    def _half_made(self, workflow_id: str) -> bool:
        """This store has the workflow's folder but not its record: a submit was killed before its commit point."""
        if not is_id(workflow_id):
            return False
        folder = SlurmDir(workflows_root(self.root) / workflow_id)
        return folder.root.is_dir() and not folder.slurm_record_path.is_file()

    def _remove_orphans(self, idempotency_key: str) -> None:
        """A submit killed between its first sbatch and its record left jobs (held, or running unrecorded) and a
        folder without a record. Under the submit lock nothing is half-way, so cancel those jobs and remove the
        folder: the submission then happens once, whole."""
        # Only folders of this store: jobs of other stores on the same cluster may carry the same key.
        orphans = [
            r
            for r in self._tagged(idempotency_key)
            if self._half_made(r.tag.workflow_id)
            and not (workflows_root(self.root) / r.tag.workflow_id / ABANDONED).exists()
        ]
        if not orphans:
            return
        self.cli.run("scancel", [r.job_id for r in orphans], check=False)
        for wid in {r.tag.workflow_id for r in orphans}:
            # The folder stays, marked, with no record: Slurm lists the canceled jobs (and their key) for a while,
            # and the marked folder keeps find_by_key from taking them for this key's submission.
            write_text_atomic(
                workflows_root(self.root) / wid / ABANDONED,
                "a submit was killed before writing its record; its jobs were canceled and it was submitted again\n",
            )

    def wait_for_change(self, workflow_id: str, timeout: float) -> bool:
        """Watch the runners' exit records and logs (no scheduler calls); True when one of them changed."""
        wf = self._dir(workflow_id)
        names = [j.name for j in wf.read_slurm_record().tasks]
        deadline = time.monotonic() + max(0.0, timeout)
        first = _fingerprint(wf, names)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(0.1, left))
            if _fingerprint(wf, names) != first:
                return True


# ---------------------------------------------------------------------------------------------- helpers
def _fingerprint(wf: SlurmDir, names: list[str]) -> tuple[Any, ...]:
    out: list[Any] = []
    for n in names:
        for p in (wf.exit_path(n), wf.log_path(n)):
            try:
                st = p.stat()
                out.append((st.st_mtime_ns, st.st_size))
            except FileNotFoundError:
                out.append(None)
    return tuple(out)


def _group_status(tasks: list[TaskState]) -> TaskStatus:
    alive = [t.status for t in tasks if t.status.alive()]
    if alive:
        return TaskStatus.RUNNING if TaskStatus.RUNNING in alive else alive[0]
    lead = next((t for t in tasks if t.lead), tasks[0])
    if lead.status.failed():
        return lead.status
    failed = [t.status for t in tasks if t.status.failed()]
    return failed[0] if failed else TaskStatus.COMPLETED


def _status(wf: SlurmDir, rec: SlurmRecord, obs: Observations) -> WorkflowStatus:
    tasks = []
    for j in rec.tasks:
        o = obs.tasks.get(j.name) or Observation(scheduling_start_time=rec.submit_time)
        tasks.append(
            TaskState(
                name=j.name,
                group=j.group,
                status=o.status,
                exit_code=o.exit_code,
                failure_message=o.failure_message,
                lead=j.lead,
                node=o.node,
                scheduling_start_time=o.scheduling_start_time,
                start_time=o.start_time,
                end_time=o.end_time,
                outputs=list(o.outputs),
            )
        )
    groups: dict[str, list[TaskState]] = {}
    for t in tasks:
        groups.setdefault(t.group, []).append(t)
    status = aggregate_status([_group_status(g) for g in groups.values()])
    starts = [t.start_time for t in tasks if t.start_time]
    start = min(starts) if starts else None
    end = max((t.end_time for t in tasks if t.end_time), default=None) if status.terminal() else None
    failed = next((t for t in tasks if t.status.failed() and t.status is not TaskStatus.FAILED_UPSTREAM), None)
    now = utcnow()
    return WorkflowStatus(
        workflow_id=rec.workflow_id,
        name=rec.name,
        status=status,
        pool=rec.pool,
        backend="slurm",
        priority=rec.priority,
        submit_time=rec.submit_time,
        start_time=start,
        end_time=end,
        queued_time=span_seconds(rec.submit_time, start or end or now),
        duration=span_seconds(start, end or now),
        exec_timeout=rec.exec_timeout,
        queue_timeout=rec.queue_timeout,
        tasks=tasks,
        links=Links(overview=file_url(wf.root)),
        outputs=[u for t in tasks for u in t.outputs],
        failure_message=f"{failed.name}: {failed.failure_message}" if failed and status.failed() else None,
    )


def _events_for(job: TaskJob, old: Observation | None, new: Observation) -> list[Event]:
    """Scheduler events in the shapes the rest of the agent reads (pending explainer, OOM/timeout rules)."""
    now = utcnow()
    events = []
    said = f"JobState={new.state} Reason={new.reason} (job {job.job_id})"
    if new.state == "PENDING" and new.reason not in ("None", "") and (old is None or old.reason != new.reason):
        kind = "Unschedulable" if new.reason in NEVER_FITS else "Pending"
        events.append(Event(time=now, task=job.name, reason=kind, message=said))
    if new.start_time and (old is None or not old.start_time):
        events.append(
            Event(
                time=new.start_time,
                task=job.name,
                kind="condition",
                condition="PodScheduled",
                condition_status=True,
                reason="Scheduled",
                message=f"job {job.job_id} started on {new.node or 'a node'}",
            )
        )
    if new.status.terminal() and (old is None or old.status.alive()):
        when = new.end_time or now
        if new.state == "OUT_OF_MEMORY":
            limit = f"{job.mem_mb}M" if job.mem_mb else "its default"
            events.append(
                Event(
                    time=when,
                    task=job.name,
                    reason="OOMKilled",
                    message=f"the job used more than its --mem={limit} limit; {said}",
                )
            )
        elif new.state in ("TIMEOUT", "DEADLINE"):
            events.append(
                Event(time=when, task=job.name, reason="DeadlineExceeded", message=f"time limit reached; {said}")
            )
        elif new.status is TaskStatus.FAILED_EXEC_TIMEOUT:  # stopped by the runner at exec_timeout
            events.append(
                Event(time=when, task=job.name, reason="DeadlineExceeded", message=new.failure_message or said)
            )
        elif new.status is TaskStatus.COMPLETED:
            events.append(Event(time=when, task=job.name, reason="Completed", message=said))
        else:
            events.append(
                Event(
                    time=when,
                    task=job.name,
                    reason=new.state.title().replace("_", ""),
                    message=f"{new.failure_message or said}",
                )
            )
    return events


def _append_scheduler_lines(wf: SlurmDir, job: TaskJob, obs: Observation) -> None:
    """Slurm writes its own verdicts (time limit, oom-kill) to the job's output file, after the runner is gone:
    copy them into the task log as the backend's [osmo] lines so log readers and diagnosis see them."""
    try:
        raw = wf.scheduler_out(job.name).read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        raw = []
    when = obs.end_time
    lines = [format_line(job.name, f"slurm: {text}", control=True, when=when) for text in raw if text.strip()]
    code = "unknown" if obs.exit_code is None else obs.exit_code
    lines.append(
        format_line(
            job.name,
            f"Slurm job {job.job_id} ended: JobState={obs.state} Reason={obs.reason} exit code {code}",
            control=True,
            when=when,
        )
    )
    log = wf.log_path(job.name)
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a", encoding="utf-8") as fh:
        fh.write("".join(line + "\n" for line in lines))
