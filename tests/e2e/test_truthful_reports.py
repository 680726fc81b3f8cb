"""Issue 12: reports say what happened — chat answers about the workflow named, `status` reads as terminal text,
the sessions table fits 80 columns."""

from __future__ import annotations

import re
import time
from pathlib import Path

from cli_helpers import chat, json_lines, run, until_status

FAILS = """\
workflow:
  name: broken
  resources:
    default: {cpu: 1, memory: 128Mi}
  tasks:
  - name: train
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo 'FileNotFoundError: [Errno 2] No such file or directory: /data/train.csv' >&2; exit 1"]
"""


def _wait_failed(tmp: Path, ids: list[str], timeout: float = 90) -> None:
    end = time.monotonic() + timeout
    rows = {i: until_status(tmp, i, timeout=max(0.0, end - time.monotonic())) for i in ids}
    if not all(status.startswith("FAILED") for status in rows.values()):
        raise AssertionError(f"{ids} did not fail in time: {rows}")


def test_chat_answers_about_the_workflow_named_not_the_last_run(tmp_path: Path) -> None:
    spec = tmp_path / "broken.yaml"
    spec.write_text(FAILS)
    ids = [json_lines(run(tmp_path, "submit", str(spec), "--json").stdout)[0]["workflow_id"] for _ in range(2)]
    assert ids == ["broken-1", "broken-2"]
    _wait_failed(tmp_path, ids)
    out = chat(tmp_path, "c1", ["why did broken-1 fail"]).stdout
    assert "broken-1" in out and "broken-2" not in out, out
    assert "no run yet" not in out


def test_status_is_terminal_text_and_sessions_fit_80_columns(tmp_path: Path) -> None:
    spec = tmp_path / "broken.yaml"
    spec.write_text(FAILS)
    wid = json_lines(run(tmp_path, "submit", str(spec), "--json").stdout)[0]["workflow_id"]
    _wait_failed(tmp_path, [wid])
    shown = run(tmp_path, "status", wid).stdout
    assert wid in shown and "FAILED" in shown
    assert "**" not in shown and "###" not in shown and "```" not in shown, shown  # Markdown stays in the artifact
    for n in range(3):
        run(tmp_path, f"train a small classifier number {n} on a very long request that goes on and on", "--no-input")
    table = run(tmp_path, "sessions").stdout  # captured: rich renders at 80 columns
    lines = [ln for ln in table.splitlines() if ln.strip()]
    assert len(lines) == 4 and all(len(ln) <= 80 for ln in lines), table  # header + one line per session
    # the id to resume with and the state show in full at 80 columns (rich's squeezing used to drop both)
    assert lines[0].split()[:2] == ["Session", "State"], table
    assert all(re.match(r"[0-9a-f]{8}\s+waiting\s", ln) for ln in lines[1:]), table


def test_sessions_fit_80_columns_with_a_long_workflow_id(tmp_path: Path) -> None:
    """`sessions` lays out like `list` and `pools` (cli/tables.py): at 80 columns a long workflow id gives way
    (the time shortens, then the workflow column goes) and every line still fits. Before: its own layout kept the
    52-character id and printed 97-character lines, which a terminal wraps, and cut the question to '? Submit…'."""
    spec = tmp_path / "long.yaml"
    spec.write_text(FAILS.replace("name: broken", "name: train-a-resnet50-on-imagenet-subset-with-mixup-v2"))
    assert run(tmp_path, "run", "--spec", str(spec), "--yes", "--session", "s1").returncode == 1
    run(tmp_path, "train a small classifier", "--no-input", "--session", "s2")
    table = run(tmp_path, "sessions").stdout  # captured: rich renders at 80 columns
    lines = [ln.rstrip() for ln in table.splitlines() if ln.strip()]
    assert len(lines) == 3 and all(len(ln) <= 80 for ln in lines), table
    assert lines[0].split()[:2] == ["Session", "State"] and "Request · waiting for" in lines[0], table
    assert lines[1].split()[:2] == ["s2", "waiting"], table
    assert lines[1].endswith("? Submit train-classifier to pool local?"), table  # the question in full
    assert lines[2].split()[:2] == ["s1", "NEEDS_INPUT"], table


def test_an_ended_run_has_no_eta_or_live_stage_and_keeps_its_metrics(tmp_path: Path) -> None:
    from cli_helpers import quick_example

    # only the ended run is looked at: no per-step sleep
    res = run(tmp_path, "run", "--spec", str(quick_example(tmp_path, "train-classifier.yaml")), "--yes", "--json")
    assert res.returncode == 0, res.stderr
    events = json_lines(res.stdout)
    wid = events[-1]["workflow_ids"][-1]
    artifact = Path(events[-1]["status_artifact"]).read_text()
    shown = run(tmp_path, "status", wid).stdout
    for text in (artifact, shown):
        assert "Progress: ended COMPLETED" in text and "ETA: unknown" in text, text
        assert "Latest metrics: unknown" not in text and "Container starting" not in text
        assert "Stage / progress: ended COMPLETED; last logged" in text.replace("**", "").replace("• ", "- ")


