"""Run every registered rule over one task's context and pick the verdict by the signal hierarchy.

Choice: secondary signals (launcher noise, aborted communicators) only count when nothing primary is there;
among the primary signals within ``BAND`` of the strongest, the earliest wins (status < failure message <
events < log position), so the root error beats later noise and infrastructure verdicts beat log lines.
"""

from __future__ import annotations

import re
from dataclasses import replace

from runshepherd.diagnosis.chains import yield_handled
from runshepherd.diagnosis.errorblock import _CHAINED, _FRAME, _TB_START, Line, exception_type, traceback_end
from runshepherd.diagnosis.formats.launchers import LAUNCH
from runshepherd.diagnosis.formats.nonfatal import COMMAND_NOT_FOUND, PYTHON_WARNING, TF_NO_GPU_PROBE
from runshepherd.diagnosis.formats.task_tags import TAGGED_EVENT, task_tag
from runshepherd.diagnosis.learned import dispute
from runshepherd.diagnosis.models import Diagnosis, DiagnosisInput, Fix, TaskRecord
from runshepherd.diagnosis.paste import typed_command
from runshepherd.diagnosis.positive import (
    RAN_ON_LINES,
    caught_import_went_on,
    fell_back_at,
    finished_after,
    is_progress,
    logged_exception_went_on,
    nan_result,
    positive_evidence,
    process_tag,
    process_went_on,
    progressed_after,
    ran_on_to_the_end,
    recovered_after,
    resolved_later,
    retried_at,
    served_past,
    started_past,
    survived_channel,
    talked_on_past,
)
from runshepherd.diagnosis.rootline import read_root_line
from runshepherd.diagnosis.rules import (
    REGISTRY,
    Context,
    PatternRule,
    Signal,
    caused_by,
    echo_labels,
    echoes_by_evidence,
    fix_for,
    labels_for,
    recovered,
    yield_to_details,
)
from runshepherd.diagnosis.severity import severity

BAND = 0.08
MIN_STRENGTH = 0.5  # below this (and for secondary-only evidence) a failed run is "unknown", a clean one "healthy"

_HEALTHY_EXPL = "No sign of a failure: the run shows no error, and its warnings are routine ones."
_HEALTHY_WHY = {
    "finished": "The run finished: the log says so, and it shows no error (its warnings are routine ones).",
    "progress": "The run is making progress (steps, losses or a progress bar) and the log shows no error; its "
    "warnings are routine ones.",
    "rows": "The run prints a counter that keeps growing (rows of numbers led by a step or epoch count, or a count of "
    "work done out of a total), and the log shows no error; nothing names it, so this is a weaker sign of progress.",
    "started": "The run started normally (it got past its start-up) and the log shows no error; nothing in it shows "
    "steps advancing or the run finishing yet.",
    "results": "The log is mostly a table of numeric results the run printed (rows of measured values of one width), "
    "and it shows no error; nothing names a step or the run's finish, so this is a weak verdict.",
    "routine": "The log holds only the libraries' routine warnings and notices and no error; nothing in it shows "
    "progress or completion yet, so this is a weak verdict.",
    "status": "The scheduler reports the run as not failed and the log shows no error; nothing in the log itself "
    "confirms the run finished or made progress.",
    "outputs": "The log lists weights or results files the run wrote and shows no error; nothing in it shows the "
    "run's steps or its finish, so this is a weak verdict.",
    "reported": "The log shows no error and ends in reported results (measured values the run printed, or its own "
    "statement that the work was done); no step counter or finished status confirms it, so this is a weak verdict.",
}
# the same verdicts when the log does print an error (or a failure a family knows) that the run went on past:
# retried and recovered, followed by steps or a finish. The explanation says so and quotes it.
_HEALTHY_PAST = {
    "finished": "The run finished: the log says so",
    "progress": "The run is making progress (steps, losses or a progress bar)",
    "rows": "The run prints a counter that keeps growing",
    "results": "The log is mostly a table of numeric results the run printed",
    "started": "The run started normally (it got past its start-up), though nothing shows steps advancing yet",
    "routine": "The log holds only the libraries' routine notices besides one error, and nothing shows progress or "
    "completion yet",
    "status": "The scheduler reports the run as not failed",
    "outputs": "The log lists weights or results files the run wrote",
    "reported": "The log ends in reported results",
}
_NO_EVIDENCE = (
    "Neither an error nor a sign of health: the log shows no error and no sign of progress or completion (no "
    "steps, losses, finished status or exit code), so whether the run worked cannot be told from it."
)
# the same, when the log reports a result that is not a number: no error line, but nothing measured either
_NAN_RESULT = (
    "The log shows no error line, but the result it reports is not a number (“{line}”): the run measured nothing "
    "there (an empty set, or outputs it never made), and no progress or completion says whether it worked."
)
_NO_EVIDENCE_FIX = (
    "Check the run's status and exit code with the scheduler, and read the rest of its log (its end, where a "
    "kill or a time limit would be reported); rerun with unbuffered output (`python -u`) if lines may be missing."
)
_READ_FULL_LOG = (
    "Read the full log around the quoted line (and the task's events); rerun with unbuffered output "
    "(`python -u`) if the last lines may be missing."
)


