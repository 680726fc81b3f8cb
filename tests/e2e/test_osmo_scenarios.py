"""The OSMO skill's own eval scenarios (evals.json, 34 of them), asked of our CLI against the fake `osmo`.

Each in-scope test drives `orchestrate … --backend osmo` in a subprocess with the fake first on PATH, serving the
scenario's fixtures, and checks the answer against the scenario's expected-behaviour list. SCENARIOS below
classifies every scenario: the test that covers it, or OUT_OF_SCOPE — those are asked as `orchestrate "QUESTION"`
and must get a plain answer with no `osmo` call and no plan (the skill's ground truth for them).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import env_for, orchestrate_bin


def _load_fake_env():  # tests/backends/osmo/fake_env.py, by path: e2e tests are not a package
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "backends" / "osmo" / "fake_env.py"
    spec = importlib.util.spec_from_file_location("osmo_fake_env", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fake_env = _load_fake_env()

OWN = fake_env.OWN_FIXTURES / "overrides"
CONFIG = """backend: osmo
backends:
  osmo:
    executable: osmo
    capture_timeout: 3
    idle_timeout: 0.5
    whole_log_idle: 1
    backoff_initial: 0.05
    backoff_max: 0.2
cadence:
  short: 0.3
  training: 0.3
  backoff: 0.3