def test_diagnose_proposes_and_never_claims_it_applied(tmp_path: Path) -> None:
    from cli_helpers import EXAMPLES

    wid = json_lines(run(tmp_path, "submit", str(EXAMPLES / "fail-nan.yaml"), "--json").stdout)[0]["workflow_id"]
    _wait_failed(tmp_path, [wid])
    out = run(tmp_path, "diagnose", wid, "--json")
    fix = json_lines(out.stdout)[0]["fix"]
    # the bare action and an explicit state: a machine reader never parses tense ('Would lower …' until stop 22)
    assert fix["description"].startswith("Lower the learning rate ×0.1 (--lr 50 → 5)"), fix
    assert fix["status"] == "proposed", fix
    assert "Lowered" not in out.stdout and "Would" not in out.stdout
    text = run(tmp_path, "diagnose", wid).stdout  # the person reads it as a proposal
    assert "fix (lower_lr_or_fix_data): Proposed: lower the learning rate ×0.1 (--lr 50 → 5)" in text, text
    assert "Would" not in text and "Lowered" not in text
    # the MCP tool (the SDK's own client over stdio) carries the same bare action and state
    import anyio
    from cli_helpers import env_for, orchestrate_bin
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    cmd = orchestrate_bin()
    params = StdioServerParameters(command=cmd[0], args=[*cmd[1:], "mcp"], env=env_for(tmp_path), cwd=str(tmp_path))

    async def ask() -> dict:
        async with Client(params) as client:
            res = await client.call_tool("diagnose", {"workflow_id": wid})
            assert not res.is_error and res.structured_content is not None, res.content
            return res.structured_content

    (item,) = anyio.run(ask)["diagnoses"]
    assert item["diagnosis"]["fix"]["status"] == "proposed", item
    assert item["diagnosis"]["fix"]["description"].startswith("Lower the learning rate ×0.1 (--lr 50 → 5)"), item


BUSY = """\
workflow:
  name: busy
  resources:
    default: {cpu: 1, memory: 256Mi}
  tasks:
  - name: work
    image: python:3.11-slim
    command: [python, -c]
    args: ["import time\\nend = time.time() + 25\\nwhile time.time() < end:\\n    sum(i * i for i in range(20000)); time.sleep(0.01)"]
"""


def test_cpu_in_use_is_measured_over_an_interval_from_the_process_tree(tmp_path: Path) -> None:
    import re

    spec = tmp_path / "busy.yaml"
    spec.write_text(BUSY)
    wid = json_lines(run(tmp_path, "submit", str(spec), "--json").stdout)[0]["workflow_id"]
    end = time.monotonic() + 60
    resources = ""
    while time.monotonic() < end:
        report = json_lines(run(tmp_path, "status", wid, "--json").stdout)[0]
        resources = report["resources"] or ""
        if report["status"] == "RUNNING" and "in use" in resources:
            break
        time.sleep(0.5)
    run(tmp_path, "cancel", wid, "--yes")
    m = re.search(r"cpu (\d+\.\d+) cores over 1 s", resources)
    assert m and float(m.group(1)) > 0, resources  # a working tree is never reported idle


def test_a_run_cancelled_before_it_started_shows_nothing_it_never_did(tmp_path: Path) -> None:
    from cli_helpers import EXAMPLES

    wid = json_lines(run(tmp_path, "submit", str(EXAMPLES / "fail-gpu.yaml"), "--json").stdout)[0]["workflow_id"]
    assert run(tmp_path, "cancel", wid, "--yes").returncode == 0
    report = json_lines(run(tmp_path, "status", wid, "--json").stdout)[0]
    assert report["status"] == "FAILED_CANCELED" and report["eta"] is None
    assert report["progress"] == "ended FAILED_CANCELED"
    assert "requested cpu 1, memory 512Mi, gpu 2" in report["resources"] and "allocated" not in report["resources"]
    text = run(tmp_path, "status", wid).stdout
    assert "Container starting" not in text and "ended FAILED_CANCELED before any application output" in text


def test_a_chat_goes_on_after_a_workflow_id_that_does_not_exist(tmp_path: Path) -> None:
    res = chat(tmp_path, "c1", ["show logs of nope-7", "what does workflow nope-8 do", "quit"], timeout=60)
    assert res.returncode == 0, res.stdout + res.stderr  # was: exit 2 at the first line, the rest never read
    assert "no workflow 'nope-7'" in res.stdout and "no workflow 'nope-8'" in res.stdout, res.stdout
    assert "Traceback" not in res.stdout + res.stderr


