"""The run hit its time limit (OSMO exec_timeout, Slurm TimeLimit, a Job deadline)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.errorblock import Line
from runshepherd.diagnosis.fixes import fix_timeout
from runshepherd.diagnosis.rules.base import Context, PatternRule, Signal, pat
from runshepherd.diagnosis.rules.family import exits, family, words
from runshepherd.diagnosis.slurmstate import job_state_rule

_EXPL = "The run was stopped because it reached its time limit before finishing."
_FIX = (
    "Raise the time limit (`timeout.exec_timeout`, or the scheduler's wall time) and save checkpoints "
    "regularly so a stopped run can resume instead of starting over."
)

# a time limit the program put on a step of its own (Python's subprocess, a harness): read on error-level lines only
# (a helper command timing out is a routine warning in healthy runs)
_OWN_STEP = PatternRule(
    name="timeout_own_step",
    label="timeout",
    origin="config",
    fix_kind="increase_timeout_or_checkpoint",
    explanation=_EXPL,
    fix_description=_FIX,
    patterns=(
        pat(r"\bTimeoutExpired\b|\bCommand .{0,300} timed out after \d+(?:\.\d+)? ?s|\bTimeout expired\s*$", 0.78),
    ),
)

# a start-up or response timeout: a server, worker or model load given a fixed time to come up (TorchServe's
# WorkerInitializationException "Backend worker did not respond in given time", its default_response_timeout;
# serving launchers' "did not become ready within N s"); read on error-level lines only
_NOT_READY = PatternRule(
    name="timeout_not_ready",
    label="timeout",
    origin="config",
    fix_kind="increase_timeout_or_checkpoint",
    explanation="A part of the job (a server, a worker or a model load) did not come up within the time it is "
    "given, so it was stopped before it was ready.",
    fix_description="Raise that start-up or response timeout (e.g. TorchServe's `default_response_timeout`, the "
    "server's readiness timeout), or make the start faster (a local copy of the model, fewer workers).",
    patterns=(
        pat(
            r"\bdid not (?:become ready|respond|start(?: up)?|come up) (?:within \d+(?:\.\d+)? ?(?:s|sec|seconds"
            r"|min|minutes)\b|in (?:the )?given time)",
            0.8,
        ),
        # the same fixed start-up time in other words: Ray Train's controller ("The worker group startup timed out
        # after 30.0 seconds waiting for 8 workers", RAY_TRAIN_WORKER_GROUP_START_TIMEOUT_S)
        pat(
            r"\b(?:startup|start-up|initiali[sz]ation) timed out after \d+(?:\.\d+)? ?(?:s|sec|seconds|min|minutes)\b",
            0.8,
        ),
    ),
)

# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): "timed out" (strerror(ETIMEDOUT),
# TimeoutError), gRPC/absl DEADLINE_EXCEEDED ("Deadline Exceeded"), a scheduler's time limit
ROOT_WORDS = (
    words(
        r"(?<!\bnot )(?<!n't )\btimed? ?out\b|\btimeout\b(?!\s*[=:]\s*\d)|\bdeadline (?:exceeded|expired)\b|\bDEADLINE_EXCEEDED\b|\btime[ -]?limit\b"
        r"|\bwall[ -]?(?:clock|time)\b(?:[^.]|\.\S){0,30}\b(?:exceeded|limit)\b|\bexceeded (?:the |its )?(?:time|wall)"
        r"|\btook too long\b|\bETIMEDOUT\b",
        0.58,
        "a time limit or a deadline",
    ),
)


_SLURM_LIMIT = re.compile(r"\bCANCELLED AT \S+ DUE TO TIME LIMIT\b")


def _tasks_exited(ln: Line) -> bool:
    """srun's report of tasks that ended by themselves with an error code ("srun: error: gpu-04: tasks 1-3: Exited
    with exit code 1", read by the shared exit-code parser); a task the time limit stops is reported after the
    limit, and as killed or terminated (no exit code)."""
    return ln.text.lstrip().startswith("srun: error: ") and any(c > 0 for c in ln.exit_codes)


def _tasks_had_ended(ctx: Context, s: Signal) -> bool:
    """Slurm's time-limit cancel came right after srun reported the step's tasks ended with an error code: the program
    had already failed, and the job sat idle to its limit (a script left waiting, a step that never returned). The
    time limit is not what stopped the run; the program's own error decides."""
    lines = ctx.log.lines
    if not 0 < s.order < len(lines) or not _SLURM_LIMIT.search(lines[s.order].text):
        return False
    k = s.order - 1
    while k >= 0 and (not lines[k].text.strip() or _tasks_exited(lines[k])):
        k -= 1
    return any(_tasks_exited(ln) for ln in lines[k + 1 : s.order])