"""


def osmo_cli(tmp: Path, *args: str, timeout: float = 90, **knobs: str) -> subprocess.CompletedProcess[str]:
    env = env_for(tmp)
    env.update(fake_env.install(tmp, [OWN, fake_env.EVAL_FIXTURES], **knobs))
    cfg = tmp / "config.yaml"
    cfg.write_text(CONFIG)
    return subprocess.run(
        [*orchestrate_bin(), *args, "--backend", "osmo", "--config", str(cfg)],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def osmo_calls(tmp: Path) -> list[list[str]]:
    path = tmp / "osmo-server" / "calls.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def as_json(res: subprocess.CompletedProcess[str]) -> Any:
    assert res.returncode == 0, res.stderr + res.stdout
    return json.loads(res.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------------------------------- status & links
def test_002_recent_workflows_table(tmp_path: Path) -> None:
    res = osmo_cli(tmp_path, "list")
    assert res.returncode == 0, res.stderr
    for wid, pool, status in [
        ("gr00t-train-1", "h100-east", "RUNNING"),
        ("rl-train-stuck-10", "gb200-shared", "PENDING"),
        ("eval-rerun-3", "l40s-batch", "COMPLETED"),
        ("policy-train-7", "h100-west", "FAILED"),
    ]:
        row = next(line for line in res.stdout.splitlines() if wid in line)
        assert pool in row and status in row
    assert "34m13s" in res.stdout  # eval-rerun-3's duration, 2053 s
    assert ["workflow", "list", "--format-type", "json"] == osmo_calls(tmp_path)[-1][:4]


def test_003_status_with_progress_from_logs(tmp_path: Path) -> None:
    res = osmo_cli(tmp_path, "status", "gr00t-train-1")
    assert res.returncode == 0, res.stderr
    assert res.stdout.lstrip().startswith("RUNNING — ")  # terminal text (Markdown only in the artifact)
    assert "3500" in res.stdout and "10000" in res.stdout  # step 3500/10000 from the logs
    used = [c[:2] for c in osmo_calls(tmp_path)]
    assert ["workflow", "query"] in used and ["workflow", "logs"] in used
    # Every logs call is bounded: a tail (`-n`), or one task's whole stream spooled by `whole_log` (bounded by
    # whole_log_timeout and a byte cap inside the backend); never an unbounded whole-workflow stream.
    logs_calls = [c for c in osmo_calls(tmp_path) if c[:2] == ["workflow", "logs"]]
    assert logs_calls and all("-n" in c or "--task" in c for c in logs_calls), logs_calls


def test_004_resource_usage_is_the_grafana_link_not_numbers(tmp_path: Path) -> None:
    report = as_json(osmo_cli(tmp_path, "status", "gr00t-train-1", "--json"))
    assert report["links"]["grafana"].startswith("https://grafana.example.com/d/wf-abc123def4567/gr00t-train-1")
    assert report["metrics"] is None or "memory" not in json.dumps(report["metrics"]).lower()
    assert report["resources"] is None or "unknown" in report["resources"]  # never a made-up usage figure
    text = osmo_cli(tmp_path, "status", "gr00t-train-1").stdout
    assert f"[View resource usage in Grafana]({report['links']['grafana']})" in text


def test_005_dashboard_link_and_null_links_named(tmp_path: Path) -> None:
    text = osmo_cli(tmp_path, "status", "gr00t-train-1").stdout
    assert "[Open Kubernetes dashboard](https://k8s.example.com/#/pod/osmo-default/gr00t-train-1-eb3a7f9c-0/" in text
    sub = as_json(
        osmo_cli(
            tmp_path,
            "submit",
            str(fake_env.EVALS / "files" / "workflow.yaml"),
            "--pool",
            "h100-east",
            "--json",
            FAKE_OSMO_EXECUTE="0",
        )
    )
    text = osmo_cli(tmp_path, "status", sub["workflow_id"]).stdout  # the fake has no Grafana/dashboard
    assert "The Grafana resource usage link is not available for this workflow." in text
    assert "The Kubernetes dashboard link is not available for this workflow." in text


def test_006_explain_from_the_template(tmp_path: Path) -> None:
    res = osmo_cli(tmp_path, "explain", "gr00t-train-1")
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "nvcr.io/nvidia/gr00t:1.5.0" in out and "s3://my-bucket/gr00t-train-1-output/" in out
    assert "gr00t.train" in out or "entry.sh" in out
    assert ["workflow", "spec", "gr00t-train-1", "--template"] in osmo_calls(tmp_path)


# ------------------------------------------------------------------------------------------- pools
def test_011_012_pools_with_effective_availability(tmp_path: Path) -> None:
    data = as_json(osmo_cli(tmp_path, "pools", "--json"))
    pools = {p["name"]: p for p in data["pools"]}
    assert (pools["h100-east"]["quota_free"], pools["h100-east"]["total_free"]) == (8, 12)
    assert pools["h100-east"]["effective_gpu_free"] == 8
    assert pools["h100-west"]["effective_gpu_free"] == 0  # at capacity
    assert pools["gb200-shared"]["effective_gpu_free"] == 8 and pools["l40s-batch"]["effective_gpu_free"] == 24
    text = osmo_cli(tmp_path, "pools").stdout
    assert "h100-west" in text and "OFFLINE" in text


def test_013_resources_per_node_free(tmp_path: Path) -> None:
    data = as_json(osmo_cli(tmp_path, "resources", "h100-east", "--json"))
    nodes = data["resources"]
    assert len(nodes) == 6 and max(n["gpu_free"] for n in nodes) == 4
    assert ["resource", "list", "--format-type", "json", "--pool", "h100-east"] in osmo_calls(tmp_path)
    text = osmo_cli(tmp_path, "resources").stdout  # a pipe: 80 columns, laid out like `list` and `pools`
    lines = text.strip().splitlines()
    assert all(len(ln) <= 80 for ln in lines) and "┃" not in text, text  # was: a boxed table cut at 80
    for n in nodes:  # was: every node name cut to "osmo-iad1-h10…", so no two rows could be told apart
        row = next(ln for ln in lines if ln.startswith(n["hostname"] + " "))
        assert f"{n['gpu_free']}/{n['gpu_total']}" in row and n["pool"] in row, row


# ------------------------------------------------------------------------------------------- diagnosis
def diagnosis(tmp: Path, wid: str) -> dict[str, Any]:
    res = osmo_cli(tmp, "diagnose", wid, "--json")
    assert res.returncode in (0, 1), res.stderr + res.stdout
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_013_pending_is_a_per_node_fit_problem(tmp_path: Path) -> None:
    d = diagnosis(tmp_path, "stuck-train-1")
    assert d["label"] == "unschedulable"
    text = json.dumps(d).lower()
    assert "32" in text and "8" in text and ("single node" in text or "one node" in text or "per node" in text)
    assert "--priority low" not in text  # quota is not the limit here
    used = [c[:2] for c in osmo_calls(tmp_path)]
    assert ["workflow", "events"] in used and ["resource", "list"] in used


def test_014_oom_doubles_memory(tmp_path: Path) -> None:
    d = diagnosis(tmp_path, "oom-train-1")
    assert d["label"] == "host_oom" and d["fix"]["kind"] == "increase_memory"
    assert "137" in json.dumps(d["evidence"]) or "OOMKilled" in json.dumps(d["evidence"])
    assert "memory" in d["explanation"].lower()


def test_015_024_exit_127_jq_not_found_with_install_fix(tmp_path: Path) -> None:
    d = diagnosis(tmp_path, "tool-train-1")
    assert d["label"] == "missing_dependency" and d["fix"]["kind"] == "add_dependency"
    assert any("jq: command not found" in e for e in d["evidence"])
    assert "jq" in d["fix"]["description"] and "install" in d["fix"]["description"].lower()
    assert "convert" in json.dumps(d)  # the failed task


def test_016_image_pull_from_events_with_empty_logs(tmp_path: Path) -> None:
    d = diagnosis(tmp_path, "badimage-train-1")
    assert d["label"] == "image_pull"
    assert any("1.5.0-typo" in e for e in d["evidence"])
    assert "tag" in (d["explanation"] + d["fix"]["description"]).lower()


def test_028_private_image_needs_a_registry_credential(tmp_path: Path) -> None:
    d = diagnosis(tmp_path, "private-image-1")
    assert d["label"] in ("image_pull", "permission_or_auth")
    text = (d["explanation"] + d["fix"]["description"]).lower()
    assert "credential" in text and "unauthorized" in json.dumps(d["evidence"]).lower()


def test_017_outputs_typo_after_completed(tmp_path: Path) -> None:
    d = diagnosis(tmp_path, "sdg-train-1")
    assert d["label"] == "output_missing"
    assert "{{output}}" in (d["fix"]["patch"] or "") and "{{outputs}}" in (d["fix"]["patch"] or "")


# ------------------------------------------------------------------------------------------- submit & run
def test_007_submit_unchanged_to_a_free_h100_pool(tmp_path: Path) -> None:
    spec = tmp_path / "workflow.yaml"
    spec.write_text((fake_env.EVALS / "files" / "workflow.yaml").read_text())
    before = spec.read_text()
    sub = as_json(osmo_cli(tmp_path, "submit", str(spec), "--pool", "auto:H100", "--json", FAKE_OSMO_EXECUTE="0"))
    assert sub["workflow_id"] == "hello-world-1" and sub["pool"] == "h100-east"  # h100-west is at capacity
    assert sub["pool_choice"].startswith("h100-east: 8 GPUs free now")
    assert spec.read_text() == before
    calls = osmo_calls(tmp_path)
    assert ["pool", "list", "--format-type", "json"] in calls  # resource discovery before the submit
    call = next(c for c in calls if c[:2] == ["workflow", "submit"])
    assert call[call.index("--pool") + 1] == "h100-east"


def test_008_jinja_values_go_through_set(tmp_path: Path) -> None:
    text = (fake_env.EVALS / "files" / "jinja_workflow.yaml").read_text()
    # the fixture nests default-values under workflow: (not valid OSMO); the real layout is top level
    spec = tmp_path / "jinja_workflow.yaml"
    body, _, defaults = text.partition("  default-values:\n")
    spec.write_text(body + "default-values:\n" + "\n".join(line[2:] for line in defaults.splitlines()) + "\n")
    before = spec.read_text()
    sub = as_json(
        osmo_cli(
            tmp_path, "submit", str(spec), "--set", "num_gpu=4", "--pool", "h100-east", "--json", FAKE_OSMO_EXECUTE="0"
        )
    )
    assert sub["workflow_id"].startswith("gr00t-train-")
    assert spec.read_text() == before and "{{num_gpu}}" in before
    call = next(c for c in osmo_calls(tmp_path) if c[:2] == ["workflow", "submit"])
    assert "num_gpu=4" in call[call.index("--set") :]


def test_029_validate_with_set_and_pool_never_submits(tmp_path: Path) -> None:
    text = (fake_env.EVALS / "files" / "jinja_workflow.yaml").read_text()
    spec = tmp_path / "jinja_workflow.yaml"  # default-values moved to the top level, as in test_008
    body, _, defaults = text.partition("  default-values:\n")
    spec.write_text(body + "default-values:\n" + "\n".join(line[2:] for line in defaults.splitlines()) + "\n")
    res = osmo_cli(tmp_path, "validate", str(spec), "--set", "num_gpu=4", "--pool", "h100-east")
    assert res.returncode == 0, res.stderr
    assert "is valid" in res.stdout and "nothing was submitted" in res.stdout
    calls = osmo_calls(tmp_path)
    validate = next(c for c in calls if c[:2] == ["workflow", "validate"])
    assert "num_gpu=4" in validate and "h100-east" in validate
    assert not [c for c in calls if c[:2] == ["workflow", "submit"]]
    oversized = osmo_cli(
        tmp_path,
        "validate",
        str(fake_env.EVALS / "files" / "oversized.yaml"),
        "--pool",
        "h100-east",
        FAKE_OSMO_NODE_CAPACITY="gpu=64,cpu=192,memory=1500Gi,storage=1024Gi",
    )
    assert oversized.returncode == 2 and "would be refused" in oversized.stderr


def test_032_download_a_raw_storage_uri(tmp_path: Path) -> None:
    res = osmo_cli(tmp_path, "download", "s3://robotics-artifacts/run-42/", str(tmp_path / "outputs"), "--json")
    assert res.returncode == 0, res.stderr
    call = next(c for c in osmo_calls(tmp_path) if c[:2] == ["data", "download"])
    assert call[2] == "s3://robotics-artifacts/run-42/"
    staged = Path(call[3])  # staged beside DEST, then moved in, so nothing already in DEST is overwritten
    assert staged.parent == tmp_path and staged.name.startswith(".runshepherd-download-") and not staged.exists()


def test_018_oversized_spec_is_refused_with_the_capacity_table(tmp_path: Path) -> None:
    spec = tmp_path / "oversized.yaml"
    spec.write_text((fake_env.EVALS / "files" / "oversized.yaml").read_text())
    res = osmo_cli(
        tmp_path,
        "run",
        "--spec",
        str(spec),
        "--pool",
        "h100-east",
        "--yes",
        "--json",
        FAKE_OSMO_EXECUTE="0",
        FAKE_OSMO_NODE_CAPACITY="gpu=64,cpu=192,memory=1500Gi,storage=1024Gi",
    )
    events = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
    text = json.dumps(events)
    assert "capacity validation" in text
    fixes = [e for e in events if e.get("event") == "fix"]
    assert fixes, text
    diff = fixes[0]["diff"]
    for line in ("cpu: 10", "memory: 84Gi", "storage: 57Gi"):
        assert line in diff
    assert events[-1]["outcome"] == "COMPLETED"


# ------------------------------------------------------------------------------------------- apps, cancel
def test_019_app_create_helper_from_the_template(tmp_path: Path) -> None:
    """The graph's save_app is wired by the lead; here the backend helper is driven the way it will be."""
    import os

    from runshepherd.backends.osmo import OsmoBackend

    env = fake_env.install(tmp_path, [OWN, fake_env.EVAL_FIXTURES])
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        be = OsmoBackend(tmp_path / "state", {})
        made = be.create_app("gr00t-train", "Runs GR00T fine-tuning", be.spec("gr00t-train-1", template=True))
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    assert made.name == "gr00t-train" and "created successfully" in made.message
    calls = osmo_calls(tmp_path)
    assert ["workflow", "spec", "gr00t-train-1", "--template"] in calls
    create = next(c for c in calls if c[:2] == ["app", "create"])
    assert create[2] == "gr00t-train" and "--description" in create and "--file" in create


