"""The direct commands, as a person runs them: submit, status, list, logs, explain, pools, errors."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from cli_helpers import EXAMPLES, quick_example, run, until_status


def _wait_status(tmp: Path, wid: str, want: set[str], timeout: float = 90) -> dict:
    """`status WF --json` once the workflow's status is in ``want`` (or ``timeout`` seconds have passed)."""
    until_status(tmp, wid, want, timeout)
    res = run(tmp, "status", wid, "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_submit_then_status_reaches_completed_with_the_model(tmp_path: Path) -> None:
    res = run(tmp_path, "submit", str(quick_example(tmp_path, "train-classifier.yaml")), "--json")
    assert res.returncode == 0, res.stderr
    wid = json.loads(res.stdout)["workflow_id"]
    st = _wait_status(tmp_path, wid, {"COMPLETED", "FAILED"})
    assert st["status"] == "COMPLETED" and st["state"] == "succeeded"
    assert any(o.endswith("model.npz") or "model.npz" in o for o in st["outputs"]) or any(
        (Path(o.removeprefix("file://")) / "model.npz").exists() for o in st["outputs"]
    )
    assert st["links"]["grafana"] is None and Path(st["artifact"]).is_file()
    text = run(tmp_path, "status", wid).stdout
    assert text.startswith("COMPLETED") and "**" not in text  # terminal text; Markdown only in the artifact
    assert "The Grafana resource usage link is not available for this workflow." in text
    listed = json.loads(run(tmp_path, "list", "--json").stdout)["workflows"]
    assert [w["workflow_id"] for w in listed] == [wid]
    raw = run(tmp_path, "logs", wid, "--raw", "--tail", "5").stdout.splitlines()
    assert len(raw) == 5 and all(line[4] == "/" and "[train" in line for line in raw)
    digest = run(tmp_path, "logs", wid).stdout
    assert "epoch" in digest.lower()


def test_oom_example_fails_with_137_and_an_oomkilled_event(tmp_path: Path) -> None:
    wid = json.loads(run(tmp_path, "submit", str(EXAMPLES / "fail-oom.yaml"), "--json").stdout)["workflow_id"]
    st = _wait_status(tmp_path, wid, {"FAILED", "COMPLETED"})
    assert st["status"] == "FAILED"
    assert st["tasks"][0]["exit_code"] == 137
    assert "OOMKilled" in (st["tasks"][0]["failure_message"] or "")


def test_gpu_example_stays_pending_with_the_insufficient_gpu_event(tmp_path: Path) -> None:
    wid = json.loads(run(tmp_path, "submit", str(EXAMPLES / "fail-gpu.yaml"), "--json").stdout)["workflow_id"]
    time.sleep(1.5)
    st = _wait_status(tmp_path, wid, {"PENDING"})
    assert st["status"] == "PENDING" and st["state"] == "pending"
    from runshepherd.backends.local import LocalBackend

    events = LocalBackend(tmp_path / "state").events(wid)
    assert any("Insufficient nvidia.com/gpu" in e.message for e in events)
    assert run(tmp_path, "cancel", wid, "--yes").returncode == 0
    assert _wait_status(tmp_path, wid, {"FAILED_CANCELED"})["status"] == "FAILED_CANCELED"


def test_pipeline_passes_data_between_tasks(tmp_path: Path) -> None:
    wid = json.loads(run(tmp_path, "submit", str(quick_example(tmp_path, "pipeline.yaml")), "--json").stdout)[
        "workflow_id"
    ]
    st = _wait_status(tmp_path, wid, {"COMPLETED", "FAILED"})
    assert st["status"] == "COMPLETED", st
    assert [t["status"] for t in st["tasks"]] == ["COMPLETED", "COMPLETED"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("submit", "nope.yaml"), "nope.yaml: file not found"),
        (("status", "ghost-1"), "no workflow 'ghost-1'"),
        (("submit", "bad.yaml"), 'bad.yaml:4 workflow.resources.default.memory: "10GB" is not a size'),
        (("run", "--spec", "nope.yaml", "--yes"), "file not found"),
        (("list", "--status", "DONE"), "--status"),
        # was: ignored, the run went ahead as if it had not been given
        (
            ("run", "--spec", str(EXAMPLES / "train-classifier.yaml"), "--max-parallel", "2", "--yes"),
            "applies to a sweep",
        ),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    (tmp_path / "bad.yaml").write_text(
        "workflow:\n  resources:\n    default:\n      memory: 10GB\n  name: x\n  tasks:\n"
        "  - {name: a, image: i, command: [true]}\n"
    )
    res = run(tmp_path, *args)
    assert res.returncode == 2, (res.stdout, res.stderr)
    assert message in res.stderr
    assert "Traceback" not in res.stderr + res.stdout


def test_explain_and_pools_say_the_local_backend_ignores_images(tmp_path: Path) -> None:
    wid = json.loads(run(tmp_path, "submit", str(EXAMPLES / "pipeline.yaml"), "--json").stdout)["workflow_id"]
    text = run(tmp_path, "explain", wid).stdout
    assert "prepare" in text and "train" in text and "not used" in text
    pools = json.loads(run(tmp_path, "pools", "--json").stdout)["pools"]
    assert pools[0]["name"] == "local" and any("image" in n for n in pools[0]["notes"])
    nodes = json.loads(run(tmp_path, "resources", "--json").stdout)["resources"]
    assert nodes[0]["cpu_total"] >= 1


def test_help_is_fast_and_lists_the_contract(tmp_path: Path) -> None:
    res = run(tmp_path, "--help")
    for cmd in (
        "run",
        "resume",
        "sessions",
        "submit",
        "status",
        "list",
        "logs",
        "diagnose",
        "explain",
        "pools",
        "resources",
        "cancel",
        "app",
        "chat",
        "mcp",
    ):
        assert cmd in res.stdout


def test_diagnose_log_files_prints_one_object_per_file(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "oom.log").write_text(
        "epoch 1 step 10 loss=0.5\n"
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity)\n"
    )
    (logs / "ok.log").write_text(
        "FutureWarning: `evaluation_strategy` is deprecated\nepoch 3/3 loss=0.1\nTraining complete\n"
    )
    res = run(tmp_path, "diagnose", "--log", str(logs / "oom.log"), str(logs / "ok.log"), "--json")
    assert res.returncode == 0, res.stderr
    objs = [json.loads(line) for line in res.stdout.splitlines()]
    assert [o["label"] for o in objs] == ["gpu_oom", "healthy"]
    assert set(objs[0]) >= {"source", "label", "origin", "confidence", "evidence", "explanation", "fix"}
    assert "CUDA out of memory" in objs[0]["evidence"][0]
    assert set(objs[0]["fix"]) == {"kind", "description", "patch", "status"} and objs[0]["fix"]["status"] == "proposed"
    folder = run(tmp_path, "diagnose", "--log", str(logs))  # was: "log file(s) not found" for a folder that exists
    assert folder.returncode == 2 and "a folder, not a log file" in folder.stderr, folder.stderr
    import os

    os.mkfifo(tmp_path / "pipe.log")  # was: "log file(s) not found" for a pipe that exists
    pipe = run(tmp_path, "diagnose", "--log", str(tmp_path / "pipe.log"))
    assert pipe.returncode == 2 and "not a regular file (a pipe or a device)" in pipe.stderr, pipe.stderr