def test_a_set_value_nothing_would_read_is_refused_before_a_session(tmp_path: Path) -> None:
    from cli_helpers import EXAMPLES

    # a drafted spec and examples/train-classifier.yaml have no default-values: the run had 3 epochs, silently
    for args in (("train a small classifier",), ("run", "--spec", str(EXAMPLES / "train-classifier.yaml"))):
        res = run(tmp_path, *args, "--set", "epochs=5", "--no-input")
        assert res.returncode == 2 and "--set" in res.stderr and "Traceback" not in res.stderr, res.stderr
    assert "no sessions yet" in run(tmp_path, "sessions").stdout


def test_a_set_or_sweep_value_of_the_wrong_type_is_exit_2_before_a_session(tmp_path: Path) -> None:
    """`--set lr=abc` (lr defaults to 0.05) was accepted, submitted, and failed at run time with exit code 2 of the
    trainer; now every path says which value, where its default is, and what to pass, and nothing is submitted."""
    from cli_helpers import EXAMPLES

    spec = str(EXAMPLES / "sweep-lr.yaml")
    for args in (
        ("run", "--spec", spec, "--set", "lr=abc", "--yes"),
        ("run", "--spec", spec, "--sweep", "lr=0.1,abc", "--yes"),
        ("submit", spec, "--set", "lr=abc"),
    ):
        res = run(tmp_path, *args)
        flag = "--sweep" if "--sweep" in args else "--set"
        assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
        assert f"sweep-lr.yaml:21 default-values.lr: {flag} lr expects a number like 0.05" in res.stderr, res.stderr
        assert f"got 'abc' — pass e.g. {flag} lr=0.05" in res.stderr, res.stderr
    assert "no sessions yet" in run(tmp_path, "sessions").stdout
    assert "no workflows yet" in run(tmp_path, "list").stdout


def test_a_warning_quoting_the_spec_is_printed_as_written(tmp_path: Path) -> None:
    spec = tmp_path / "odd.yaml"
    spec.write_text(FAILS.replace("ubuntu:24.04", '"ubuntu[/]:24.04"'))
    res = run(tmp_path, "submit", str(spec))  # was: MarkupError crash report after the workflow was submitted
    assert res.returncode == 0 and "internal error" not in res.stderr, res.stderr
    assert "warning: " in res.stderr and "ubuntu[/]:24.04" in res.stderr.replace("\n", ""), res.stderr
    _wait_failed(tmp_path, ["broken-1"])


def test_a_question_about_a_workflow_is_not_planned_as_a_training_job(tmp_path: Path) -> None:
    # was: 'cancel tiny-1' planned (and with --yes submitted) a demo training job named cancel-tiny
    res = run(tmp_path, "cancel tiny-1", "--yes")
    assert res.returncode == 2 and "orchestrate cancel tiny-1" in res.stderr, res.stdout + res.stderr
    assert "no sessions yet" in run(tmp_path, "sessions").stdout


def test_a_cadence_of_zero_or_less_is_bad_input(tmp_path: Path) -> None:
    from cli_helpers import EXAMPLES

    # was: accepted and silently polled every 0.05 s (the floor), 20 polls a second
    res = run(tmp_path, "run", "--spec", str(EXAMPLES / "train-classifier.yaml"), "--cadence", "-1", "--yes")
    assert res.returncode == 2 and "--cadence" in res.stderr, res.stdout + res.stderr
    assert "no sessions yet" in run(tmp_path, "sessions").stdout


def test_a_templated_learning_rate_that_diverged_is_proposed_through_set(tmp_path: Path) -> None:
    """`--set lr=1.0` on a spec that templates lr: no spec edit can lower it, and the question proposes the way that
    can ('Proposed: lower the learning rate ×0.1 by resubmitting with a smaller `--set lr=…`'), never a conditional
    ('Suggested: Would …'), never 'the spec exposes no learning rate', with one period."""
    from cli_helpers import EXAMPLES

    spec = str(EXAMPLES / "sweep-lr.yaml")
    res = run(tmp_path, "run", "--spec", spec, "--set", "lr=1.0", "--yes", "--json", "--cadence", "0.5")
    events = json_lines(res.stdout)
    (asked,) = [e for e in events if e["event"] in ("question", "answered") and e.get("kind") == "no_fix"]
    text = asked["text"]
    assert "Proposed: lower the learning rate ×0.1 by resubmitting with a smaller `--set lr=…`" in text, text
    assert "Would" not in text and "Suggested" not in text and ".." not in text and "no learning rate" not in text
    assert events[-1]["event"] == "done" and events[-1]["outcome"] == "NEEDS_INPUT"
