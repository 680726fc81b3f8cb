"""The person's word is final: a cancel from another terminal ends the driving session CANCELED, never retried."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli_helpers import json_lines, run, slow_spec, spawn, until_running

SLOW = slow_spec(30)


def test_cancel_from_another_terminal_ends_the_session_canceled_with_one_submission(tmp_path: Path) -> None:
    spec = tmp_path / "slow.yaml"
    spec.write_text(SLOW)
    proc = spawn(tmp_path, "run", "--spec", str(spec), "--yes", "--json", "--session", "cx")
    seen = until_running(proc)
    canceled = run(tmp_path, "cancel", "slow-1", "--yes")
    assert canceled.returncode == 0, canceled.stderr
    rest, err = proc.communicate(timeout=120)
    events = json_lines("".join(seen) + rest)
    done = events[-1]
    assert done["event"] == "done" and done["outcome"] == "CANCELED", (done, err)
    assert done["workflow_ids"] == ["slow-1"]
    # who canceled it, how and when: the session was marked canceled before its workflow was (one cancel path for
    # every door; was "slow-1 was canceled outside this session")
    assert done["reason"].startswith("slow-1 canceled: session cx was canceled by you (orchestrate cancel, 20")
    assert len([e for e in events if e["event"] == "submitted"]) == 1
    texts = " ".join(str(e.get("text", "")) for e in events)
    assert "infrastructure failure" not in texts and "preempted" not in texts
    assert not any(e["event"] == "diagnosis" and e.get("origin") == "infra" for e in events)
    assert proc.returncode == 1
    audit = [json.loads(line) for line in (tmp_path / "state" / "audit.jsonl").read_text().splitlines()]
    assert [(e["what"], e["approved_by"], e["workflow"]) for e in audit][:3] == [
        ("submit", "--yes", "slow-1"),
        ("cancel session", "--yes", "slow-1"),
        ("cancel", "--yes", "slow-1"),
    ] or [(e["what"], e["approved_by"]) for e in audit][1:] == [  # the session may cancel its own workflow first
        ("cancel session", "--yes"),
        ("cancel", "person (their cancel)"),
        ("cancel", "--yes"),
    ], audit
    assert {e["session"] for e in audit} == {"cx"}
    listed = run(tmp_path, "list", "--json")
    assert '"slow-2"' not in listed.stdout
    # its status says who canceled it and how to run it again, never "wait" or a diagnosis of a failure
    status = json.loads(run(tmp_path, "status", "slow-1", "--json").stdout)
    assert status["status"] == "FAILED_CANCELED"
    step = status["next_step"]
    assert step.startswith("Canceled by you (orchestrate cancel,") and "cannot be resumed" in step, step
    assert "orchestrate run --spec SPEC" in step
    assert "wait" not in step.lower() and "orchestrate diagnose" not in step
    # and `diagnose` (the CLI, the chat's "why did it fail") says so first: it was "unknown — the run failed, but
    # nothing in the status, events or logs says why", or a GPU wait in the present tense
    said = run(tmp_path, "diagnose", "slow-1").stdout
    assert said.startswith("slow-1 (task ") and ": canceled — Canceled by you (orchestrate cancel," in said, said
    assert "says why" not in said


def test_a_run_canceled_outside_runshepherd_is_not_claimed_as_the_persons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from runshepherd.backends.local import LocalBackend
    from runshepherd.config import load_settings
    from runshepherd.reports.build import report_for
    from runshepherd.spec import load_spec_text

    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no user config file is read
    state = tmp_path / "state"
    backend = LocalBackend(state)
    wid = backend.submit(load_spec_text(SLOW)).workflow_id
    backend.cancel(wid)  # as scancel or another tool would: no orchestrate command, nothing in the audit log
    report = report_for(backend, wid, runs_dir=state / "runs", settings=load_settings(None))
    assert report.status == "FAILED_CANCELED"
    assert report.next_step is not None and report.next_step.startswith("Canceled outside RunShepherd")
    assert "Canceled by you" not in report.next_step and "wait" not in report.next_step.lower()
    assert "Canceled outside RunShepherd" in (state / "runs" / f"{wid}-status.md").read_text()


def _diverging(tmp_path: Path) -> str:
    """examples/sweep-lr.yaml at lr 1.0: it fails with nan_loss in seconds and the fix question (lr ×0.1) waits."""
    from cli_helpers import EXAMPLES

    spec = tmp_path / "diverge.yaml"
    spec.write_text((EXAMPLES / "sweep-lr.yaml").read_text().replace('"{{ lr }}"', '"1.0"'))
    return str(spec)


def _waiting_at_the_fix_question(tmp_path: Path, session: str) -> tuple[subprocess.Popen[bytes], int, str]:
    """A foreground run on a pseudo-terminal, submitted, failed (nan_loss) and waiting at its fix question."""
    import os

    from cli_helpers import on_a_terminal, read_until

    proc, master = on_a_terminal(
        tmp_path, "run", "--spec", _diverging(tmp_path), "--cadence", "0.5", "--session", session
    )
    shown = read_until(master, "[YES/no]", 60)
    os.write(master, b"yes\r")
    shown += read_until(master, "[YES/no]", 130, after="? resubmit:")
    if "Resubmit with this fix" not in shown:
        proc.kill()
        os.close(master)
        raise AssertionError(shown[-2000:])
    return proc, master, shown


def _ends_withdrawn(
    tmp_path: Path, proc: subprocess.Popen[bytes], master: int, shown: str, session: str, via: str
) -> None:
    """The waiting prompt ends by itself (nobody presses a key) with the cancel message, exit 1, nothing resubmitted,
    and `sessions` reads the session canceled."""
    import os
    import re

    from cli_helpers import read_until

    try:
        shown += read_until(master, "done · CANCELED", 30)
        assert proc.wait(timeout=30) == 1, shown[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    after = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown).split("? resubmit:", 1)[1]
    assert f"Session {session} was canceled by you ({via}, " in after, after[-2000:]
    assert "from elsewhere while this question waited: the question is withdrawn" in after
    assert f"session {session} done · CANCELED (session {session} was canceled by you ({via}" in after
    assert "(attempt 2)" not in after and len(list((tmp_path / "state" / "workflows").iterdir())) == 1
    listed = {s["session"]: s for s in json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]}
    assert listed[session]["state"] == "CANCELED" and listed[session]["question"] is None, listed[session]
    audit = [json.loads(line) for line in (tmp_path / "state" / "audit.jsonl").read_text().splitlines()]
    assert {"what": "cancel session", "session": session, "via": via}.items() <= audit[-1].items(), audit[-1]


def test_a_cancel_from_another_terminal_withdraws_the_fix_question_a_run_waits_on(tmp_path: Path) -> None:
    """On a real pseudo-terminal a run waits at its fix question; `orchestrate cancel SESSION` from a second
    terminal ends the prompt at once (no Enter): it says the session was canceled from elsewhere, the session ends
    CANCELED (exit 1) and the fix is never applied. Before: `cancel` said the workflow "already ended (FAILED);
    nothing to cancel" and the prompt kept waiting."""
    proc, master, shown = _waiting_at_the_fix_question(tmp_path, "q1")
    res = run(tmp_path, "cancel", "q1", "--yes", "--json")
    said = json.loads(res.stdout)
    assert res.returncode == 0 and said["canceled"] is True and said["withdrawn_question"] == "resubmit", said
    _ends_withdrawn(tmp_path, proc, master, shown, "q1", "orchestrate cancel")
    again = run(tmp_path, "resume", "q1", "--yes", "--json")  # final: a resume submits nothing either
    assert json_lines(again.stdout)[-1]["outcome"] == "CANCELED" and '"submitted"' not in again.stdout
    audit = [json.loads(line) for line in (tmp_path / "state" / "audit.jsonl").read_text().splitlines()]
    assert [(e["what"], e["approved_by"]) for e in audit][-1] == ("cancel session", "--yes")


