"""The person's cancel is final for a sweep too: `orchestrate cancel SWEEP` cancels every live point, queued points
never start, nothing is resubmitted or fixed, and the sweep ends CANCELED with each point's real end state."""

from __future__ import annotations

import json
import time
from pathlib import Path

from cli_helpers import json_lines, run, spawn

# steps is swept: a point of 1 step completes at once, one of 40 runs until it is canceled. "Until it is canceled",
# not for 40 s: under load the test took longer than 41 s to reach its sweep cancel, by then the steps=41 point had
# COMPLETED on its own (its workflow's state.json: COMPLETED 1 s before the audited "cancel sweep"), and the product
# rightly canceled nothing (`canceled_workflows` 0, 1 of 13 runs with two busy loops on the 2 cores). At most 15 min:
# a test that fails before its cancel must not leave a job looping for ever on a shared machine
SLOW_SWEEP = """\
workflow:
  name: slowsweep
  resources:
    default: {cpu: 0.25, memory: 128Mi}
  tasks:
  - name: slow
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["i=0; while [ $i -lt 1 ] || ( [ {{ steps }} -gt 1 ] && [ $i -lt 900 ] ); do i=$((i+1)); echo step $i/{{ steps }}; sleep 1; done; echo ok > {{output}}/ok.txt"]

default-values:
  steps: 1
"""


def _spec(tmp_path: Path) -> str:
    spec = tmp_path / "slowsweep.yaml"
    spec.write_text(SLOW_SWEEP)
    return str(spec)