def collect(ctx: Context) -> list[Signal]:
    signals: list[Signal] = []
    for r in REGISTRY:
        signals.extend(r(ctx))
    return signals


# failures that other failures cause: when another error came first in the log, they are its echo
CONSEQUENCES = echo_labels()


def choose(signals: list[Signal]) -> Signal | None:
    primary = [s for s in signals if not s.secondary and s.strength >= MIN_STRENGTH]
    primary = [_demote_echo(s, primary) for s in primary]
    if not primary:
        return None
    top = max(s.strength for s in primary)
    band = [s for s in primary if s.strength >= top - BAND - 1e-9]
    return min(band, key=lambda s: (s.order, -s.strength))


def _demote_echo(s: Signal, primary: list[Signal]) -> Signal:
    if (s.label not in CONSEQUENCES and not echoes_by_evidence(s)) or s.order < 0:
        return s
    earlier = [
        o
        for o in primary
        if o.label != s.label and 0 <= o.order < s.order and o.strength >= 0.6 and o.label not in CONSEQUENCES
    ]
    if not earlier:
        return s
    return replace(s, strength=s.strength - 0.2)


# what a failure that was retried in vain typically causes next (a failed pip download leaves a module missing):
# such a later error is its echo, so it does not prove the program went on past the retried failure
CAUSED_BY = {label: set(caused_by(label)) for label in labels_for("failed") if caused_by(label)}
# a completed run can only have spoiled results; an alive one only what blocks or spoils it (a caught exception
# in a running log does not count)
COMPLETED_LABELS = labels_for("completed")
RUNNING_LABELS = labels_for("running")


def _drop_recovered(signals: list[Signal], ctx: Context) -> list[Signal]:
    """A log failure the program retried successfully is history, not evidence of failure: it is dropped.

    Proof of success is an explicit "attempt 2 ok"-style line after the retry (or a later "error resolved"), or
    the run finishing normally with no later signal of the same family (a retry that failed again repeats its
    error). A retried failure followed by a primary error of another family, and not repeated, is dropped too:
    the program went on past it, and the later error is what stopped the run (unless that error is one the
    retried failure causes, see ``CAUSED_BY``).
    """
    lines = ctx.log.lines
    out = []
    for s in signals:
        if (
            _went_on_past(s, signals, ctx)
            or survived_channel(lines, s.order)
            or (
                s.label not in COMPLETED_LABELS
                and (
                    talked_on_past(lines, s.order, ctx.log.errors)
                    or started_past(lines, s.order, ctx.log.errors)
                    or served_past(lines, s.order, ctx.log.errors)
                )
            )
            or recovered(ctx, s)
            or _ran_on_to_traceback(s, signals, ctx)
            or _ran_on_to_another_failure(s, signals, ctx)
            or _typed_after_the_run(s, lines)
            or _exited_ok(s, lines)
            or _rescheduled_and_finished(s, lines)
            or _tracker_retrying(s, lines)
            or _fell_back(s, signals, lines)
            or _process_went_on(s, signals, lines)
            or (
                s.label not in COMPLETED_LABELS
                and 0 <= s.order < len(lines)
                and logged_exception_went_on(lines, traceback_end(lines, s.order))
            )
        ):
            continue
        retry = retried_at(lines, traceback_end(lines, s.order)) if 0 <= s.order < len(lines) else None
        if retry is not None:
            again = any(o.label == s.label and o.order > retry for o in signals)
            if (
                recovered_after(lines, retry)
                or resolved_later(lines, retry)
                or (not again and (finished_after(lines, retry) or progressed_after(lines, retry)))
            ):
                continue
            caused = CAUSED_BY.get(s.label, set())
            # a line that one family reads as the retried failure's consequence is that consequence, whatever
            # other family (a bare exception) also reads it
            echoes = {o.order for o in signals if o.label in caused}
            if not again and any(
                o.order > retry
                and o.label != s.label
                and not o.secondary
                and o.strength >= MIN_STRENGTH
                and o.label not in caused
                and o.order not in echoes
                for o in signals
            ):
                continue
        out.append(s)
    return out


# W&B's notice that its background sync lost the server and keeps retrying (wandb/sdk/internal/internal_api.py:
# "wandb: Network error (ConnectionError), entering retry loop."): the sync runs in its own process, so training goes on
_TRACKER_RETRY = re.compile(r"\bwandb: Network error \(\w+\), entering retry loop\b")


def _tracker_retrying(s: Signal, lines: list[Line]) -> bool:
    """The signal's line is the experiment tracker's background retry notice (:data:`_TRACKER_RETRY`), printed after
    the run had made progress (two or more lines of steps before it): its sync lost the server while training went
    on, which is not what stops a run. Before any step it is wandb.init failing to connect: the network failure."""
    if not 0 <= s.order < len(lines) or _TRACKER_RETRY.search(lines[s.order].text) is None:
        return False
    return sum(1 for ln in lines[: s.order] if is_progress(ln)) >= 2