def test_a_paused_run_canceled_then_resumed_submits_nothing(tmp_path: Path) -> None:
    """A run paused at its submit question (--no-input, exit 3), canceled while no process drives it: the cancel is
    final — `resume --yes` answers nothing and submits nothing, and the session ends CANCELED."""
    code = run(tmp_path, "run", "--spec", _diverging(tmp_path), "--no-input", "--session", "q3", "--json")
    assert code.returncode == 3  # the submit question; nothing submitted yet
    res = json.loads(run(tmp_path, "cancel", "q3", "--yes", "--json").stdout)
    assert res["canceled"] is True and res["withdrawn_question"] == "submit" and res["workflow_id"] is None
    again = json.loads(run(tmp_path, "cancel", "q3", "--yes", "--json").stdout)
    assert again["canceled"] is False and "already canceled" in again["message"]
    listed = {s["session"]: s for s in json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]}
    assert listed["q3"]["state"] == "canceled" and listed["q3"]["question"] is None  # no longer "waiting"
    resumed = run(tmp_path, "resume", "q3", "--yes", "--json")
    events = json_lines(resumed.stdout)
    assert resumed.returncode == 1 and events[-1]["outcome"] == "CANCELED", resumed.stdout[-2000:]
    assert not [e for e in events if e["event"] == "submitted"]
    assert "not submitted: session q3 was canceled by you (orchestrate cancel" in resumed.stdout