def test_034_cancel_asks_first_and_never_forces(tmp_path: Path) -> None:
    res = osmo_cli(tmp_path, "cancel", "gr00t-train-1")
    assert res.returncode == 2 and "--yes" in (res.stderr + res.stdout)
    assert not any(c[:2] == ["workflow", "cancel"] for c in osmo_calls(tmp_path))


# ------------------------------------------------------------------------------------------- expired login
SLOW_SPEC = """\
workflow:
  name: slow-osmo
  resources:
    default: {cpu: 1, memory: 1Gi}
  tasks:
  - name: main
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["for i in 1 2 3 4 5 6; do echo step $i/6; sleep 1; done"]
"""


def test_expired_login_pauses_with_exit_4_and_resume_continues_the_same_workflow(tmp_path: Path) -> None:
    spec = tmp_path / "slow.yaml"
    spec.write_text(SLOW_SPEC)
    first = osmo_cli(
        tmp_path,
        "run",
        "--spec",
        str(spec),
        "--pool",
        "h100-east",
        "--yes",
        "--json",
        "--session",
        "auth1",
        FAKE_OSMO_AUTH_EXPIRE_AFTER="7",
    )
    assert first.returncode == 4, first.stdout + first.stderr
    assert "osmo login" in first.stderr and "orchestrate resume auth1" in first.stderr
    submitted = [json.loads(x) for x in first.stdout.splitlines() if '"submitted"' in x]
    assert len(submitted) == 1
    wid = submitted[0]["workflow_id"]
    calls_before = len(osmo_calls(tmp_path))
    # the circuit breaker: after the first auth failure no more osmo calls were made by that process
    assert sum(1 for c in osmo_calls(tmp_path)[7:] if c[:1] != ["login"]) <= 1
    login = subprocess.run(
        [str(tmp_path / "bin" / "osmo"), "login"],
        env={**env_for(tmp_path), **fake_env.install(tmp_path, [OWN, fake_env.EVAL_FIXTURES])},
        capture_output=True,
        text=True,
    )
    assert login.returncode == 0
    second = osmo_cli(tmp_path, "resume", "auth1", "--yes", "--json")
    assert second.returncode == 0, second.stdout + second.stderr
    events = [json.loads(x) for x in second.stdout.splitlines() if x.startswith("{")]
    assert not [e for e in events if e["event"] == "submitted"]  # the same workflow, not a new submission
    assert events[-1]["outcome"] == "COMPLETED" and events[-1]["workflow_ids"] == [wid]
    assert len(osmo_calls(tmp_path)) > calls_before