def _fell_back(s: Signal, signals: list[Signal], lines: list[Line]) -> bool:
    """The program said, on the signal's line or right after it, that it carries on another way (``fell_back_at``):
    it caught the failure, so the failure did not stop it; unless the same family is read again after the fallback
    (the fallback failed too)."""
    at = fell_back_at(lines, s.order)
    return at is not None and not any(o.label == s.label and o.order > at for o in signals)


def _process_went_on(s: Signal, signals: list[Signal], lines: list[Line]) -> bool:
    """The exception was printed by a tagged worker process that then went on reporting its own work
    (``process_went_on``): it caught the exception, which did not end it; unless the family spoils a finished run
    (read as it is) or is read again after the exception."""
    if s.label in COMPLETED_LABELS or not process_went_on(lines, s.order):
        return False
    end = traceback_end(lines, s.order)
    return not any(o.label == s.label and o.order > end for o in signals)


def _off_debug(signals: list[Signal], ctx: Context) -> list[Signal]:
    """Signals on records whose header states DEBUG level are dropped: a debug record is the emitter's account of a
    path it tried and did without (SageMaker's serving container at DEBUG: "No customer script
    custom_sagemaker_ping_handler function found: HandlerFileNotFoundError"), never how it failed; a failure that
    matters is logged at a louder level. (Info records stay, demoted: :func:`_demote_info`.)"""
    lines = ctx.log.lines
    return [s for s in signals if not (0 <= s.order < len(lines) and severity(lines[s.order].clean) == "debug")]


def _demote_info(signals: list[Signal], ctx: Context) -> list[Signal]:
    """A signal on a quiet record (``Line.quiet``: its header states info or debug level) yields 0.1 to a signal of
    another family on a line that is not quiet: TensorFlow 1 logs its failed libcuda probe as ``I …
    cuda_gpu_executor.cc:1066] failed to find libcuda.so`` and runs on the CPU, so a scheduler's ``PBS: job killed:
    walltime`` outranks it; alone, the probe is still the reading."""
    lines = ctx.log.lines

    def _info(s: Signal) -> bool:
        return 0 <= s.order < len(lines) and lines[s.order].quiet

    if not any(_info(s) for s in signals):
        return signals
    louder = {s.label for s in signals if not s.secondary and s.strength >= MIN_STRENGTH and not _info(s)}
    return [replace(s, strength=s.strength - 0.1) if _info(s) and louder - {s.label} else s for s in signals]


# lines that do not stop what printed them: a shell script's failed command (bash goes on to the next line unless
# ``set -e``: "slurm_script: line 9: SBATCH: command not found"), a Python warning ("….py:141: UserWarning: …") and
# TensorFlow's GPU probe on a machine without one (it runs on the CPU)
_NON_FATAL = re.compile(f"{COMMAND_NOT_FOUND}|{PYTHON_WARNING}|{TF_NO_GPU_PROBE}")
_TF_PROBE = re.compile(TF_NO_GPU_PROBE)


def _ran_on_to_traceback(s: Signal, signals: list[Signal], ctx: Context) -> bool:
    """A line's signal when the program ran on after it and then raised, in a Python traceback, what another family
    reads: the program's own exception is then what stopped the run; the earlier line is history (a typo'd directive
    the shell tried to run, a driver warning before a TypeError, an optional import that failed, a resume that found
    no checkpoint and started fresh). Ran on: the line is a form that does not stop its program (``_NON_FATAL``), or
    the program printed ``RAN_ON_LINES`` or more distinct lines of its own output between it and the traceback
    (``_ran_on``); then the traceback's own exception must be read by a family the earlier failure does not cause
    (``CAUSED_BY``), and the earlier line's family must not be read again from the traceback on (a run that fails
    the same way twice may have failed of it: a wrapper that reports the run's failure quotes its error, as a job
    client's "Failed. Reason: ... ErrorMessage \"torch.cuda.OutOfMemoryError: ...\"" does)."""
    lines, errors = ctx.log.lines, ctx.log.errors
    if not 0 <= s.order < len(lines):
        return False
    start = next((ln.index for ln in lines[s.order + 1 :] if _TB_START.search(ln.text)), None)
    if start is None:
        return False
    if _NON_FATAL.search(lines[s.order].text):
        return any(
            o.label != s.label and not o.secondary and o.strength >= MIN_STRENGTH and o.order > start for o in signals
        )
    if not _ran_on(s, signals, lines, errors, start):
        return False
    if any(o.label == s.label and o.order >= start for o in signals) or _read_again(ctx, s.label, start):
        return False  # it failed again the same way: the earlier line may be the cause
    end = traceback_end(lines, start)
    caused = CAUSED_BY.get(s.label, set())
    return any(
        o.label != s.label
        and o.label not in caused
        and not o.secondary
        and o.strength >= MIN_STRENGTH
        and start < o.order <= end
        for o in signals
    )