def test_an_answer_to_a_session_canceled_at_its_question_is_refused_saying_so(tmp_path: Path) -> None:
    """`resume S --answer yes` after the person canceled S at its submit question: it says who canceled it and when,
    that the answer was not applied, and exits 2 as an answer to an ended session does (README). Before: the
    session just ended CANCELED with exit 1, as if the run had failed, and the answer was never mentioned."""
    assert run(tmp_path, "run", "--spec", _diverging(tmp_path), "--no-input", "--session", "q4").returncode == 3
    assert run(tmp_path, "cancel", "q4", "--yes").returncode == 0
    resumed = run(tmp_path, "resume", "q4", "--answer", "yes", "--json")
    assert resumed.returncode == 2, resumed.stdout[-2000:] + resumed.stderr
    said = " ".join(resumed.stderr.split())
    assert "error: session q4 was canceled by you (orchestrate cancel, 20" in said, said
    assert "while it waited at its question (submit:" in said and "--answer yes was not applied" in said
    events = json_lines(resumed.stdout)
    assert events[-1]["event"] == "done" and events[-1]["outcome"] == "CANCELED"
    assert not [e for e in events if e["event"] == "submitted"] and "Traceback" not in resumed.stderr
    listed = {s["session"]: s for s in json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]}
    assert listed["q4"]["state"] == "CANCELED"


def test_cancel_by_workflow_id_withdraws_the_question_its_run_waits_on(tmp_path: Path) -> None:
    """`orchestrate cancel WF` names the workflow of a run paused at its fix question: the same final cancel as
    `cancel SESSION`. Before: "sweep-lr-1 already ended (FAILED); nothing to cancel" and the prompt kept waiting."""
    proc, master, shown = _waiting_at_the_fix_question(tmp_path, "w1")
    res = run(tmp_path, "cancel", "sweep-lr-1", "--yes", "--json")
    said = json.loads(res.stdout)
    assert res.returncode == 0 and said["canceled"] is True, said
    assert said["session"] == "w1" and said["withdrawn_question"] == "resubmit", said
    _ends_withdrawn(tmp_path, proc, master, shown, "w1", "orchestrate cancel")


def test_a_cancel_from_the_chat_withdraws_the_question_a_terminal_waits_on(tmp_path: Path) -> None:
    """The chat cancels the workflow of a run waiting at its fix question in a terminal: the chat confirms, the
    terminal's prompt ends canceled. Before: the chat said the workflow already ended and the prompt stayed."""
    from cli_helpers import chat

    proc, master, shown = _waiting_at_the_fix_question(tmp_path, "w2")
    said = chat(tmp_path, "c1", ["cancel sweep-lr-1", "yes"]).stdout
    assert "Cancel session w2 (waiting for your answer: Resubmit with this fix" in said, said
    assert "session w2 canceled: its question (resubmit) is withdrawn" in said, said
    _ends_withdrawn(tmp_path, proc, master, shown, "w2", "chat")


