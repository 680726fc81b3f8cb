"""The person's word is final: a cancel from another terminal ends the driving session CANCELED, never retried."""

from __future__ import annotations

import json
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
    assert len([e for e in events if e["event"] == "submitted"]) == 1
    texts = " ".join(str(e.get("text", "")) for e in events)
    assert "infrastructure failure" not in texts and "preempted" not in texts
    assert not any(e["event"] == "diagnosis" and e.get("origin") == "infra" for e in events)
    assert proc.returncode == 1
    audit = [json.loads(line) for line in (tmp_path / "state" / "audit.jsonl").read_text().splitlines()]
    assert [(e["what"], e["approved_by"], e["workflow"]) for e in audit] == [
        ("submit", "--yes", "slow-1"),
        ("cancel", "--yes", "slow-1"),
    ]
    assert audit[0]["session"] == "cx"
    listed = run(tmp_path, "list", "--json")
    assert '"slow-2"' not in listed.stdout
    # its status says who canceled it and how to run it again, never "wait" or a diagnosis of a failure
    status = json.loads(run(tmp_path, "status", "slow-1", "--json").stdout)
    assert status["status"] == "FAILED_CANCELED"
    step = status["next_step"]
    assert step.startswith("Canceled by you (orchestrate cancel,") and "cannot be resumed" in step, step
    assert "orchestrate run --spec SPEC" in step
    assert "wait" not in step.lower() and "orchestrate diagnose" not in step


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