def _ran_on_to_another_failure(s: Signal, signals: list[Signal], ctx: Context) -> bool:
    """A line of a form that does not stop its program (``_NON_FATAL``: a job script's "module: command not found",
    a Python warning) when the program then printed ``RAN_ON_LINES`` lines of its own and a later line that another
    family reads (one the earlier failure does not cause) ended it without a traceback (a kill at the memory limit):
    the earlier line is history, as in :func:`_ran_on_to_traceback`. TensorFlow's GPU probe needs no lines of
    output after it: it is a notice that the run goes on on the CPU, so whatever another family reads later ended it."""
    lines = ctx.log.lines
    if not 0 <= s.order < len(lines) or not _NON_FATAL.search(lines[s.order].text):
        return False
    caused = CAUSED_BY.get(s.label, set())
    later = [
        o.order
        for o in signals
        if o.label != s.label
        and o.label not in caused
        and not o.secondary
        and o.strength >= MIN_STRENGTH
        and o.order > s.order
    ]
    if later and _TF_PROBE.search(lines[s.order].text):
        return True
    return bool(later) and _ran_on(s, signals, lines, ctx.log.errors, min(later))


def _read_again(ctx: Context, label: str, start: int) -> bool:
    """Whether the family's line patterns read a line at ``start`` or later (its signals stop at its first few
    lines: a failure printed early by several ranks is not among them when a wrapper quotes it at the end)."""
    return any(isinstance(r, PatternRule) and r.label == label and r.reads_from(ctx, start) for r in REGISTRY)


# RAN_ON_LINES (positive.py): the program's own output between a failure line and a later traceback that shows it ran
# on past the line (a failure that stops a program is followed by its end or its traceback, not by more of its own
# records); as many as the progress lines that show a run went on past a family's error (WENT_ON_STEPS)


def _ran_on(s: Signal, signals: list[Signal], lines: list[Line], errors: list[Line], start: int) -> bool:
    """Between the signal's line and the traceback at ``start`` the program printed ``RAN_ON_LINES`` or more distinct
    lines of its own output: not blank, not a warning, not an error-looking line, not a line any family reads, not a
    traceback's frame or code; with no chain's link between (chains.py reads those). The signal's line is not a
    traceback's header, frame or quoted code."""
    if traceback_end(lines, s.order) != s.order or _TB_START.search(lines[s.order].text):
        return False
    between = lines[s.order + 1 : start]
    if any(_CHAINED.search(ln.text) for ln in between):
        return False  # a chain of exceptions (chains.py reads it)
    told = {e.index for e in errors} | {o.order for o in signals}
    seen: set[str] = set()
    for ln in between:
        if ln.usable and ln.index not in told and not _FRAME.match(ln.text):
            seen.add(ln.text.strip())
            if len(seen) >= RAN_ON_LINES:
                return True
    return False


_NOT_FOUND_CMD = re.compile(COMMAND_NOT_FOUND)


def _typed_after_the_run(s: Signal, lines: list[Line]) -> bool:
    """A shell's "command not found" for a command the person typed at a prompt after the run's output (a tmux
    command at the bash prompt once training had printed its results): the run did not print it, so it is not
    what stopped the run. Needs the run's progress before that prompt, and the command on the prompt line."""
    if not 0 <= s.order < len(lines):
        return False
    m = _NOT_FOUND_CMD.search(lines[s.order].text)
    if m is None:
        return False
    prompt = next(
        (ln for ln in reversed(lines[: s.order]) if ln.text.strip() and not _NOT_FOUND_CMD.search(ln.text)), None
    )
    typed = typed_command(prompt.clean) if prompt is not None else None
    if prompt is None or typed is None:
        return False
    if m.group("bin") not in re.split(r"[\s;&|]+", typed) or LAUNCH.search(typed):
        return False
    return any(is_progress(ln) for ln in lines[: prompt.index])


# Python's exit with a success status: ``sys.exit(0)``, ``exit()`` or ``sys.exit()`` raise SystemExit, and a
# launcher or notebook that prints the traceback of it ends it with "SystemExit: 0" (or "SystemExit: None", or
# nothing after the type: exit status 0; https://docs.python.org/3/library/exceptions.html#SystemExit,
# https://docs.python.org/3/library/sys.html#sys.exit: "zero is considered successful termination")
_EXIT_OK = re.compile(r"^\s*SystemExit(?::\s*(?:0|None|False)?)?\s*$")


def _exited_ok(s: Signal, lines: list[Line]) -> bool:
    """A signal on a traceback (its header, a frame, the exception line) whose exception is SystemExit with a
    success status: the program's exit, not a failure."""
    if not 0 <= s.order < len(lines):
        return False
    end = traceback_end(lines, s.order)
    return _EXIT_OK.match(lines[end].text) is not None


def _rescheduled_and_finished(s: Signal, lines: list[Line]) -> bool:
    """The platform took the machine away (an eviction, a preemption, a requeue) and the log then says the job
    finished normally (HTCondor's "Normal termination (return value 0)" after "Job was evicted.", a requeued Slurm
    job's COMPLETED): the scheduler ran it again and it succeeded, so the interruption is history."""
    return s.label == "preempted" and 0 <= s.order < len(lines) and finished_after(lines, s.order)


# a failure the program went on past is not what stopped it: three or more later lines of progress (steps,
# losses, a moving bar) that do not repeat it. Families that spoil a run without stopping it (NaN losses, missing
# outputs: the ones a completed run can have) are read as they are.
WENT_ON_STEPS = 3