def test_030_find_an_app_show_its_parameters_submit_v2_to_a_free_h100_pool(tmp_path: Path) -> None:
    found = osmo_cli(tmp_path, "app", "list")
    assert found.returncode == 0, found.stderr
    assert "gr00t-train  v2  Runs GR00T fine-tuning workflows" in found.stdout
    shown = osmo_cli(tmp_path, "app", "show", "gr00t-train:2")
    assert shown.returncode == 0, shown.stderr
    assert "versions: v2" in shown.stdout and "model = gr00t-base" in shown.stdout and "--set" in shown.stdout
    typo = osmo_cli(tmp_path, "app", "submit", "gr00t-train:2", "--set", "epochs=ten", "--pool", "h100-east")
    assert typo.returncode == 2 and "--set epochs expects a whole number like 10" in typo.stderr, typo.stderr
    assert not [c for c in osmo_calls(tmp_path) if c[:2] == ["app", "submit"]]  # refused before the scheduler
    sub = osmo_cli(tmp_path, "app", "submit", "gr00t-train:2", "--set", "model=resnet50", "--pool", "auto:H100")
    assert sub.returncode == 0, sub.stderr  # pre-authorised: no question (stdin is closed)
    assert "● pool      h100-east: 8 GPUs free now" in sub.stdout and "enough for the 4 GPUs" in sub.stdout
    assert "● submitted gr00t-app-run-1 from osmo app gr00t-train:2 to pool h100-east" in sub.stdout
    calls = osmo_calls(tmp_path)
    assert [c[:2] for c in calls][:3] == [["app", "list"], ["app", "info"], ["app", "show"]]
    assert ["app", "show", "gr00t-train:2"] in calls and ["pool", "list", "--format-type", "json"] in calls
    submit = next(c for c in calls if c[:2] == ["app", "submit"])
    assert submit[2] == "gr00t-train:2" and submit[submit.index("--pool") + 1] == "h100-east"
    assert "model=resnet50" in submit[submit.index("--set") :]
    assert not [c for c in calls if c[:2] == ["workflow", "submit"]]


def test_031_draft_with_url_io_private_image_and_topology_never_submitted(tmp_path: Path) -> None:
    import yaml

    question = next(s["question"] for s in _evals() if s["id"] == "osmo-user-031")
    res = osmo_cli(tmp_path, "draft", question, "-o", "draft.yaml")
    assert res.returncode == 0, res.stderr
    assert "valid, nothing was submitted" in res.stdout and "placeholder: input URL" in res.stdout
    assert "orchestrate credential set" in res.stdout  # the private image's pull credential, outside the YAML
    text = (tmp_path / "draft.yaml").read_text()
    spec = yaml.safe_load(text)
    wf = spec["workflow"]
    assert "tasks" in wf and "groups" not in wf  # never both
    (task,) = wf["tasks"]
    assert task["inputs"] == [{"url": "s3://your-bucket/inputs/"}] and task["outputs"][0]["url"].startswith("s3://")
    assert task["image"].startswith("nvcr.io/")
    assert wf["resources"]["default"]["topology"][0]["requirementType"] == "required"  # under workflow.resources
    script = task["files"][0]["contents"]
    assert "{{input:0}}" in script and "{{output}}" in script
    for fetch in ("curl", "wget", "http://", "https://"):
        assert fetch not in text
    assert not re.search(r"credential|auth|password|registry", text, re.IGNORECASE)  # no credential in the YAML
    assert osmo_calls(tmp_path) == []  # drafting runs no osmo command at all
    checked = osmo_cli(tmp_path, "validate", "draft.yaml", "--pool", "auto:H100")
    assert checked.returncode == 0 and "nothing was submitted" in checked.stdout, checked.stderr
    assert not [c for c in osmo_calls(tmp_path) if "submit" in c]
    again = osmo_cli(tmp_path, "draft", question, "-o", "draft.yaml")
    assert again.returncode == 2 and "--force" in again.stderr  # an existing file is not replaced silently


