"""Issue 16: a sweep is one session of many workflows — asked once, each point fixed on its own, one comparison."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from cli_helpers import EXAMPLES, json_lines, quick_example, run

from runshepherd.events import EVENTS


def test_lr_sweep_fixes_the_diverging_point_and_compares_both(tmp_path: Path) -> None:
    spec = str(quick_example(tmp_path, "sweep-lr.yaml"))  # the ends, fix and comparison are asserted: no step sleep
    res = run(tmp_path, "run", "--spec", spec, "--sweep", "lr=0.05,1.0", "--yes", "--json", "--cadence", "0.5")
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr
    events = json_lines(res.stdout)
    assert all(EVENTS.validate_python(e) for e in events)  # the published event contract, results included
    done = events[-1]
    assert done["event"] == "done" and done["outcome"] == "COMPLETED"
    by_value = {r["values"]["lr"]: r for r in done["results"]}
    assert set(by_value) == {0.05, 1.0} and all(r["status"] == "COMPLETED" for r in by_value.values())
    # lr 1.0 diverged (nan_loss), was fixed (lr x0.1) and resubmitted as a second workflow of its own point
    diverged = by_value[1.0]
    assert diverged["attempts"] == 2 and len(diverged["workflow_ids"]) == 2 and "0.1" in diverged["fixes"][0]
    assert by_value[0.05]["attempts"] == 1 and not by_value[0.05]["fixes"]
    assert any(e["event"] == "diagnosis" and e["label"] == "nan_loss" for e in events)
    submitted = {e["workflow_id"] for e in events if e["event"] == "submitted"}
    assert len(submitted) == 3 and set(done["workflow_ids"]) == submitted  # every workflow id listed
    assert done["fix_attempts"] == 1
    # the metrics come from each point's final log; the best point is named by one of them
    assert all(r["metrics"]["eval_accuracy"]["last"] is not None for r in done["results"])
    assert done["best"]["metric"] == "eval_accuracy" and done["best"]["index"] in (1, 2)
    # asked once: one submit answer for the sweep (none per point), at most one app question, one download question
    asked = [e for e in events if e["event"] in ("answered", "question") and e["session"] == done["session"]]
    assert [e["kind"] for e in asked if e["kind"] == "submit"] == ["submit"]
    points = [
        e for e in events if e["event"] == "answered" and e["kind"] == "submit" and e["session"] != done["session"]
    ]
    assert {e["session"] for e in points} == {r["session"] for r in done["results"]}  # pre-answered by the sweep's
    assert len([e for e in asked if e["kind"] == "save_app"]) <= 1
    # the plan: every point, what they ask for together, and whether they fit the pool now (from the backend)
    plan = next(e for e in events if e["event"] == "planned" and e["session"] == done["session"])
    assert (
        "each asks for 1 CPU, 0.5 GiB memory, 0 GPUs (all 2 together: 2 CPUs, 1 GiB memory, 0 GPUs)" in plan["message"]
    )
    fit = [e["text"] for e in events if e["event"] == "message" and "fits the pool now" in e["text"]]
    # every task log the points read went through readers shared by the sweep: one per five tasks at most
    shared = [e["text"] for e in events if e["event"] == "message" and e["text"].startswith("log readers: ")]
    read = sum(e["tasks"] for e in events if e["event"] == "logs_readers")
    m = re.match(
        r"log readers: (\d+) task logs? read by readers shared across the points, at most (\d+) readers? ", shared[0]
    )
    assert len(shared) == 1 and m and int(m[1]) == read >= 1 and 1 <= int(m[2]) <= math.ceil(read / 5)
    assert len(fit) == 1 and re.match(
        r"all 2 run at once; fits the pool now: (yes|partly|no) — .*pool local \(", fit[0]
    )
    assert len([e for e in asked if e["kind"] == "download"]) == 1
    # one folder per point, and the comparison in the artifact
    assert {Path(e["dest"]).name for e in events if e["event"] == "downloaded"} == {"p1", "p2"}
    table = Path(done["status_artifact"]).read_text()
    assert "| 2 | lr=1.0 (fixed†) |" in table and "Best point: #" in table
    # the fix ran: told as done, not as the proposal it was before the person (or --yes) accepted it
    assert diverged["fixes"][0].startswith("Lowered the learning rate ×0.1 (--lr 1.0 → 0.1)"), diverged["fixes"]
    assert "† #2 ran with a fix: «Lowered the learning rate" in table and "Would" not in table
    assert json.dumps(done["results"])  # JSON-able as published


def test_a_key_the_spec_does_not_template_is_refused_before_anything_runs(tmp_path: Path) -> None:
    spec = str(EXAMPLES / "sweep-lr.yaml")
    res = run(tmp_path, "run", "--spec", spec, "--sweep", "momentum=0.9,0.99", "--yes", "--json")
    assert res.returncode == 2 and "momentum" in res.stderr and "lr, epochs, seed" in res.stderr
    assert not (tmp_path / "state" / "workflows").exists()


def test_a_killed_sweep_resumes_without_submitting_a_point_twice(tmp_path: Path) -> None:
    import os
    import signal
    import time

    from cli_helpers import spawn

    spec = str(EXAMPLES / "sweep-lr.yaml")
    args = ("run", "--spec", spec, "--sweep", "lr=0.05,1.0", "--yes", "--json", "--cadence", "0.5", "--session", "sw1")
    proc = spawn(tmp_path, *args)
    assert proc.stdout is not None
    seen = 0
    deadline = time.time() + 60
    for line in proc.stdout:  # both points submitted, then the driver is killed without warning
        seen += '"submitted"' in line
        if seen == 2 or time.time() > deadline:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    res = run(tmp_path, "resume", "sw1", "--yes", "--json")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr
    events = json_lines(res.stdout)
    done = events[-1]
    assert done["outcome"] == "COMPLETED" and len(done["results"]) == 2
    fresh = [e for e in events if e["event"] == "submitted" and not e["reused"]]
    assert all(e["reason"] != "initial" for e in fresh)  # the two first submissions were found, not repeated
    assert len(set(done["workflow_ids"])) == 3 and len(list((tmp_path / "state" / "workflows").iterdir())) == 3


def test_a_detached_sweep_returns_at_once_and_attach_follows_every_point(tmp_path: Path) -> None:
    """`run --sweep … --detach`: the id and how to follow it at once; the points run to the end in a background
    process of their own; `attach SWEEP` replays every point ([pN]) and the comparison; `status SWEEP` answers."""
    from runshepherd.sweep.status import read_record

    spec = str(quick_example(tmp_path, "sweep-lr.yaml"))  # the points' ends are followed: no per-step sleep
    args = ("run", "--spec", spec, "--sweep", "lr=0.05,1.0", "--yes", "--detach", "--cadence", "0.5")
    res = run(tmp_path, *args, "--session", "swd")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "orchestrate attach swd" in res.stdout and "orchestrate status swd" in res.stdout
    record = read_record(tmp_path / "state", "swd")
    assert record is not None and record["approved"] and "results" not in record  # returned before the end

    follow = run(tmp_path, "attach", "swd", timeout=240)
    assert follow.returncode == 0, follow.stdout[-3000:] + follow.stderr
    out = follow.stdout
    assert "[p1] ● submitted" in out and "[p2] ● submitted" in out  # every point, each named
    assert "[p2] ● diagnosis nan_loss" in out and "Best point: #" in out and "session swd done · COMPLETED" in out
    assert out.count("Submit 2 workflows") <= 1  # the plan was asked (answered) once, in the first terminal

    status = run(tmp_path, "status", "swd", "--json")
    assert status.returncode == 0, status.stderr
    points = json.loads(status.stdout)["points"]
    assert [p["status"] for p in points] == ["COMPLETED", "COMPLETED"] and points[1]["attempt"] == 2
    human = run(tmp_path, "status", "swd").stdout
    assert "2 point(s) — 2 COMPLETED" in human and "best: #" in human


def test_a_detached_sweep_without_yes_or_a_terminal_starts_nothing_and_waits_at_its_plan(tmp_path: Path) -> None:
    spec = str(EXAMPLES / "sweep-lr.yaml")
    res = run(tmp_path, "run", "--spec", spec, "--repeat", "2", "--detach", "--session", "swn")
    assert res.returncode == 3 and "orchestrate resume swn --answer yes" in res.stdout, res.stdout + res.stderr
    assert not (tmp_path / "state" / "detached").exists() and not (tmp_path / "state" / "workflows").exists()


def test_a_sweep_with_no_input_waits_at_a_question_that_resume_answer_really_answers(tmp_path: Path) -> None:
    """`run --sweep --no-input` without --yes exited 3 saying "run it on a terminal or pass --yes", and
    `resume SWEEP` then said "no session". Now the plan waits in the sweep's record: the exact `resume … --answer
    yes` line, `sessions` lists the sweep, a point's fix question pauses the same way, and each line works."""
    spec = str(quick_example(tmp_path, "sweep-lr.yaml"))
    first = run(
        tmp_path, "run", "--spec", spec, "--sweep", "lr=0.05,1.0", "--no-input", "--session", "swi", "--cadence", "0.5"
    )
    assert first.returncode == 3, first.stdout + first.stderr
    assert "? submit: Submit 2 workflows (lr=0.05, lr=1.0)?" in first.stdout
    assert "orchestrate resume swi --answer yes" in first.stdout
    assert not (tmp_path / "state" / "workflows").exists()  # nothing submitted before the answer
    listed = run(tmp_path, "sessions", "--json")
    assert [r["state"] for r in json.loads(listed.stdout)["sessions"] if r["session"] == "swi"] == ["waiting"]
    second = run(tmp_path, "resume", "swi", "--answer", "yes", "--no-input", timeout=240)
    assert second.returncode == 3, second.stdout[-3000:] + second.stderr
    # the question the point waits on (the whole output on failure: a point's error line sits in its middle)
    assert "? #2 lr=1.0 resubmit: Resubmit with this fix" in second.stdout, second.stdout
    assert (
        "waiting for your answer (yes, no" in second.stdout and "orchestrate resume swi --answer yes" in second.stdout
    )
    third = run(tmp_path, "resume", "swi", "--answer", "yes", "--no-input", "--json", timeout=240)
    done = json_lines(third.stdout)[-1]
    assert third.returncode == 0 and done["outcome"] == "COMPLETED", third.stdout[-3000:] + third.stderr
    assert [r["status"] for r in done["results"]] == ["COMPLETED", "COMPLETED"]


def test_a_value_given_twice_is_refused_naming_it_not_run_as_one_point(tmp_path: Path) -> None:
    """`--sweep lr=0.1,0.1` silently ran one point; `0.1,1e-1` too (the same number). Now exit 2, nothing runs."""
    spec = str(EXAMPLES / "sweep-lr.yaml")
    res = run(tmp_path, "run", "--spec", spec, "--sweep", "lr=0.1,0.1", "--yes", "--json")
    assert res.returncode == 2, res.stdout + res.stderr
    assert "--sweep lr: '0.1' is given twice" in res.stderr and "list each value once (--sweep lr=0.1)" in res.stderr
    assert "--repeat N" in res.stderr
    res = run(tmp_path, "run", "--spec", spec, "--sweep", "lr=0.1,1e-1,0.2", "--yes", "--json")
    assert res.returncode == 2 and "'1e-1' (the same value as '0.1') is given twice" in res.stderr
    assert "(--sweep lr=0.1,0.2)" in res.stderr
    assert not (tmp_path / "state" / "workflows").exists()


def test_an_overflowing_number_is_quoted_as_typed_not_as_inf(tmp_path: Path) -> None:
    """`--sweep lr=1e999` / `--set lr=1e999` said "got 'inf'", a word the person never typed."""
    spec = str(EXAMPLES / "sweep-lr.yaml")
    for args in (["--sweep", "lr=0.1,1e999"], ["--set", "lr=1e999", "--sweep", "epochs=1,2"]):
        res = run(tmp_path, "run", "--spec", spec, *args, "--yes", "--json")
        flag = args[0]
        assert res.returncode == 2, res.stdout + res.stderr
        assert f"{flag} lr expects a finite number like 0.05" in res.stderr and "got '1e999'" in res.stderr
        assert "inf" not in res.stderr.replace("finite", "")
    assert not (tmp_path / "state" / "workflows").exists()


def test_a_sweep_started_in_the_chat_is_asked_answered_and_compared_there(tmp_path: Path) -> None:
    """`orchestrate chat` (built-in router and expert): a sweep said in a sentence asks the same plan question as
    the CLI, the fix question once, reports every point's progress and ends with the comparison."""
    import shutil

    from cli_helpers import chat, quick_example

    shutil.copy(quick_example(tmp_path, "sweep-lr.yaml"), tmp_path / "sweep-lr.yaml")  # no per-step sleep
    script = ["sweep lr over 0.05, 1.0 with sweep-lr.yaml", "yes", "yes", "no", "no", "how is the sweep doing?"]
    res = chat(tmp_path, "c1", script, timeout=240)
    out = res.stdout
    assert res.returncode == 0, out[-3000:] + res.stderr
    sid = out.split("starting sweep ", 1)[1].split(":", 1)[0]
    # the plan: every point and the resources of all of them together, asked once in the conversation
    assert "sweep of 2 point(s) from sweep-lr.yaml" in out and "(all 2 together: 2 CPUs, 1 GiB memory, 0 GPUs)" in out
    assert "fits the pool now:" in out  # the same plan as the CLI's, whether the points fit included
    assert out.count("? submit: Submit 2 workflows (lr=0.05, lr=1.0)? [YES/no]") == 1
    # each point its own session and workflow; the diverging one diagnosed, its fix asked once and applied
    assert "[p1] ● submitted" in out and "[p2] ● diagnosis nan_loss" in out
    assert out.count("? resubmit: [point #2 lr=1.0]") == 1 and "[p2] ● submitted" in out and "(attempt 2)" in out
    # one comparison, follow-ups once, then the chat's own answer about the sweep
    assert "| 2 | lr=1.0 (fixed†) |" in out and "Best point: #" in out and f"sweep {sid} done · COMPLETED" in out
    assert out.count("? download:") == 1 and out.count("? save_app:") == 1
    assert f"sweep {sid} (" in out and "2 point(s) — 2 COMPLETED" in out and "best: #" in out
    assert not (tmp_path / "home" / f"sweep-{sid}").exists()  # the person said no to the download


def test_the_chat_refuses_a_sweep_value_said_twice_and_submits_nothing(tmp_path: Path) -> None:
    import shutil

    from cli_helpers import chat, quick_example

    shutil.copy(quick_example(tmp_path, "sweep-lr.yaml"), tmp_path / "sweep-lr.yaml")
    res = chat(tmp_path, "c3", ["sweep lr over 0.1, 0.1 with sweep-lr.yaml"], timeout=60)
    assert "lr: '0.1' is given twice" in res.stdout + res.stderr and "--sweep" not in res.stdout, (
        res.stdout + res.stderr
    )
    assert not (tmp_path / "state" / "workflows").exists()


def test_the_chat_asks_which_spec_a_sweep_runs_and_submits_nothing(tmp_path: Path) -> None:
    from cli_helpers import chat

    res = chat(tmp_path, "c2", ["run this with 3 seeds"], timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "which spec should the sweep run?" in res.stdout and not (tmp_path / "state" / "workflows").exists()


def test_points_failing_the_same_way_are_asked_one_question_on_a_terminal(tmp_path: Path) -> None:
    """On a real pseudo-terminal: two of three points diverge (nan_loss); ONE question names both ('2 of 3 points
    failed with nan_loss … for all of them'), answered once, and both are resubmitted with their own fix."""
    import os
    import re

    from cli_helpers import on_a_terminal, quick_example, read_until

    # half a CPU each, so the three points run side by side on a 2-CPU machine and fail within the same poll; no
    # per-step sleep: only the question and the resubmissions matter, not catching a point while it runs
    spec = tmp_path / "sweep-lr.yaml"
    spec.write_text(quick_example(tmp_path, "sweep-lr.yaml").read_text().replace("cpu: 1", "cpu: 0.5"))
    args = ("run", "--spec", str(spec), "--sweep", "lr=0.05,1.0,2.0", "--cadence", "0.5", "--session", "tty1")
    proc, master = on_a_terminal(tmp_path, *args)
    shown = ""
    try:
        shown += read_until(master, "[YES/no]", 60)
        assert "Submit 3 workflows (lr=0.05, lr=1.0, lr=2.0)?" in shown, shown[-2000:]
        os.write(master, b"yes\r")
        shown += read_until(master, "[YES/no]", 130, after="for all of them")
        asked = re.search(r"2 of 3 points failed with nan_loss \((#\d lr=[\d.]+), (#\d lr=[\d.]+)\)", shown)
        assert asked and {asked.group(1), asked.group(2)} == {"#2 lr=1.0", "#3 lr=2.0"}, shown[-3000:]
        os.write(master, b"yes\r")
        shown += read_until(master, "[YES/no]", 130, after="Download the outputs")
        os.write(master, b"no\r")
        shown += read_until(master, "[yes/NO]", 30)  # the app, once
        os.write(master, b"\r")
        shown += read_until(master, "done · COMPLETED", 60)
        assert proc.wait(timeout=30) == 0, shown[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    assert plain.count("? resubmit:") == 1, plain[-4000:]  # ONE question for both points, on the terminal
    assert plain.count("for all of them") == 1
    assert re.search(r"\[p2\] ● submitted \S+ \(attempt 2\)", plain) and re.search(
        r"\[p3\] ● submitted \S+ \(attempt 2\)", plain
    )  # the answer applied to both: each resubmitted with its own change
    assert "(--lr 1.0 → 0.1)" in plain and "(--lr 2.0 → 0.2)" in plain
    # the question proposes (never 'Would lower …') and quotes the change of the point whose diff is right above it
    head, question = plain.split("? resubmit:", 1)
    question = question.split("\n", 1)[0]
    assert "Proposed: lower the learning rate ×0.1 (--lr " in question and "Would" not in plain, question
    named = re.search(r"the change shown is #(\d)'s", question)
    last_diff = re.findall(r"\[p(\d)\] ● fix .*\(--lr ([\d.]+) → ([\d.]+)\)", head)[-1]
    assert named and last_diff[0] == named.group(1), (question, head[-3000:])
    assert f"(--lr {last_diff[1]} → {last_diff[2]})" in question  # the text and the diff beside it agree


def test_a_detached_sweep_asks_its_plan_on_the_terminal_and_a_point_question_waits_for_resume(tmp_path: Path) -> None:
    """Without --yes on a terminal: the plan is asked before detaching; in the background a point's fix question
    pauses that point (nothing is guessed); `attach` names it ([p2]) and says to resume; `resume SWEEP` finishes."""
    import os

    from cli_helpers import on_a_terminal, quick_example, read_until

    spec = str(quick_example(tmp_path, "sweep-lr.yaml"))  # the question and the ends matter, not a running point
    proc, master = on_a_terminal(
        tmp_path, "run", "--spec", spec, "--sweep", "lr=0.05,1.0", "--detach", "--cadence", "0.5", "--session", "swq"
    )
    try:
        shown = read_until(master, "[YES/no]", 60)
        assert "Submit 2 workflows (lr=0.05, lr=1.0)?" in shown, shown
        os.write(master, b"yes\r")
        shown += read_until(master, "orchestrate status swq", 30)
        assert proc.wait(timeout=30) == 0, shown
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    follow = run(tmp_path, "attach", "swq", timeout=240)
    assert follow.returncode == 3, follow.stdout[-3000:] + follow.stderr
    assert "[p2] ? resubmit: Resubmit with this fix" in follow.stdout
    assert "paused, waiting for your answer" in follow.stdout and "orchestrate resume swq" in follow.stdout
    done = json_lines(run(tmp_path, "resume", "swq", "--yes", "--json", timeout=240).stdout)[-1]
    assert done["outcome"] == "COMPLETED" and [r["status"] for r in done["results"]] == ["COMPLETED", "COMPLETED"]


def test_a_point_that_diverged_shows_its_state_and_no_metric_in_the_comparison(tmp_path: Path) -> None:
    """No fix allowed (--max-fixes 0): both points diverge (loss=nan, and the trainer's last line says acc=1.000).
    Their rows show the state and '—', never 'accuracy 1 / 1' beside a NaN loss."""
    spec = tmp_path / "sweep-lr.yaml"
    spec.write_text((EXAMPLES / "sweep-lr.yaml").read_text().replace("cpu: 1", "cpu: 0.5"))
    res = run(
        tmp_path, "run", "--spec", str(spec), "--sweep", "lr=1.0,2.0", "--yes", "--max-fixes", "0", "--cadence", "0.5"
    )
    assert res.returncode != 0, res.stdout[-3000:]  # nothing completed
    rows = [line for line in res.stdout.splitlines() if re.match(r"\| [12] \| lr=", line)]
    assert len(rows) == 2, res.stdout[-3000:]
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[3] in ("FAILED", "NEEDS_INPUT") and cells[6:] and set(cells[6:]) == {"—"}, row
    assert "— not compared: did not complete (#1 " in res.stdout and "1 / 1" not in res.stdout
    assert "Best point: none" in res.stdout


def test_repeats_of_a_spec_without_a_seed_are_said_to_run_the_same_values(tmp_path: Path) -> None:
    no_seed = run(tmp_path, "run", "--spec", str(EXAMPLES / "train-classifier.yaml"), "--repeat", "2")
    assert no_seed.returncode == 3  # asked before anything runs; no terminal, no --yes
    assert "train-classifier.yaml has no seed in its default-values: the repeats run the same values" in no_seed.stdout
    seeded = run(tmp_path, "run", "--spec", str(EXAMPLES / "sweep-lr.yaml"), "--repeat", "2")
    assert seeded.returncode == 3 and "has no seed" not in seeded.stdout  # each repeat gets its own seed