def _went_on_past(s: Signal, signals: list[Signal], ctx: Context) -> bool:
    """The run kept making progress after the signal's failure, and the log does not end in that failure again.

    Progress after a failure means the program got past it, unless the same family reads one of the log's last
    lines: then the run ended in it (a scheduler's time-limit cancel of the job, then of each step while the other
    steps' bars flush their last frames; a failure every rank prints, the last one at the end). The family's signals
    stop at its first few lines, so the end is looked at with its patterns (``_read_again``)."""
    lines = ctx.log.lines
    if not 0 <= s.order < len(lines) or s.label in COMPLETED_LABELS:
        return False
    if _driver_raised(lines, s.order):
        return False
    same = frozenset(o.order for o in signals if o.label == s.label)
    end = traceback_end(lines, s.order)
    if not progressed_after(lines, end, steps=WENT_ON_STEPS, skip=same):
        return False
    return not _ends_in(ctx, s) and not _quoted_at_end(lines, end)


# a message this short (``KeyError: 0``) is quoted by chance, not by the program reporting that failure
QUOTED_MESSAGE_CHARS = 6


def _quoted_at_end(lines: list[Line], end: int) -> bool:
    """One of the log's last ``END_LINES`` non-empty lines, after the exception line ``end``, quotes its message: the
    program reports that failure as how it ended ("✗ Failed to train baseline models: 'image_size'" after a
    ``KeyError: 'image_size'`` whose traceback stderr flushed before the steps stdout printed)."""
    if not 0 <= end < len(lines):
        return False
    exc = exception_type(lines[end].text)
    msg = exc[1] if exc is not None else ""
    if len(msg) < QUOTED_MESSAGE_CHARS:
        return False
    tail = [ln for ln in lines[end + 1 :] if ln.text.strip()][-END_LINES:]
    return any(msg in ln.text and not ln.code for ln in tail)


# a Ray driver's own uncaught error for a task that failed (ray.get re-raises it: "ray.exceptions.RayTaskError(
# RuntimeError): ray::train() (pid=…)"), on a line no worker tag precedes: the driver ends there; the other tasks'
# output Ray flushes after it (their bars and steps) is not the run going on
_DRIVER_RAY_ERROR = re.compile(r"^ray\.exceptions\.Ray(?:Task|Actor)Error\b")


def _driver_raised(lines: list[Line], idx: int) -> bool:
    """The failure at ``idx`` is inside, or is, a Ray task's error the driver raised (:data:`_DRIVER_RAY_ERROR`), its
    line untagged by a worker process, within the traceback that holds ``idx`` or a few lines from its end."""
    end = traceback_end(lines, idx)
    for ln in lines[max(0, idx - 40) : end + 1]:
        if _DRIVER_RAY_ERROR.match(ln.text) and process_tag(ln) is None:
            return True
    return False


# how many of the log's last non-empty lines count as its end
END_LINES = 2


def _ends_in(ctx: Context, s: Signal) -> bool:
    """The family of ``s`` reads one of the log's last ``END_LINES`` non-empty lines, after ``s`` itself."""
    lines = ctx.log.lines
    tail = [ln.index for ln in lines[s.order + 1 :] if ln.text.strip()][-END_LINES:]
    return bool(tail) and _read_again(ctx, s.label, tail[0])


def _revived(
    found: list[Signal], kept: list[Signal], ctx: Context, failed: bool | None, allowed: set[str] | None
) -> list[Signal]:
    """The signals dropped only because the run went on past them, when the run then failed: its status says so
    (``failed``, a non-zero exit code) or, for a bare log, the last exit code the log states after them is
    non-zero, and no later error that no family knows is there. A log with no such sign keeps them dropped: the
    steps after the error are then the truest reading (the run may still be going)."""
    if failed is False or _open_errors(ctx):  # a later error no family knows stopped it
        return []
    lines = ctx.log.lines
    past = [
        s
        for s in found
        if not any(k is s for k in kept)
        and (allowed is None or s.label in allowed)
        and _went_on_past(s, found, ctx)
        and not recovered(ctx, s)
        and not _retried_ok(lines, s.order)
    ]
    if failed or ctx.exit_code not in (None, 0):
        return past
    stated = [(ln.index, ln.exit_codes[-1]) for ln in lines if ln.exit_codes]
    if not stated or stated[-1][1] == 0:
        return []
    return [s for s in past if s.order < stated[-1][0]]


def _retried_ok(lines: list[Line], idx: int) -> bool:
    retry = retried_at(lines, traceback_end(lines, idx))
    return retry is not None and (recovered_after(lines, retry) or resolved_later(lines, retry))


def verdict(
    ctx: Context, *, failed: bool | None = None, task: str | None = None, allowed: set[str] | None = None
) -> Diagnosis:
    """One diagnosis for one context. ``failed`` = what the status says (None = unknown, e.g. a bare log).

    The rules decide the label. Where they were confident and a model learned from labelled real logs reads another
    family, the confidence drops to what such disputed readings measured (learned.dispute); a run whose status says
    it did not fail is the rules' alone. (A learned fallback that replaced the rules' unsure labels was removed in
    stop 64: over blind v32-v39 it turned 27 wrong labels right and 24 right ones wrong.)"""
    rules = _rules(ctx, failed=failed, task=task, allowed=allowed)
    if failed is False:
        return rules
    return dispute(ctx, rules)


