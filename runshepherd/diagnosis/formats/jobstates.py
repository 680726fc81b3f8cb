"""Slurm's job states that say which family ended a job, and where Slurm prints them: ``scontrol show job``'s
``JobState=``, the State column of ``sacct`` (its 10-character column cuts a longer name with a ``+``; ``--parsable``
separates columns with ``|``) and the ST (compact code) or STATE column of ``squeue``.

One row per state: its compact code and name as squeue(1) and sacct(1) list them (JOB STATE CODES), the family, how
strongly the state alone says so, and the documented meaning. States that say nothing about the cause (FAILED,
CANCELLED: the owner's own cancel too, COMPLETED, RUNNING, PENDING: its reason column says why) have no row; the
word-pattern rules of each family still read the full names wherever they appear. A column is read by its header
(the rule line of dashes under it, or its position among the header's words), so a ``PR`` or ``TO`` anywhere else
in a log is never a state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from runshepherd.diagnosis.prefilter import Gate, Gated

_SQUEUE = "https://slurm.schedmd.com/squeue.html#SECTION_JOB-STATE-CODES"
_SACCT = "https://slurm.schedmd.com/sacct.html#SECTION_JOB-STATE-CODES"


@dataclass(frozen=True)
class JobState:
    code: str  # squeue's compact code
    name: str  # the full name (scontrol, sacct, squeue -l)
    label: str
    strength: float
    meaning: str  # as the documentation words it
    source: str


JOB_STATES: tuple[JobState, ...] = (
    JobState("PR", "PREEMPTED", "preempted", 0.9, "Job terminated due to preemption.", _SQUEUE),
    JobState(
        "NF", "NODE_FAIL", "preempted", 0.9, "Job terminated due to failure of one or more allocated nodes.", _SQUEUE
    ),
    JobState(
        "BF",
        "BOOT_FAIL",
        "preempted",
        0.9,
        "Job terminated due to launch failure, typically due to a hardware "
        "failure (e.g. unable to boot the node or block and the job can not be requeued).",
        _SQUEUE,
    ),
    # a requeue stops the running job and puts it back in the queue: a preemption in REQUEUE mode, a failed node, an
    # administrator (or the owner's own scontrol requeue: weaker than a preemption)
    JobState("RQ", "REQUEUED", "preempted", 0.76, "Completing job is being requeued.", _SQUEUE),
    JobState("TO", "TIMEOUT", "timeout", 0.9, "Job terminated upon reaching its time limit.", _SQUEUE),
    JobState("DL", "DEADLINE", "timeout", 0.9, "Job terminated on deadline.", _SQUEUE),
    JobState("OOM", "OUT_OF_MEMORY", "host_oom", 0.9, "Job experienced out of memory error.", _SQUEUE),
)

_BY_CODE = {s.code: s for s in JOB_STATES}
_BY_NAME = {s.name: s for s in JOB_STATES}
_SCONTROL = Gated.of(re.compile(r"\bJobState=([A-Z_]+)\b"))
# a table header naming the job and its state column (squeue: JOBID … ST/STATE; sacct: JobID … State); its gate is
# written out (the literal is inside a lookahead, where gate_for does not look): no line without "jobid" is a header
_HEADER = Gated(
    re.compile(r"^\s*(?=.*\bJOBID\b)(?=.*(?:^|\s|\|)(?:ST|STATE)(?:\s|\||$))", re.IGNORECASE),
    Gate((("jobid",),), icase=True),
)
# a rule under a table's header: only dashes and spaces, with a run of three dashes somewhere (the runs are
# possessive: "[\s-]*-{3,}[\s-]*" retried every split of a long run of dashes, 45 s for 1,600 of them and an "x")
_RULE = re.compile(r"^(?=[^\n]*---)[\s-]*+$")
MAX_ROWS = 200


def state_named(value: str, *, compact: bool) -> JobState | None:
    """The row for a state as a column prints it: a compact code (squeue's ST), or a full name that a narrow column
    may have cut with a ``+`` (sacct's ``OUT_OF_ME+``; ``CANCELLED+`` is "CANCELLED by <uid>", no row)."""
    v = value.strip()
    if compact and v in _BY_CODE:
        return _BY_CODE[v]
    if v.endswith("+"):
        stem = v[:-1]
        hits = [s for s in JOB_STATES if s.name.startswith(stem)] if len(stem) >= 4 else []
        return hits[0] if len(hits) == 1 and hits[0].name != stem else None
    return _BY_NAME.get(v)


def states_in(texts: list[str], folded: list[str] | None = None) -> list[tuple[int, JobState]]:
    """(line index, state) for every state Slurm prints in ``texts``: scontrol's ``JobState=`` and the state column
    of squeue and sacct tables (plain or ``|``-separated), read under their header. ``folded`` is
    :func:`~runshepherd.diagnosis.prefilter.fold` of each text when known."""
    found: list[tuple[int, JobState]] = []
    header: tuple[int, str] | None = None
    for i, text in enumerate(texts):
        m = _SCONTROL.search(text)
        if m and m.group(1) in _BY_NAME:
            found.append((i, _BY_NAME[m.group(1)]))
        if _HEADER.admits(text, folded[i] if folded is not None else None) and _HEADER.regex.match(text):
            header = (i, text)
            continue
        if header is None:
            continue
        if not text.strip() or i - header[0] > MAX_ROWS:
            header = None
            continue
        st = _column_value(header[1], texts[header[0] + 1] if header[0] + 1 < len(texts) else "", text)
        if st is not None:
            found.append((i, st))
    return found


def _column_value(head: str, under: str, row: str) -> JobState | None:
    if _RULE.match(row):
        return None
    if "|" in head:  # sacct --parsable
        names = [h.strip().upper() for h in head.split("|")]
        cells = row.split("|")
        col = next((k for k, n in enumerate(names) if n in ("STATE", "ST")), None)
        if col is None or col >= len(cells):
            return None
        return state_named(cells[col], compact=names[col] == "ST")
    words = list(re.finditer(r"\S+", head))
    col = next((k for k, w in enumerate(words) if w.group(0).upper() in ("ST", "STATE")), None)
    if col is None:
        return None
    compact = words[col].group(0).upper() == "ST"
    if _RULE.match(under):  # sacct: each column's width is its run of dashes
        spans = [d.span() for d in re.finditer(r"-+", under)]
        if col >= len(spans):
            return None
        a, b = spans[col]
        return state_named(row[a : b + 1], compact=compact)
    cells = row.split()
    if len(cells) < len(words) - 1 or col >= len(cells):
        return None
    return state_named(cells[col], compact=compact)