def test_009_recipe_sized_by_throughput_submitted_that_many_times_to_an_h100_pool(tmp_path: Path) -> None:
    """Scenario 009: N runs of the recipe on the H100 pool, driven as one sweep (issue 16)."""
    question = next(s["question"] for s in _evals() if s["id"] == "osmo-user-009")
    res = osmo_cli(tmp_path, question, "--yes", "--json", FAKE_OSMO_EXECUTE="0", FAKE_OSMO_RUN_SECONDS="0")
    assert res.returncode == 0, res.stdout + res.stderr
    events = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
    plan = events[0]
    assert plan["event"] == "planned" and plan["spec_name"] == "isaac-sim-sdg"
    assert "ceil(1000 / 60) = 17 submissions" in plan["message"]  # the cookbook's stated per-run throughput
    assert "60 images per run" in plan["message"] and "OSMO cookbook" in plan["message"]
    assert plan["pool"] == "h100-east" and "no H100 pool has 17 GPUs free" in plan["warnings"][0]
    ids = [e["workflow_id"] for e in events if e["event"] == "submitted"]
    assert len(ids) == len(set(ids)) == 17
    # the 17 runs are one sweep: one session id, the plan asked once, each run its own session, one comparison
    done = events[-1]
    assert done["event"] == "done" and done["outcome"] == "COMPLETED", res.stdout[-2000:]
    sweep = done["session"]
    assert sorted(done["workflow_ids"]) == sorted(ids)  # every id reported, in the sweep's one result
    assert [r["point"] for r in done["results"]] == [f"run {i}" for i in range(1, 18)]
    assert {r["session"] for r in done["results"]} == {f"{sweep}-p{i}" for i in range(1, 18)}
    assert (
        all(r["status"] == "COMPLETED" for r in done["results"])
        and "| 17 | run 17 |" in Path(done["status_artifact"]).read_text()
    )
    own = [e for e in events if e["session"] == sweep and e["event"] in ("question", "answered")]
    assert sorted(e["kind"] for e in own) == ["download", "save_app", "submit"]  # each asked once for all 17
    assert not any(e["event"] == "answered" and e["kind"] == "save_app" for e in events if e["session"] != sweep)
    from runshepherd.events import parse_event

    assert all(parse_event(e) is not None for e in events)  # the published event contract
    calls = osmo_calls(tmp_path)
    submits = [c for c in calls if c[:2] == ["workflow", "submit"]]
    assert len(submits) == 17 and all(c[c.index("--pool") + 1] == "h100-east" for c in submits)
    assert ["pool", "list", "--format-type", "json"] in calls
    spec = osmo_cli(tmp_path, "explain", ids[0])
    assert "nvcr.io/nvidia/isaac-sim" in spec.stdout
    # the same request without --yes and no terminal: nothing is submitted
    again = osmo_cli(tmp_path, question)
    assert again.returncode == 2 and "--yes" in again.stderr
    assert len([c for c in osmo_calls(tmp_path) if c[:2] == ["workflow", "submit"]]) == 17


def test_a_one_run_recipe_request_is_a_normal_session_on_the_named_gpu_type(tmp_path: Path) -> None:
    res = osmo_cli(
        tmp_path,
        "generate 50 images with Isaac Sim on an H100 pool",
        "--yes",
        "--json",
        FAKE_OSMO_EXECUTE="0",
        FAKE_OSMO_RUN_SECONDS="0",
    )
    events = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
    planned = next(e for e in events if e["event"] == "planned")
    assert planned["spec_name"] == "isaac-sim-sdg" and planned["pool"] == "h100-east"
    assert any("pool chosen: h100-east" in w for w in planned["warnings"])
    assert len([e for e in events if e["event"] == "submitted"]) == 1
    assert events[-1]["event"] == "done" and events[-1]["outcome"] == "COMPLETED", res.stderr


def test_recipes_are_listed_with_their_throughput_and_source(tmp_path: Path) -> None:
    from cli_helpers import run

    listed = run(tmp_path, "recipe", "list")
    assert listed.returncode == 0 and "isaac-sim-sdg" in listed.stdout and "60 images per run" in listed.stdout
    for name in ("train-single-node", "train-multi-node", "evaluate", "data-processing"):
        assert name in listed.stdout
    shown = run(tmp_path, "recipe", "show", "isaac-sim-sdg")
    assert "OSMO cookbook" in shown.stdout and "default-values" in shown.stdout