def rules_verdict(
    ctx: Context, *, failed: bool | None = None, task: str | None = None, allowed: set[str] | None = None
) -> Diagnosis:
    """The rules' diagnosis for one context, before the learned model is asked whether it disputes it."""
    return _rules(ctx, failed=failed, task=task, allowed=allowed)


def _rules(
    ctx: Context, *, failed: bool | None = None, task: str | None = None, allowed: set[str] | None = None
) -> Diagnosis:
    """The rules' diagnosis."""
    found = collect(ctx)
    # a server stopped from outside: what it printed while shutting down did not stop it (unless its status says
    # it failed: then the signal may be the platform's, and is read as such)
    stop = ctx.log.stop_signal if failed is not True else None
    if stop is not None:
        found = [s for s in found if s.order < stop]
    signals = yield_to_details(_demote_info(_drop_recovered(_off_debug(found, ctx), ctx), ctx), ctx.log.lines)
    signals = yield_handled(signals, ctx.log.lines)
    if allowed is not None:
        signals = [s for s in signals if s.label in allowed]
    best = choose(signals)
    if best is not None and _all_echoes(signals, best.label):
        # every reading of the chosen family is the echo of an error reported just before it (an abort after a
        # program's own fatal message): a family's reading of that message by its words (the backoff's) says why
        echoed = root_reading(ctx, allowed)
        if echoed is not None and echoed.label != best.label:
            best = echoed
    went_past = False
    if best is None:
        # a failed run whose only failure is one it seemingly went past (progress printed after it) was still
        # stopped by it: nothing else in the log says otherwise, so it is named, not "unknown"
        best = choose(_revived(found, signals, ctx, failed, allowed))
        went_past = best is not None
    if best is None:
        unnamed = _unnamed(ctx, signals, found, failed, task)
        if unnamed.label != "unknown" or failed is False:
            return unnamed
        # the backoff before "unknown": the root error line read by the families' vocabularies (weak, one line)
        best = root_reading(ctx, allowed)
        if best is None:
            return unnamed
    same = [s for s in signals if s.label == best.label and s is not best and not s.secondary]
    rivals = [s for s in signals if s.label != best.label and not s.secondary and s.strength >= best.strength - BAND]
    confidence = min(0.99, best.cap, best.strength + 0.02 * min(len(same), 3) - 0.08 * min(len(rivals), 2))
    evidence = _dedupe(best.evidence + [line for s in same[:2] for line in s.evidence])[:8]
    explanation = best.explanation
    if went_past:  # weaker: the steps after it are unexplained (a caught error, an interleaved rank's output)
        confidence -= 0.1
        explanation += (
            " The run went on printing progress after this error, but then failed, and the log shows no other error."
        )
    fix_kind, fix_description = fix_for(ctx, best)
    return Diagnosis(
        label=best.label,
        origin=best.origin,
        confidence=round(max(0.05, confidence), 3),
        evidence=evidence,
        explanation=explanation,
        fix=Fix(kind=fix_kind, description=fix_description),
        task=task,
        what_would_confirm=best.what_would_confirm,
    )


def _all_echoes(signals: list[Signal], label: str) -> bool:
    """Every signal of ``label`` is marked an echo by its own evidence (`echoes_by_evidence`)."""
    own = [s for s in signals if s.label == label]
    return bool(own) and all(echoes_by_evidence(s) for s in own)


def _unnamed(
    ctx: Context, signals: list[Signal], found: list[Signal], failed: bool | None, task: str | None
) -> Diagnosis:
    """The verdict when no family is named: "unknown" on evidence of a failure (quoting an unexplained error line
    when there is one), else "healthy" on positive evidence (else "unknown" again)."""
    # evidence of a failure that names no family, or names one too weakly to decide: never "healthy"
    weak = [s for s in signals if s.label == "unknown" or s.secondary or s.strength < MIN_STRENGTH]
    if failed is not False:
        unexplained = _unexplained_error(_open_errors(ctx))
        if unexplained is not None:
            return unexplained.model_copy(update={"task": task})
    if failed or (failed is None and weak):
        ev = _dedupe([line for s in weak[:3] for line in s.evidence])
        return Diagnosis(
            label="unknown",
            origin=weak[0].origin if weak else "user",
            confidence=0.3,
            evidence=ev,
            task=task,
            explanation=(
                weak[0].explanation
                if weak and weak[0].label == "unknown"
                else "The run failed, but nothing in the status, events or logs says why."
            ),
            fix=Fix(
                kind="none",
                description="Read the full log of the failed task (and its events); "
                "rerun with unbuffered output (`python -u`) so the last lines are not lost.",
            ),
        )
    return _healthy(ctx, found, task)


def _unexplained_error(open_errors: list[Line]) -> Diagnosis | None:
    """An error-looking line that no family explains (and no later line says the run finished): "unknown",
    quoting it, never "healthy"."""
    line = next(iter(open_errors), None)
    if line is None:
        return None
    quoted = line.raw.strip()
    return Diagnosis(
        label="unknown",
        origin="user",
        confidence=0.3,
        evidence=[line.raw.rstrip()],
        explanation=f"The log has an error no known failure explains: “{quoted[:300]}”.",
        fix=Fix(kind="none", description=_READ_FULL_LOG),
    )