def test_diagnose_an_empty_log_says_it_is_empty(tmp_path: Path) -> None:
    (tmp_path / "empty.log").write_text("")
    (tmp_path / "blank.log").write_text("\n   \n")
    for name in ("empty.log", "blank.log"):  # was: "unknown … the log shows no error", exit 0
        res = run(tmp_path, "diagnose", "--log", str(tmp_path / name), "--json")
        assert res.returncode == 2 and res.stdout == "", res.stdout
        assert f"{name}: the log is empty — nothing to diagnose" in res.stderr and "Traceback" not in res.stderr


def test_diagnose_a_failed_workflow_proposes_the_patch(tmp_path: Path) -> None:
    wid = json.loads(run(tmp_path, "submit", str(EXAMPLES / "fail-oom.yaml"), "--json").stdout)["workflow_id"]
    assert _wait_status(tmp_path, wid, {"FAILED", "COMPLETED"})["status"] == "FAILED"
    res = run(tmp_path, "diagnose", wid, "--json")
    assert res.returncode == 0, res.stderr
    obj = json.loads(res.stdout.splitlines()[0])
    assert obj["label"] == "host_oom" and obj["fix"]["kind"] == "increase_memory"
    assert "+      memory: 512Mi" in obj["fix"]["patch"]
    human = run(tmp_path, "diagnose", wid).stdout
    assert "host_oom" in human and "memory" in human


def test_validate_checks_without_submitting(tmp_path: Path) -> None:
    ok = run(tmp_path, "validate", str(EXAMPLES / "fail-gpu.yaml"), "--json")
    assert ok.returncode == 0, ok.stderr
    obj = json.loads(ok.stdout)
    assert obj["valid"] and obj["checked_by"] == "local" and not obj["submitted"]
    assert any("more GPUs than this machine has" in w for w in obj["warnings"])
    (tmp_path / "p.yaml").write_text(
        "workflow:\n  name: p\n  tasks:\n  - name: a\n    image: i\n    privileged: true\n    command: [true]\n"
    )
    bad = run(tmp_path, "validate", "p.yaml")
    assert bad.returncode == 2 and "privileged" in bad.stderr
    assert json.loads(run(tmp_path, "list", "--json").stdout)["workflows"] == []