def _audit(tmp_path: Path) -> list[dict[str, object]]:
    lines = (tmp_path / "state" / "audit.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_cancel_sweep_from_another_terminal_is_final_for_every_point(tmp_path: Path) -> None:
    """Four points, two at a time: #1 completes, #2 and #3 run, #4 waits. `cancel SWEEP --yes` from a second
    terminal: #2 and #3 canceled, #4 never starts, #1 stays COMPLETED, no follow-up offered, exit 1."""
    args = ("run", "--spec", _spec(tmp_path), "--sweep", "steps=1,40,41,42", "--max-parallel", "2")
    proc = spawn(tmp_path, *args, "--yes", "--json", "--cadence", "0.5", "--session", "swc")
    assert proc.stdout is not None
    seen: list[str] = []
    deadline = time.time() + 60
    for line in proc.stdout:  # until #1 has completed and #3 took its place
        seen.append(line)
        if sum('"event": "submitted"' in s for s in seen) == 3 or time.time() > deadline:
            break
    res = run(tmp_path, "cancel", "swc", "--yes", "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    said = json.loads(res.stdout)
    assert said["canceled"] is True and said["canceled_workflows"] == 2
    rest, err = proc.communicate(timeout=60)
    events = json_lines("".join(seen) + rest)
    done = events[-1]
    assert done["event"] == "done" and done["session"] == "swc" and done["outcome"] == "CANCELED", (done, err[-2000:])
    assert proc.returncode == 1
    assert done["reason"].startswith("canceled by you (orchestrate cancel, ")
    status = {r["index"]: r["status"] for r in done["results"]}
    assert status == {1: "COMPLETED", 2: "FAILED_CANCELED", 3: "FAILED_CANCELED", 4: "NOT_STARTED"}, done["results"]
    submitted = [e for e in events if e["event"] == "submitted"]
    assert len(submitted) == 3 and len(done["workflow_ids"]) == 3  # nothing resubmitted, #4 never submitted
    assert not any(e["event"] == "diagnosis" for e in events)  # a cancel is not a failure to diagnose or fix
    assert not any(e["event"] in ("question", "answered") and e["kind"] in ("download", "save_app") for e in events)
    assert len(list((tmp_path / "state" / "workflows").iterdir())) == 3
    cancels = [e for e in _audit(tmp_path) if str(e["what"]).startswith("cancel")]
    assert [(e["what"], e["approved_by"]) for e in cancels][:1] == [("cancel sweep", "--yes")]
    # each canceled workflow's cancel is in the audit log (its point may have asked too, racing the command)
    assert {str(e["workflow"]) for e in cancels if e["what"] == "cancel"} == {
        r["workflow_id"] for r in done["results"] if r["status"] == "FAILED_CANCELED"
    }
    # `status SWEEP` says who canceled it; each point shows its real end state
    human = run(tmp_path, "status", "swc").stdout
    assert "canceled by you (orchestrate cancel" in human and "final" in human
    assert "#1 steps=1: COMPLETED" in human and "#4 steps=42: not started (canceled)" in human
    as_json = json.loads(run(tmp_path, "status", "swc", "--json").stdout)
    assert as_json["canceled"]["via"] == "orchestrate cancel"
    assert [p["status"] for p in as_json["points"]][:3] == ["COMPLETED", "FAILED_CANCELED", "FAILED_CANCELED"]
    # a second cancel changes nothing; a resume starts nothing either
    again = run(tmp_path, "cancel", "swc", "--yes", "--json")
    assert json.loads(again.stdout)["canceled"] is False
    resumed = run(tmp_path, "resume", "swc", "--yes", "--json")
    assert json_lines(resumed.stdout)[-1]["outcome"] == "CANCELED"
    assert len(list((tmp_path / "state" / "workflows").iterdir())) == 3


def _wait_running(tmp_path: Path, sid: str, n: int, limit: float = 60) -> list[dict[str, object]]:
    deadline = time.time() + limit
    while True:
        points = json.loads(run(tmp_path, "status", sid, "--json").stdout)["points"]
        if sum(p["status"] == "RUNNING" for p in points) >= n or time.time() > deadline:
            return list(points)
        time.sleep(0.3)


def test_a_detached_sweep_cancels_one_point_then_the_whole_sweep(tmp_path: Path) -> None:
    """`cancel SWEEP-p1` cancels that point only (the other goes on); `cancel SWEEP` then ends the sweep CANCELED,
    and `attach SWEEP` says the person canceled it."""
    args = ("run", "--spec", _spec(tmp_path), "--sweep", "steps=40,41", "--yes", "--detach", "--cadence", "0.5")
    res = run(tmp_path, *args, "--session", "swd")
    assert res.returncode == 0, res.stdout + res.stderr
    points = _wait_running(tmp_path, "swd", 2)
    assert [p["status"] for p in points] == ["RUNNING", "RUNNING"], points
    # no terminal to confirm on and no --yes: nothing is canceled
    unconfirmed = run(tmp_path, "cancel", "swd")
    assert unconfirmed.returncode == 2 and "--yes" in unconfirmed.stderr
    one = json.loads(run(tmp_path, "cancel", "swd-p1", "--yes", "--json").stdout)
    assert (one["workflow_id"], one["session"], one["canceled"]) == (points[0]["workflow_id"], "swd-p1", True), one
    deadline = time.time() + 30
    while time.time() < deadline:
        now = json.loads(run(tmp_path, "status", "swd", "--json").stdout)["points"]
        if now[0]["status"] == "FAILED_CANCELED":
            break
        time.sleep(0.3)
    assert [p["status"] for p in now] == ["FAILED_CANCELED", "RUNNING"], now  # the other point goes on
    whole = json.loads(run(tmp_path, "cancel", "swd", "--yes", "--json").stdout)
    assert whole["canceled"] is True and whole["canceled_workflows"] == 1
    follow = run(tmp_path, "attach", "swd", timeout=60)
    assert follow.returncode == 1, follow.stdout[-3000:] + follow.stderr
    assert "session swd done · CANCELED (canceled by you (orchestrate cancel" in follow.stdout
    assert "FAILED_CANCELED" in follow.stdout and "Download the outputs" not in follow.stdout
    done = json.loads(run(tmp_path, "attach", "swd", "--json", timeout=60).stdout.splitlines()[-1])
    assert [r["status"] for r in done["results"]] == ["FAILED_CANCELED", "FAILED_CANCELED"]
    assert len(done["workflow_ids"]) == 2  # one submission per point, none resubmitted


def test_cancel_it_in_the_chat_cancels_the_sweep_the_chat_started(tmp_path: Path) -> None:
    """`orchestrate chat`: while its sweep runs, "stop the sweep" asks first (like a run's cancel), "no" keeps it
    running, "cancel it" + "yes" cancels every point, and the sweep ends CANCELED with nothing resubmitted."""
    import subprocess

    from cli_helpers import env_for, orchestrate_bin

    _spec(tmp_path)
    proc = subprocess.Popen(
        [*orchestrate_bin(), "chat", "--session", "cc", "--new", "--cadence", "0.2"],
        cwd=tmp_path,
        env=env_for(tmp_path),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    shown: list[str] = []

    def say(line: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(needle: str, limit: float = 60) -> None:
        assert proc.stdout is not None
        deadline = time.time() + limit
        for line in proc.stdout:
            shown.append(line)
            if needle in line or time.time() > deadline:
                return

    try:
        say("sweep steps over 40, 41 with slowsweep.yaml")
        until("[YES/no]")
        say("yes")
        until("RUNNING")
        until("RUNNING")  # both points' workflows run
        say("stop the sweep")
        until("[yes/NO]")
        say("no")
        until("ok, not doing that")
        say("cancel it")
        until("[yes/NO]")
        say("yes")
        until("points not yet started never start")
        say("how is the sweep doing?")
        rest, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    out = "".join(shown) + rest
    assert proc.returncode == 0, out[-3000:] + err[-2000:]
    sid = out.split("starting sweep ", 1)[1].split(":", 1)[0]
    assert out.count(f"? Cancel sweep {sid} (2 point(s): ") == 2 and "This is final. [yes/NO]" in out
    assert f"● sweep {sid} canceled: cancel requested for 2 running workflow(s)" in out
    assert f"sweep {sid} ended CANCELED (canceled by you (chat, " in out
    assert f"sweep {sid} done · CANCELED" in out and "? download:" not in out and "? save_app:" not in out
    assert out.count("● submitted") == 2  # one submission per point, nothing resubmitted
    # each point says who canceled it (once seen 1 of 2 under `-n 4` on two cores: the output says which path)
    assert out.count("canceled: the sweep was canceled by you (chat, ") == 2, out[-6000:] + err[-2000:]
    assert "final — no point starts, resubmits or is fixed after it" in out  # "how is the sweep doing?"
    status = json.loads(run(tmp_path, "status", sid, "--json").stdout)
    assert [p["status"] for p in status["points"]] == ["FAILED_CANCELED", "FAILED_CANCELED"]
    assert status["canceled"]["via"] == "chat" and status["canceled"]["approved_by"] == "person"


def test_the_mcp_cancel_tool_takes_a_sweep_id(tmp_path: Path) -> None:
    """The MCP `cancel` tool (the SDK's own client over stdio) given a sweep id as its session: the same cancel as
    `orchestrate cancel SWEEP` — every running point canceled, the detached sweep ends CANCELED."""
    import anyio
    from cli_helpers import env_for, orchestrate_bin
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    args = ("run", "--spec", _spec(tmp_path), "--sweep", "steps=40,41", "--yes", "--detach", "--cadence", "0.5")
    assert run(tmp_path, *args, "--session", "swm").returncode == 0
    assert [p["status"] for p in _wait_running(tmp_path, "swm", 2)] == ["RUNNING", "RUNNING"]
    cmd = orchestrate_bin()
    params = StdioServerParameters(command=cmd[0], args=[*cmd[1:], "mcp"], env=env_for(tmp_path), cwd=str(tmp_path))
    got: dict[str, dict[str, object]] = {}

    async def main() -> None:
        async with Client(params) as client:
            for n in ("first", "again"):
                res = await client.call_tool("cancel", {"session": "swm"})
                assert not res.is_error and res.structured_content is not None, res.content
                got[n] = res.structured_content

    anyio.run(main)
    assert got["first"]["canceled"] is True and "cancel requested for 2 running workflow(s)" in str(
        got["first"]["message"]
    )
    assert got["again"]["canceled"] is False and "already canceled" in str(got["again"]["message"])
    done = json.loads(run(tmp_path, "attach", "swm", "--json", timeout=60).stdout.splitlines()[-1])
    assert done["outcome"] == "CANCELED" and done["reason"].startswith("canceled by you (mcp cancel, ")
    assert [r["status"] for r in done["results"]] == ["FAILED_CANCELED", "FAILED_CANCELED"]
    audit = _audit(tmp_path)
    assert [e["via"] for e in audit if e["what"] == "cancel sweep"] == ["mcp cancel"]


def test_a_sweep_paused_on_a_fix_question_and_canceled_applies_no_fix(tmp_path: Path) -> None:
    """A detached sweep (plan answered on a terminal) whose diverging point waits on its fix question; the person
    cancels the sweep; `resume SWEEP --yes` then applies no fix and submits nothing: the point stays FAILED."""
    import os

    from cli_helpers import EXAMPLES, on_a_terminal, read_until

    spec = str(EXAMPLES / "sweep-lr.yaml")
    proc, master = on_a_terminal(
        tmp_path, "run", "--spec", spec, "--sweep", "lr=1.0", "--detach", "--cadence", "0.5", "--session", "swf"
    )
    try:
        read_until(master, "[YES/no]", 60)
        os.write(master, b"yes\r")
        read_until(master, "orchestrate status swf", 30)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    paused = run(tmp_path, "attach", "swf", timeout=120)
    assert paused.returncode == 3 and "? resubmit:" in paused.stdout, paused.stdout[-2000:]
    canceled = json.loads(run(tmp_path, "cancel", "swf", "--yes", "--json").stdout)
    assert canceled["canceled"] is True and canceled["canceled_workflows"] == 0  # its one workflow had failed
    res = run(tmp_path, "resume", "swf", "--yes", "--json", timeout=120)
    events = json_lines(res.stdout)
    done = events[-1]
    assert res.returncode == 1 and done["outcome"] == "CANCELED", res.stdout[-2000:] + res.stderr
    assert [r["status"] for r in done["results"]] == ["FAILED"] and done["results"][0]["attempts"] == 1
    assert not any(e["event"] == "submitted" for e in events) and len(done["workflow_ids"]) == 1
    assert "not submitted: the sweep was canceled by you (orchestrate cancel" in res.stdout
    assert len(list((tmp_path / "state" / "workflows").iterdir())) == 1


def test_a_cancel_from_another_terminal_withdraws_the_question_a_foreground_sweep_waits_on(tmp_path: Path) -> None:
    """On a real pseudo-terminal: both points diverge and the one fix question waits; `orchestrate cancel SWEEP`
    from a second terminal ends that prompt at once (no Enter): it says the sweep was canceled from elsewhere, the
    sweep ends CANCELED (exit 1), no fix is applied and nothing is resubmitted. Before: the prompt stayed."""
    import os
    import re

    from cli_helpers import EXAMPLES, on_a_terminal, read_until

    spec = tmp_path / "sweep-lr.yaml"
    spec.write_text((EXAMPLES / "sweep-lr.yaml").read_text().replace("cpu: 1", "cpu: 0.5"))
    args = ("run", "--spec", str(spec), "--sweep", "lr=1.0,2.0", "--cadence", "0.5", "--session", "swp")
    proc, master = on_a_terminal(tmp_path, *args)
    shown = ""
    try:
        shown += read_until(master, "[YES/no]", 60)
        os.write(master, b"yes\r")
        shown += read_until(master, "[YES/no]", 130, after="? resubmit:")
        assert "[YES/no]" in shown.rsplit("? resubmit:", 1)[-1], shown[-2000:]
        res = run(tmp_path, "cancel", "swp", "--yes", "--json")
        assert res.returncode == 0 and json.loads(res.stdout)["canceled"] is True, res.stdout + res.stderr
        shown += read_until(master, "done · CANCELED", 30)  # nobody answers the question
        assert proc.wait(timeout=30) == 1, shown[-3000:]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown)
    after = plain.split("? resubmit:", 1)[1]
    assert "sweep swp: The sweep was canceled by you (orchestrate cancel, " in after, after[-2000:]
    assert "from elsewhere while this question waited: the question is withdrawn; nothing more is submitted" in after
    assert "sweep swp done · CANCELED (canceled by you (orchestrate cancel" in after, after[-2000:]
    assert "(attempt 2)" not in plain and "? download:" not in plain and "? save_app:" not in plain
    assert after.count("? resubmit:") == 0  # the other point is not asked either
    assert len(list((tmp_path / "state" / "workflows").iterdir())) == 2  # one submission per point
    status = json.loads(run(tmp_path, "status", "swp", "--json").stdout)
    assert [p["status"] for p in status["points"]] == ["FAILED", "FAILED"] and status["canceled"]["via"]