def root_reading(ctx: Context, allowed: set[str] | None = None) -> Signal | None:
    """The backoff's reading of the failed log's root error line by the families' vocabularies (rootline.py): a weak
    signal, or None when no vocabulary fits. The verdict only asks when it would otherwise say "unknown"."""
    return read_root_line(ctx, _open_errors(ctx), _got_past, allowed)


def _open_errors(ctx: Context) -> list[Line]:
    """The error-looking lines the run did not get past (nothing after them shows it went on)."""
    lines = ctx.log.lines
    stop = ctx.log.stop_signal
    last = _went_on_to_the_end(ctx)
    return [
        ln
        for ln in ctx.log.errors
        if (stop is None or ln.index < stop)
        and not _got_past(lines, ln.index)
        and not talked_on_past(lines, ln.index, ctx.log.errors)
        and ln.index > last
    ]


# what shows a run went on past its last error to the log's end: the positive evidence a clean log is called healthy
# on (positive_evidence), read on the lines after that error, save the weakest kinds (a log of routine notices, a
# listing of files: a crashed program's shutdown prints those too)
ENDED_WELL = frozenset({"finished", "progress", "rows", "results", "started"})


def _went_on_to_the_end(ctx: Context) -> int:
    """The index of a bare log's last error-looking line when the run visibly went on past it to the log's end
    (``ran_on_to_the_end``: three or more distinct lines after it, positive evidence among them, none speaking of a
    failure); then no error line up to it is open: a failure that stops a run is followed by its end (a traceback, a
    kill, a later error), not by the run's progress, start-up or finish. Not when that line is a fatal record: the log
    holds a Python traceback or an exception line (an uncaught exception ends its program; what follows is a
    wrapper's or another process's output), or the line states a non-zero exit code or a signal (a kill). Only for a
    log read alone (no status, no exit code): a status that says the run failed outranks what its log went on to
    print. -1 otherwise. Family readings are not dropped this way: on VALIDATION that called failures healthy (a
    rank's progress after another rank's error, a wrapper's finish line after the failure)."""
    errors = ctx.log.errors
    if not errors or ctx.status is not None or ctx.exit_code is not None:
        return -1
    lines = ctx.log.lines
    last = errors[-1].index
    if ctx.log.exceptions or any(lines[last].exit_codes) or any(_TB_START.search(ln.text) for ln in lines):
        return -1
    return last if ran_on_to_the_end(lines, last, ENDED_WELL) else -1


def _got_past(lines: list[Line], idx: int) -> bool:
    """The run went on past line ``idx``: it finished later, kept making progress (steps, metrics, a moving
    progress bar on two or more later lines), or retried and recovered."""
    return (
        finished_after(lines, idx)
        or progressed_after(lines, idx)
        or _retried_ok(lines, idx)
        or survived_channel(lines, idx)
        or fell_back_at(lines, idx) is not None
        or process_went_on(lines, idx)
        or caught_import_went_on(lines, idx)
        or logged_exception_went_on(lines, idx)
    )


def _healthy(ctx: Context, signals: list[Signal], task: str | None) -> Diagnosis:
    """Healthy only on positive evidence: a completion marker or exit 0, progress, a run seen past its start-up, a
    log of routine library notices only, or a scheduler status that is not a failure. A bare log with none of them is "unknown", never "healthy"."""
    found = positive_evidence(ctx.log.lines)
    why = found[0] if found else ("finished" if ctx.status == "COMPLETED" or ctx.exit_code == 0 else None)
    if why is None and ctx.status is None:
        nan = nan_result(ctx.log.lines)
        return Diagnosis(
            label="unknown",
            origin="user",
            confidence=0.3,
            evidence=[nan.raw.rstrip()] if nan is not None else [],
            task=task,
            explanation=_NAN_RESULT.format(line=nan.raw.strip()[:200]) if nan is not None else _NO_EVIDENCE,
            fix=Fix(kind="none", description=_NO_EVIDENCE_FIX),
        )
    why = why or "status"
    confidence = {
        "finished": 0.9,
        "progress": 0.8,
        "rows": 0.7,
        "results": 0.6,
        "started": 0.6,
        "status": 0.6,
        "outputs": 0.6,
        "reported": 0.7,
        "routine": 0.5,
    }[why]
    explanation = _HEALTHY_WHY[why] if ctx.log.lines or why != "status" else _HEALTHY_EXPL
    stop = ctx.log.stop_signal
    past = _went_past_line(ctx, signals, stop)
    if past is not None:
        confidence -= 0.15  # an error it got past, a retried failure: the verdict is less sure
        explanation = (
            f"{_HEALTHY_PAST[why]}. It printed an error, but went on past it (it was retried, or steps or its own "
            f"records followed): “{past.strip()[:200]}”."
        )
    else:
        if found:  # the line the verdict rests on, quoted: a clean verdict never stands on no line
            explanation += f" It rests on this line: “{found[1].raw.strip()[:200]}”."
        if signals:
            confidence -= 0.15  # a hint too weak to name a failure: the verdict is less sure
    if stop is not None:
        explanation += (
            f" The server was then stopped from outside (“{ctx.log.lines[stop].raw.strip()[:200]}”); what it "
            "printed while shutting down is not a failure."
        )
    return Diagnosis(
        label="healthy",
        origin="user",
        confidence=confidence,
        evidence=[found[1].raw.rstrip()] if found else [],
        explanation=explanation,
        fix=Fix(kind="none", description="Nothing to fix."),
        task=task,
    )