def test_download_copies_a_local_output_url(tmp_path: Path) -> None:
    wid = json.loads(run(tmp_path, "submit", str(quick_example(tmp_path, "pipeline.yaml")), "--json").stdout)[
        "workflow_id"
    ]
    st = _wait_status(tmp_path, wid, {"COMPLETED", "FAILED"})
    url = next(o for o in st["outputs"] if "model.npz" in o or o.endswith("/train") or "train" in o)
    res = run(tmp_path, "download", url, str(tmp_path / "got"), "--json")
    assert res.returncode == 0, res.stderr
    files = json.loads(res.stdout)["files"]
    assert files and all(Path(f).exists() for f in files)


def test_list_filters_say_none_match_and_an_unknown_pool_is_bad_input(tmp_path: Path) -> None:
    """`list --status/--pool` that match nothing say so, never "no workflows yet" beside a workflow that exists;
    a pool the backend does not have is bad input (exit 2) for `list --pool` and `resources POOL` (was: "no
    workflows yet", exit 0; and exit 1 for resources)."""
    wid = json.loads(run(tmp_path, "submit", str(EXAMPLES / "fail-command.yaml"), "--json").stdout)["workflow_id"]
    _wait_status(tmp_path, wid, {"FAILED", "COMPLETED"})
    none = run(tmp_path, "list", "--status", "running", "--pool", "local")
    assert none.returncode == 0 and "no workflows yet" not in none.stdout, none.stdout
    assert "no workflow matches --status RUNNING --pool local" in none.stdout, none.stdout
    for args in (("list", "--pool", "nope"), ("resources", "nope")):
        res = run(tmp_path, *args)
        assert res.returncode == 2 and "no pool 'nope'" in res.stderr and "its pools: local" in res.stderr, res
    assert wid in run(tmp_path, "list", "--pool", "local").stdout


def test_cancel_of_a_workflow_id_does_not_open_or_create_the_session_store(tmp_path: Path) -> None:
    """`orchestrate cancel WF` with a workflow id asks the session store only whether the id is a session (one
    indexed read, no graph): in a state dir that has no sessions it creates no `sessions.sqlite`. Before: every
    `cancel WF` opened the store through the checkpointer, creating it when absent."""
    from cli_helpers import slow_spec

    spec = tmp_path / "slow.yaml"
    spec.write_text(slow_spec(60))
    wid = json.loads(run(tmp_path, "submit", str(spec), "--json").stdout)["workflow_id"]
    res = run(tmp_path, "cancel", wid, "--yes")
    assert res.returncode == 0 and f"● cancel requested for {wid}" in res.stdout, res.stdout + res.stderr
    assert not (tmp_path / "state" / "sessions.sqlite").exists()
    assert _wait_status(tmp_path, wid, {"FAILED_CANCELED"})["status"] == "FAILED_CANCELED"


LONG = """\
workflow:
  name: fine-tune-bert-base-uncased-on-imdb-reviews
  resources:
    default: {cpu: 1, memory: 256Mi}
  tasks:
  - name: train
    image: python:3.11-slim
    command: [bash, -c, "exit 3"]
"""


def test_list_and_pools_keep_one_line_per_row_at_80_columns(tmp_path: Path) -> None:
    spec = tmp_path / "long.yaml"
    spec.write_text(LONG)
    wid = json.loads(run(tmp_path, "submit", str(spec), "--json").stdout)["workflow_id"]
    assert _wait_status(tmp_path, wid, {"FAILED", "COMPLETED"})["status"] == "FAILED"
    listed = run(tmp_path, "list").stdout  # captured: rich renders at 80 columns
    # was a boxed table whose cells wrapped: the id broken over two lines, the time over three
    lines = listed.rstrip("\n").splitlines()
    assert all(len(line) <= 80 for line in lines), listed
    assert lines[0].split() == ["Workflow", "Status", "Duration", "Submitted"], listed  # the pool went first
    assert lines[1].split()[:2] == [wid, "FAILED"] and re.search(r"\d\d-\d\d \d\d:\d\d\s*$", lines[1]), listed
    pools = run(tmp_path, "pools").stdout
    rows = pools.splitlines()
    assert rows[0].split()[:2] == ["Pool", "Status"] and rows[1].split()[:2] == ["local", "ONLINE"], pools
    assert rows[2].startswith("local: this machine") and all(len(r) <= 80 for r in rows[:3]), pools