def test_a_chat_cancels_its_own_run_waiting_at_the_submit_question(tmp_path: Path) -> None:
    """'cancel it' while the chat's own run asks to submit: the question is withdrawn and the session ends CANCELED
    with nothing submitted. Before: "there is no run to cancel" and the question stayed open."""
    from cli_helpers import chat

    res = chat(tmp_path, "c2", ["train a small classifier for 1 epoch", "cancel it", "yes", "quit"])
    out = res.stdout
    assert "? submit:" in out and "there is no run to cancel" not in out, out
    assert "its question (submit) is withdrawn" in out and "done · CANCELED" in out, out
    assert res.returncode == 0 and "waiting for your answer" not in out.split("its question (submit)")[1], out
    assert not (tmp_path / "state" / "workflows").exists() or not list((tmp_path / "state" / "workflows").iterdir())
    (listed,) = json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]
    assert listed["state"] == "CANCELED", listed


# a whole run of the example job to its follow-up question, then six more commands: ~40 s on a quiet 2-core machine,
# past the suite's 120 s on a loaded one (the stop-31 CI beside other work); a hang still ends at 300 s
@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("answers", "kind", "target"), [(["yes"], "download", "sweep-lr-1"), (["yes", "no"], "save_app", "f1")]
)
def test_cancel_at_a_follow_up_question_withdraws_it_and_the_session_reads_canceled(
    tmp_path: Path, answers: list[str], kind: str, target: str
) -> None:
    """A completed run paused at its download (or save-as-app) question: `orchestrate cancel SESSION` — and
    `cancel WF` of its ended workflow — said "sweep-lr-1 already ended (COMPLETED); nothing to cancel", the
    question stayed open and a later `resume --yes` downloaded. Now either id is the person's cancel of the session
    (the same cancel mark as the submit/fix questions): withdrawn, said so, nothing downloaded or saved."""
    from cli_helpers import quick_example

    spec = str(quick_example(tmp_path, "sweep-lr.yaml"))
    assert run(tmp_path, "run", "--spec", spec, "--no-input", "--session", "f1", "--json").returncode == 3
    for answer in answers:  # submit (then download → no), leaving the follow-up question ``kind`` waiting
        assert run(tmp_path, "resume", "f1", "--answer", answer, "--no-input", "--json").returncode == 3
    res = run(tmp_path, "cancel", target, "--yes", "--json")
    said = json.loads(res.stdout)
    assert res.returncode == 0 and said["canceled"] is True and said["withdrawn_question"] == kind, said
    assert said["session"] == "f1" and "nothing is downloaded or saved" in said["message"]
    assert "its workflow sweep-lr-1 had already ended" in said["message"]
    listed = {s["session"]: s for s in json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]}
    assert listed["f1"]["state"] == "canceled" and listed["f1"]["question"] is None, listed["f1"]
    resumed = run(tmp_path, "resume", "f1", "--yes", "--json")
    events = json_lines(resumed.stdout)
    assert resumed.returncode == 1 and events[-1]["outcome"] == "CANCELED", resumed.stdout[-2000:]
    assert not [e for e in events if e["event"] in ("downloaded", "app")]
    assert "not downloaded or saved: session f1 was canceled by you (orchestrate cancel" in resumed.stdout
    assert not list((tmp_path / "home").glob("sweep-lr-1*")) and not (tmp_path / "state" / "apps").exists()
    audit = [json.loads(line) for line in (tmp_path / "state" / "audit.jsonl").read_text().splitlines()]
    assert [e["what"] for e in audit][-1] == "cancel session" and audit[-1]["question"] == kind
    assert "nothing to cancel" in run(tmp_path, "cancel", "sweep-lr-1", "--yes").stdout  # the workflow had ended
