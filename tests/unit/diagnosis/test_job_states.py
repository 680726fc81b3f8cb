"""Slurm's job states (runshepherd/diagnosis/formats/jobstates.py) as squeue, sacct and scontrol print them
(https://slurm.schedmd.com/squeue.html#SECTION_JOB-STATE-CODES, https://slurm.schedmd.com/sacct.html,
https://slurm.schedmd.com/scontrol.html): each state with a row names its family wherever Slurm prints it, and a
state code is read only in its column."""

from __future__ import annotations

import re

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.formats.jobstates import JOB_STATES, JobState, states_in

_SQUEUE = "JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n 4242       gpu    train    alice {code:<3}      2:00      1 node01"
_SQUEUE_LONG = (
    "             JOBID PARTITION     NAME     USER    STATE       TIME TIME_LIMI  NODES NODELIST(REASON)\n"
    "              4242       gpu    train    alice {name:>8}       0:00   1:00:00      1 node01"
)
_SACCT = (
    "       JobID    JobName  Partition    Account  AllocCPUS      State ExitCode \n"
    "------------ ---------- ---------- ---------- ---------- ---------- -------- \n"
    "4242              train        gpu       acct          8 {name:>10}      0:0 \n"
    "4242.batch        batch                  acct          8 {name:>10}      0:0 "
)
_PARSABLE = "JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode|\n4242|train|gpu|acct|8|{name}|0:0|"
_SCONTROL = "JobId=4242 JobName=train\n   JobState={name} Reason=None Dependency=(null)"


def _sacct_name(name: str) -> str:
    return name if len(name) <= 10 else name[:9] + "+"  # sacct cuts a longer name in its 10-character column


@pytest.mark.parametrize("st", JOB_STATES, ids=[s.name for s in JOB_STATES])
def test_every_state_names_its_family_in_each_layout_slurm_prints(st: JobState) -> None:
    assert re.match(r"https://slurm\.schedmd\.com/\S+$", st.source)
    logs = [
        _SQUEUE.format(code=st.code),
        _SQUEUE_LONG.format(name=st.name[:8]),
        _SACCT.format(name=_sacct_name(st.name)),
        _PARSABLE.format(name=st.name),
        _SCONTROL.format(name=st.name),
    ]
    for log in logs:
        if st.name[:8] != st.name and "STATE " in log:
            continue  # squeue -l cuts names too; a cut name is read only when it stays unambiguous
        d = diagnose_log_text(log)
        assert d.label == st.label, (log, d.label, d.explanation)


def test_a_state_code_outside_its_column_is_not_a_state() -> None:
    # the same row without squeue's header, and a PR/TO that is a word of a message
    assert states_in([" 4242       gpu    train    alice PR       2:00      1 node01"]) == []
    assert states_in(["JOBID NAME ST", "TO be continued", "", "4242 train R"]) == []
    # a running job, a cancelled one (the owner's own cancel says nothing of the cause): no state with a row
    assert states_in(_SQUEUE.format(code="R").splitlines()) == []
    assert states_in(_SACCT.format(name="CANCELLED+").splitlines()) == []


def test_a_requeued_job_waiting_out_its_begin_time_is_not_unschedulable() -> None:
    # Slurm gives a requeued job a BeginTime before it may start again: the job was taken off its node, it is not
    # waiting for resources it can never get
    log = "JobId=4242 JobName=train\n   JobState=REQUEUED Reason=BeginTime Dependency=(null)\n   Requeue=1 Restarts=3"
    assert diagnose_log_text(log).label == "preempted"


def test_scontrols_pending_reason_is_read_before_its_other_bracketed_fields() -> None:
    # scontrol show job prints "Dependency=(null)" after the reason: that is not squeue's (REASON) column
    d = diagnose_log_text("JobId=4242 JobName=train\n   JobState=PENDING Reason=Resources Dependency=(null)")
    assert d.label == "unschedulable"
    assert "no free machines" in d.explanation