def test_031_in_chat_writes_the_draft_beside_the_conversation_and_submits_nothing(tmp_path: Path) -> None:
    import yaml

    question = next(s["question"] for s in _evals() if s["id"] == "osmo-user-031")
    env = env_for(tmp_path)
    env.update(fake_env.install(tmp_path, [OWN, fake_env.EVAL_FIXTURES]))
    (tmp_path / "config.yaml").write_text(CONFIG)
    res = subprocess.run(
        [
            *orchestrate_bin(),
            "chat",
            "--session",
            "c1",
            "--new",
            "--backend",
            "osmo",
            "--config",
            str(tmp_path / "config.yaml"),
        ],
        cwd=tmp_path,
        env=env,
        input=question + "\nAdd a node taint to drain gpu-node-7\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert "drafted workflow-yaml.yaml: valid, nothing was submitted" in res.stdout
    spec = yaml.safe_load((tmp_path / "workflow-yaml.yaml").read_text())
    assert spec["workflow"]["tasks"][0]["inputs"] and spec["workflow"]["resources"]["default"]["topology"]
    assert "Kubernetes cluster administration" in res.stdout  # the out-of-scope line in the same conversation
    assert osmo_calls(tmp_path) == []


# ------------------------------------------------------------------------------------------- credentials
NGC_KEY = "mock-ngc-api-key-do-not-print"  # the value the skill's own eval config exports


def test_027_registry_credential_from_the_env_never_printed_or_stored(tmp_path: Path) -> None:
    import hashlib

    spec = tmp_path / "jinja_workflow.yaml"
    spec.write_text((fake_env.EVALS / "files" / "jinja_workflow.yaml").read_text())
    before = spec.read_text()
    (tmp_path / "tmp").mkdir()
    knobs = {"NGC_CLI_API_KEY": NGC_KEY, "TMPDIR": str(tmp_path / "tmp")}
    first = osmo_cli(tmp_path, "credential", "list", **knobs)
    assert first.returncode == 0 and "no credentials stored" in first.stdout, first.stderr
    made = osmo_cli(tmp_path, "credential", "set", "nvcr", "--type", "REGISTRY", "--registry", "nvcr.io", **knobs)
    assert made.returncode == 0, made.stderr
    assert "created REGISTRY credential nvcr" in made.stdout and "auth: from env:NGC_CLI_API_KEY" in made.stdout
    assert "username: $oauthtoken" in made.stdout
    calls = osmo_calls(tmp_path)
    assert [c[:2] for c in calls] == [["credential", "--format-type"]] * 2 + [["credential", "set"]]
    assert calls[1][3] == "list"  # listed existing credentials before creating one
    assert calls[2][:5] == ["credential", "set", "nvcr", "--type", "REGISTRY"] and "--payload-file" in calls[2]
    stored = json.loads((tmp_path / "osmo-server" / "credentials.json").read_text())["nvcr"]
    assert stored["profile"] == "nvcr.io" and stored["cred_type"] == "REGISTRY"
    assert stored["sha256"]["auth"] == hashlib.sha256(NGC_KEY.encode()).hexdigest()  # the raw key, intact
    assert stored["sha256"]["username"] == hashlib.sha256(b"$oauthtoken").hexdigest()
    again = osmo_cli(tmp_path, "credential", "list", "--json", **knobs)
    assert as_json(again)["credentials"] == [{"name": "nvcr", "type": "REGISTRY", "profile": "nvcr.io"}]
    # never printed, never in argv, never in any file under this test's folder (state, temp, call log)
    for res in (first, made, again):
        assert NGC_KEY not in res.stdout + res.stderr
    leaked = [p for p in tmp_path.rglob("*") if p.is_file() and NGC_KEY.encode() in p.read_bytes()]
    assert leaked == []
    assert list((tmp_path / "tmp").iterdir()) == []  # the 0600 payload files are gone
    assert spec.read_text() == before  # the workflow YAML is not edited
    # delete asks first (no terminal here: refused without --yes, nothing deleted), then deletes with --yes
    refused = osmo_cli(tmp_path, "credential", "delete", "nvcr")
    assert refused.returncode == 2 and "--yes" in refused.stderr
    assert not [c for c in osmo_calls(tmp_path) if "delete" in c]
    assert osmo_cli(tmp_path, "credential", "delete", "nvcr", "--yes").returncode == 0
    assert json.loads((tmp_path / "osmo-server" / "credentials.json").read_text()) == {}


def test_credentials_on_a_backend_without_a_store_say_what_it_uses_instead(tmp_path: Path) -> None:
    from cli_helpers import run

    res = run(tmp_path, "credential", "list", "--backend", "local")
    assert res.returncode == 2 and "docker login" in res.stderr
    res = run(tmp_path, "credential", "set", "x", "--type", "GENERIC", "--value", "token=abc", "--backend", "osmo")
    assert res.returncode == 2 and "--from-env" in res.stderr and "abc" not in res.stderr


# ------------------------------------------------------------------------------------------- data access
def test_033_read_access_check_of_a_raw_storage_uri(tmp_path: Path) -> None:
    uri = "s3://robotics-artifacts/run-42/"
    res = osmo_cli(tmp_path, "data", "check", uri, "--access", "read")
    assert res.returncode == 0, res.stderr
    assert f"read access to {uri}: yes" in res.stdout and "osmo data check" in res.stdout
    assert osmo_calls(tmp_path) == [["data", "check", uri, "--access-type", "READ"]]  # nothing else ran
    denied = osmo_cli(tmp_path, "data", "check", uri, "--access", "write", "--json", FAKE_OSMO_DATA_DENY="s3://")
    assert denied.returncode == 1
    report = json.loads(denied.stdout)
    assert report["ok"] is False and "Access denied" in report["detail"] and report["access"] == "write"
    assert osmo_calls(tmp_path)[-1][-2:] == ["--access-type", "WRITE"]
    wrong = osmo_cli(tmp_path, "data", "check", "/etc/hosts")
    assert wrong.returncode == 2 and "s3://" in wrong.stderr


DENIED_SPEC = """\
workflow:
  name: upload-denied
  resources:
    default: {cpu: 1, memory: 1Gi}
  tasks:
  - name: export
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo 'botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied'; exit 1"]
    inputs:
    - url: s3://open-data/raw/
    outputs:
    - url: s3://locked-bucket/exports/
"""


def test_permission_diagnosis_confirms_with_access_checks_of_the_tasks_own_locations(tmp_path: Path) -> None:
    spec = tmp_path / "denied.yaml"
    spec.write_text(DENIED_SPEC)
    sub = as_json(osmo_cli(tmp_path, "submit", str(spec), "--pool", "h100-east", "--json"))
    deny = {"FAKE_OSMO_DATA_DENY": "s3://locked-bucket/"}
    for _ in range(30):
        if '"FAILED"' in osmo_cli(tmp_path, "status", sub["workflow_id"], "--json").stdout:
            break
    d = json.loads(osmo_cli(tmp_path, "diagnose", sub["workflow_id"], "--json", **deny).stdout.splitlines()[-1])
    assert d["label"] == "permission_or_auth"
    checks = {(c["uri"], c["access"]): c["ok"] for c in d["access_checks"]}
    assert checks == {("s3://open-data/raw/", "read"): True, ("s3://locked-bucket/exports/", "write"): False}
    text = osmo_cli(tmp_path, "diagnose", sub["workflow_id"], **deny).stdout
    assert "access check: write s3://locked-bucket/exports/ → no" in text
    calls = [c for c in osmo_calls(tmp_path) if c[:2] == ["data", "check"]]
    assert ["data", "check", "s3://locked-bucket/exports/", "--access-type", "WRITE"] in calls


def test_data_check_on_local_looks_at_the_path(tmp_path: Path) -> None:
    from cli_helpers import run

    (tmp_path / "data").mkdir()
    ok = run(tmp_path, "data", "check", str(tmp_path / "data"), "--backend", "local")
    assert ok.returncode == 0 and "folder can be listed and read" in ok.stdout
    missing = run(tmp_path, "data", "check", f"file://{tmp_path}/nope", "--backend", "local")
    assert missing.returncode == 1 and "does not exist" in missing.stdout
    new = run(tmp_path, "data", "check", str(tmp_path / "out" / "x"), "--access", "write", "--backend", "local")
    assert new.returncode == 0 and "where it would be created" in new.stdout


# ------------------------------------------------------------------------------------------- every scenario
OUT_OF_SCOPE = "out of scope"
SCENARIOS: dict[str, str] = {
    "osmo-user-002": "test_002_recent_workflows_table",
    "osmo-user-003": "test_003_status_with_progress_from_logs",
    "osmo-user-004": "test_004_resource_usage_is_the_grafana_link_not_numbers",
    "osmo-user-005": "test_005_dashboard_link_and_null_links_named",
    "osmo-user-006": "test_006_explain_from_the_template",
    "osmo-user-007": "test_007_submit_unchanged_to_a_free_h100_pool",
    "osmo-user-008": "test_008_jinja_values_go_through_set",
    "osmo-user-009": "test_009_recipe_sized_by_throughput_submitted_that_many_times_to_an_h100_pool",
    "osmo-user-010": OUT_OF_SCOPE,  # general NVIDIA product question
    "osmo-user-011": "test_011_012_pools_with_effective_availability",
    "osmo-user-012": "test_011_012_pools_with_effective_availability",
    "osmo-user-013": "test_013_pending_is_a_per_node_fit_problem",
    "osmo-user-014": "test_014_oom_doubles_memory",
    "osmo-user-015": "test_015_024_exit_127_jq_not_found_with_install_fix",
    "osmo-user-016": "test_016_image_pull_from_events_with_empty_logs",
    "osmo-user-017": "test_017_outputs_typo_after_completed",
    "osmo-user-018": "test_018_oversized_spec_is_refused_with_the_capacity_table",
    "osmo-user-019": "test_019_app_create_helper_from_the_template",
    "osmo-user-020": OUT_OF_SCOPE,  # deploying OSMO itself
    "osmo-user-021": OUT_OF_SCOPE,  # tainting/draining a Kubernetes node
    "osmo-user-022": OUT_OF_SCOPE,  # server-side OSMO config (pod templates)
    "osmo-user-023": OUT_OF_SCOPE,  # provisioning an AWS instance
    "osmo-user-024": "test_015_024_exit_127_jq_not_found_with_install_fix",
    "osmo-user-025": OUT_OF_SCOPE,  # Azure AKS / NIM Operator infrastructure
    "osmo-user-026": OUT_OF_SCOPE,  # Azure AKS provisioning without Azure prerequisites
    "osmo-user-027": "test_027_registry_credential_from_the_env_never_printed_or_stored",
    "osmo-user-028": "test_028_private_image_needs_a_registry_credential",
    "osmo-user-029": "test_029_validate_with_set_and_pool_never_submits",
    "osmo-user-030": "test_030_find_an_app_show_its_parameters_submit_v2_to_a_free_h100_pool",
    "osmo-user-031": "test_031_draft_with_url_io_private_image_and_topology_never_submitted",
    "osmo-user-032": "test_032_download_a_raw_storage_uri",
    "osmo-user-033": "test_033_read_access_check_of_a_raw_storage_uri",
    "osmo-user-034": "test_034_cancel_asks_first_and_never_forces",
    "osmo-user-035": OUT_OF_SCOPE,  # Kubernetes docker-registry secret for the NIM Operator
}


def _evals() -> list[dict[str, Any]]:
    return json.loads((fake_env.EVALS / "evals.json").read_text())


def test_every_scenario_is_classified_and_covered() -> None:
    ids = [s["id"] for s in _evals()]
    missing = [i for i in ids if i not in SCENARIOS]
    assert not missing, f"scenarios with no test and no out-of-scope verdict: {missing}"
    assert len(ids) == len(SCENARIOS) == 34
    for sid, test in SCENARIOS.items():
        if test != OUT_OF_SCOPE:
            assert callable(globals().get(test)), f"{sid}: {test} is not a test in this module"
    truth = {s["id"]: s["expected_skill"] is None for s in _evals()}
    assert {i for i, t in SCENARIOS.items() if t == OUT_OF_SCOPE} == {i for i, out in truth.items() if out}


ANSWER_NAMES = {
    "osmo-user-010": ["general product question", "nvidia"],
    "osmo-user-020": ["deploying", "osmo", "deployment guide"],
    "osmo-user-021": ["kubernetes cluster administration", "kubectl"],
    "osmo-user-022": ["server-side config", "pod templates", "osmo config"],
    "osmo-user-023": ["aws", "provisioning"],
    "osmo-user-025": ["aks", "nim operator", "infrastructure owner"],
    "osmo-user-026": ["aks", "login", "subscription", "quota"],
    "osmo-user-035": ["docker-registry secret", "kubectl", "osmo registry credential"],
}


@pytest.mark.parametrize("sid", sorted(i for i, t in SCENARIOS.items() if t == OUT_OF_SCOPE))
def test_out_of_scope_gets_a_plain_answer_no_osmo_call_no_plan(tmp_path: Path, sid: str) -> None:
    question = next(s["question"] for s in _evals() if s["id"] == sid)
    res = osmo_cli(tmp_path, question, "--yes", "--json")
    assert res.returncode == 2, res.stdout + res.stderr
    (answer,) = [json.loads(x) for x in res.stdout.splitlines() if x.startswith("{")]
    assert answer["event"] == "out_of_scope" and "outside what RunShepherd does" in answer["answer"]
    said = (answer["answer"] + " " + answer["handled_by"]).lower()
    for word in ANSWER_NAMES[sid]:  # the scenario's own expectation: what the request is, what handles it
        assert word in said, (word, said)
    assert osmo_calls(tmp_path) == []  # no osmo command ran
    assert not list((tmp_path / "state").rglob("*.sqlite*")) and "planned" not in res.stdout  # no session, no plan
    text = osmo_cli(tmp_path, question).stdout
    assert "Nothing was planned or run." in text and "submitted" not in text


def test_a_sweeps_running_points_read_their_log_tails_every_few_ticks_not_every_tick(tmp_path: Path) -> None:
    """`orchestrate run --sweep` on OSMO: each running point's progress line comes from an `osmo workflow logs`
    call; a point reads it when its status changes and then once per 5 ticks (one `workflow list` each), not on
    every tick. Before: every running point read its log tail on every tick (4 points, 6 s runs, 0.5 s ticks: 24 reads while running; now 12)."""
    spec = tmp_path / "pt.yaml"
    spec.write_text(
        "workflow:\n  name: pt\n  tasks:\n  - name: train\n    image: ubuntu:24.04\n"
        '    command: [sh, -c, "echo seed {{ seed }}; sleep 60"]\n\ndefault-values:\n  seed: 0\n'
    )
    args = ("run", "--spec", str(spec), "--sweep", "seed=1,2,3,4", "--yes", "--json", "--cadence", "0.5")
    res = osmo_cli(tmp_path, *args, timeout=120, FAKE_OSMO_EXECUTE="0", FAKE_OSMO_RUN_SECONDS="6")
    done = json.loads(res.stdout.strip().splitlines()[-1])
    assert res.returncode == 0 and done["outcome"] == "COMPLETED", res.stdout[-2000:] + res.stderr[-2000:]
    calls = osmo_calls(tmp_path)
    last_list = max(i for i, c in enumerate(calls) if c[:2] == ["workflow", "list"])  # the tick that saw them end
    ticks = sum(c[:2] == ["workflow", "list"] for c in calls[:last_list])
    while_running = Counter(c[2] for c in calls[:last_list] if c[:2] == ["workflow", "logs"])
    assert sorted(while_running) == sorted(done["workflow_ids"]), while_running  # each point showed progress
    # The rate limit counts clock ticks (0.5 s), not `workflow list` calls: a point reads when first seen running,
    # then every 2.5 s of its ~6 s run, so at most 4 (a slow poll can stretch the run past 3 periods: CI saw 4 with
    # 12 list calls). A per-tick reader made 6 each here before the change.
    # The reads are bounded before the run's length is checked: a per-tick reader's own log reads (each waits for
    # an idle gap) slow every point's loop and so thin out the ticks too (4-5 reads each in 12-13 ticks here, fewer
    # ticks on a loaded machine); without the rate limit it is a bound on reads that fails, not the precondition.
    assert all(n <= 4 for n in while_running.values()), (while_running, ticks)
    assert sum(while_running.values()) < len(while_running) * ticks // 2, (while_running, ticks)
    assert ticks >= 8, calls  # the run was long enough for a per-tick read to show (the bounds above are not vacuous)