FAMILY = family(
    "timeout",
    origin="config",
    fix_kind="increase_timeout_or_checkpoint",
    explanation=_EXPL,
    fix_description=_FIX,
    in_warnings=True,  # schedulers, launchers and pollers often report this at warning or info level
    patterns=(
        pat(r"DUE TO TIME LIMIT", 0.97),
        # the shell's report of the job killed by SIGUSR2 (strsignal: "User defined signal 2"), the signal batch systems
        # send when a job reaches its run limit (LSF's RUNLIMIT warning; Slurm's --signal=USR2@…, which submitit and
        # Lightning use for time-limit requeues); on its own line or glued after a progress bar's last frame
        pat(r"(?:^|[\]\d])\s*User defined signal 2\s*$", 0.68, flags=0),
        pat(r"FAILED_EXEC_TIMEOUT", 0.97, flags=0),
        pat(r"JobState=TIMEOUT|Reason=TimeLimit", 0.96, flags=0),
        # scontrol's DEADLINE state ("terminated on deadline", squeue's JOB STATE CODES,
        # https://slurm.schedmd.com/squeue.html#SECTION_JOB-STATE-CODES)
        pat(r"\bJobState=DEADLINE\b", 0.95, flags=0),
        # sacct rows (parsable or columns: JobName Partition Account AllocCPUS before State) and seff's State
        pat(
            r"\|(?:TIMEOUT|DEADLINE)\||^\s*\d+(?:_\d+)?(?:\.\w+)?\s+(?:\S+\s+){0,6}(?:TIMEOUT|DEADLINE)\s+-?\d+:\d+"
            r"|^State: (?:TIMEOUT|DEADLINE)\b",
            0.95,
            flags=0,
        ),
        pat(r"exceeded (?:its |the )?exec_timeout|exec[_ ]timeout (?:exceeded|reached)", 0.95),
        pat(r"was active (?:on the node )?longer than (?:the )?specified deadline|DeadlineExceeded", 0.95),
        # PBS/Torque/MOAB, SGE, grid middleware: the wall-clock limit in any word order
        pat(
            r"walltime exceeded|job killed: walltime|wall[- ]?clock (?:time )?limit (?:exceeded|reached)"
            r"|(?:exceed\w*|due to|reach\w*|over) (?:its |the |his |their |hard |maximum |max )*"
            r"(?:wall[- ]?clock|wall[- ]?time|run[- ]?time|time) (?:time )?limit",
            0.95,
        ),
        pat(r"exceeded (?:the )?maximum (?:execution|run) ?time|time limit (?:exceeded|reached)", 0.9),
        pat(r"^timeout: sending signal \w+ to command", 0.9),
        pat(r"TERM_RUNLIMIT|job killed after reaching .{0,30}(?:run|wall) ?time limit", 0.95),
        # LSF's CPU-time and deadline kills (bjobs -l / the job report's TERM_ reason)
        pat(r"\bTERM_(?:CPULIMIT|DEADLINE)\b", 0.93, flags=0),
        # a Slurm job state quoted as a status by the tools that poll it: snakemake's slurm executor ("SLURM status
        # is: 'TIMEOUT'"), submitit ("has not produced any output (state: TIMEOUT)"), scontrol/sacct key=value;
        # DEADLINE is the state of a job stopped at its --deadline
        pat(r"\b(?:state|status)(?: is)?\s*[:=]\s*['\"(]?(?:TIMEOUT|DEADLINE)\b", 0.95),
        # Grid Engine's execd: "job 48.1 exceeded hard wallclock time - initiate terminate method", and its
        # h_rt/h_cpu limits by name
        pat(r"exceeded (?:hard|soft) wall ?clock time|exceeds job (?:hard|soft) limit \W?[hs]_(?:rt|cpu)\b", 0.95),
        # PBS/Torque MOM: "=>> PBS: job killed: cput 3602 exceeded limit 3600"
        pat(r"job killed: cput \d+ exceeded limit", 0.95),
        # HTCondor's hold reasons for allowed_execute_duration / allowed_job_duration
        pat(r"exceeded allowed (?:execute|job) duration", 0.95),
        # ... and a site's own periodic_hold reason for a run past its hours (CHTC's GPU jobs: "Job was held." then
        # "Error from slot1_1@host: Job failed to complete in 72 hrs")
        pat(r"\bJob failed to complete (?:with)?in \d+ (?:hrs|hours|h)\b", 0.92),
        # Kaggle's verdict on a notebook past its session limit
        pat(r"exceeded the max(?:imum)? allowed execution duration", 0.95),
        # Nextflow's local executor ("Process exceeded running time limit (1h)"); AWS Batch's statusReason; the CI
        # runners' job time limits (GitLab, Jenkins' build-timeout plugin)
        pat(
            r"exceeded (?:the )?running time limit|Job attempt duration exceeded timeout"
            r"|execution took longer than \S+ seconds|Build timed out \(after \d+ \w+\)"
            r"|Too long with no output \(exceeded \S+\)",  # CircleCI's no-output timeout
            0.95,
        ),
        # Argo (activeDeadlineSeconds of a step), SageMaker's stopping condition
        pat(r"\b(?:step|task|pod|job|workflow) exceeded its deadline|\bMaxRuntimeExceeded\b", 0.93),
        # submitit's own verdict when Slurm signals the job near its time limit ("Job has not timed out" is the
        # preemption case, and is not matched)
        pat(r"\bJob has timed out\. Ran \d+ minutes|this job is timed-out|not requeued because: timed-out", 0.93),
        # time limits a framework puts on one unit of work: Celery tasks, Airflow tasks, notebook cells
        # (nbclient/papermill), pytest-timeout
        pat(
            r"\b(?:Soft)?TimeLimitExceeded\b|Hard time limit \(\S+\) exceeded|\bAirflowTaskTimeout\b"
            r"|\bCellTimeoutError\b|A cell timed out while it was being executed|^(?:E\s+)?Failed: Timeout >\d",
            0.85,
        ),
    ),
    rules=(_OWN_STEP, _NOT_READY, job_state_rule("timeout", "config", "increase_timeout_or_checkpoint", _EXPL, _FIX)),
    statuses={"FAILED_EXEC_TIMEOUT": 0.97},
    # 124 is what coreutils `timeout` returns when it had to stop the command
    exit_codes=(
        exits(124, strength=0.6, explanation=_EXPL + " (exit code 124 is the `timeout` command's.)"),
        # 128 + SIGUSR2: the signal LSF (and Grid Engine's soft limits) send a job at its run-time limit, so
        # Nextflow's retry recipes treat 137-140 as resource kills; a weak cue alone
        exits(
            140,
            strength=0.58,
            explanation=_EXPL + " (exit code 140 is 128 + SIGUSR2, the signal LSF and Grid "
            "Engine send at a run-time limit; it is not proof on its own.)",
        ),
        # PBS Pro's job exit status for a walltime (-29) or CPU-time (-28) kill (JOB_EXEC_KILL_WALLTIME/CPUT)
        exits(-29, -28, strength=0.85, explanation=_EXPL + " (PBS reports it as a negative exit status.)"),
    ),
    fixer=fix_timeout,
    root_words=ROOT_WORDS,
    recovered=_tasks_had_ended,
)