def _went_past_line(ctx: Context, signals: list[Signal], stop: int | None = None) -> str | None:
    """The first error line (or a family's failure line) in a log that is nonetheless healthy: one the run went on
    past. None when the log shows no error at all, or none before ``stop`` (a server's stop signal: its shutdown
    follows)."""
    end = len(ctx.log.lines) if stop is None else stop
    line = next((ln for ln in ctx.log.errors if ln.index < end), None)
    if line is not None:
        return line.raw.rstrip()
    return next((s.evidence[0] for s in signals if not s.secondary and s.evidence and 0 <= s.order < end), None)


def _dedupe(lines: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for ln in lines:
        if ln and ln not in seen:
            seen.add(ln)
            out.append(ln)
    return out


# ------------------------------------------------------------------------------------------- public API
def log_context(text: str) -> Context:
    """The context of a bare log read alone: no task, status or exit code (what ``diagnose --log`` reads, and what
    the learned model was trained on)."""
    return Context.build(task=None, log_lines=text.splitlines())


def diagnose_log_text(text: str, source: str = "<log>", *, rules_only: bool = False) -> Diagnosis:
    """Diagnose a bare log file from its text alone (``orchestrate diagnose --log FILE``); ``rules_only``: the
    rules' reading, without the learned model's disputed confidence (``--rules-only``)."""
    ctx = log_context(text)
    return rules_verdict(ctx, failed=None) if rules_only else verdict(ctx, failed=None)


def diagnose(inp: DiagnosisInput) -> list[Diagnosis]:
    """One diagnosis per failed task group (healthy when nothing failed), each with a fix and, if possible, a patch."""
    out: list[Diagnosis] = []
    failed_tasks = [t for t in inp.tasks if t.is_failed() and (t.status or "").upper() != "FAILED_UPSTREAM"]
    by_group: dict[str, TaskRecord] = {}
    for t in failed_tasks:
        key = t.group or t.name
        if key not in by_group or (t.lead and not by_group[key].lead):
            by_group[key] = t
    status = inp.status.value if inp.status is not None else None

    for t in by_group.values():
        ctx = Context.build(
            task=t.name,
            status=t.status if (t.status or "").upper() != "FAILED" else (status if status != "FAILED" else "FAILED"),
            exit_code=t.exit_code,
            failure_message=t.failure_message,
            events=_events_for(inp.events, t.name),
            log_lines=_logs_for(inp, t.name),
            spec_text=inp.spec_text,
            metrics=inp.metrics,
        )
        out.append(verdict(ctx, failed=True, task=t.name))

    if not out:
        ctx = Context.build(
            task=None,
            status=status,
            failure_message=inp.failure_message,
            events=inp.events,
            log_lines=[ln for lines in inp.log_lines.values() for ln in lines],
            spec_text=inp.spec_text,
            metrics=inp.metrics,
            declared_outputs=inp.declared_outputs or _declared_outputs(inp.spec_text),
            written_outputs=inp.workflow_outputs,
        )
        failed = inp.status.failed() if inp.status is not None else None
        allowed = COMPLETED_LABELS if status == "COMPLETED" else None
        if inp.status is not None and inp.status.alive():
            allowed = RUNNING_LABELS
        d = verdict(ctx, failed=failed, allowed=allowed)
        if d.label == "unknown" and failed is False:
            d = _healthy(ctx, [], None).model_copy(update={"confidence": 0.7})
        out.append(d)

    if inp.spec_text:
        from runshepherd.diagnosis.fixes import propose_fix

        out = [
            d.model_copy(update={"fix": propose_fix(d, inp.spec_text, nodes=None)}) if d.failed() else d for d in out
        ]
    return out


def _events_for(events: list[str], task: str) -> list[str]:
    """Events of one task: OSMO lines are tagged ``[task]``; untagged (Kubernetes-style) lines apply to all."""
    tag = task_tag(task)
    return [e for e in events if tag.search(e) or not TAGGED_EVENT.match(e)]


def _logs_for(inp: DiagnosisInput, task: str) -> list[str]:
    if task in inp.log_lines:
        return inp.log_lines[task]
    if len(inp.log_lines) == 1:
        return next(iter(inp.log_lines.values()))
    tag = task_tag(task)
    return [ln for lines in inp.log_lines.values() for ln in lines if tag.search(ln)]


def _declared_outputs(spec_text: str | None) -> list[str]:
    """The output URLs the spec's tasks declare (never an input's URL), read as the backends read them."""
    if not spec_text:
        return []
    from runshepherd.spec.outputs import declared_outputs

    return [url for urls in declared_outputs(spec_text).values() for url in urls]
