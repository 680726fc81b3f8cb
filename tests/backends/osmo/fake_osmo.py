"""A fake `osmo` CLI for tests: real output shapes (docs/architecture.md §6.4), state in $FAKE_OSMO_HOME, fixtures by id.

Submitted workflows really run: a detached runner executes each task's command (or simulates it when
FAKE_OSMO_EXECUTE=0), writes OSMO-format log and event lines, and "uploads" {{output}} to a folder-backed object
store, so submit → query → logs → cancel → data download behave like the service. Workflow ids listed in
FIXTURE_IDS are served from the fixture folders in $FAKE_OSMO_FIXTURES (colon-separated, first hit wins).

Knobs (environment): FAKE_OSMO_VERSION (6.3.0), FAKE_OSMO_BUSY=N (first N calls exit 75),
FAKE_OSMO_UNREACHABLE=1 (exit 10), FAKE_OSMO_AUTH_EXPIRED=1 or FAKE_OSMO_AUTH_EXPIRE_AFTER=N (then every call
fails with the re-login message until `osmo login`), FAKE_OSMO_LOGS_NEVER_END=1, FAKE_OSMO_EXECUTE (1),
FAKE_OSMO_RUN_SECONDS (simulated run length, 1), FAKE_OSMO_PENDING_SECONDS (0), FAKE_OSMO_SIM_EXIT (0),
FAKE_OSMO_NODE_CAPACITY ("gpu=64,cpu=192,memory=1500Gi,storage=1024Gi": larger requests fail validation).
Every call is appended to $FAKE_OSMO_HOME/calls.jsonl.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HOME = Path(os.environ.get("FAKE_OSMO_HOME", "/tmp/fake-osmo"))
FIXTURE_IDS = {
    "gr00t-train-1": "single_task",
    "stuck-train-1": "pending",
    "oom-train-1": "oom",
    "tool-train-1": "tool",
    "badimage-train-1": "badimage",
    "private-image-1": "private_image",
    "sdg-train-1": "sdg",
    "gr00t-app-run-1": "app_run",
}
ALIVE = {"PENDING", "RUNNING", "WAITING"}
SERVER = "https://osmo.fake.test"
INTERMEDIATE = "s3://fake-osmo-intermediate"
RELOGIN = 'Access token expired. Please re-login with "osmo login"'


# ------------------------------------------------------------------------------------------------ plumbing
def now() -> datetime:
    return datetime.now(UTC)


def iso(dt: datetime | None) -> str | None:
    return dt.strftime("%Y-%m-%dT%H:%M:%S.%f") if dt else None


def stamp(dt: datetime | None = None) -> str:
    return (dt or now()).strftime("%Y/%m/%d %H:%M:%S")


def fail(message: str, code: int, exit_code: int, json_mode: bool = True) -> None:
    if json_mode:
        print(json.dumps({"message": message, "code": code}))
    else:
        print(f"Error message: {message}\nError code: {code}")
    sys.exit(exit_code)


def fixture(name: str) -> Path | None:
    for d in filter(None, os.environ.get("FAKE_OSMO_FIXTURES", "").split(":")):
        for sub in ("", "default", "submit_err", "submit_ok", "app_ok"):
            p = Path(d) / sub / name
            if p.is_file():
                return p
    return None


def read_json(p: Path, default: Any = None) -> Any:
    try:
        return json.loads(p.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return default


def write_json(p: Path, data: Any) -> None:
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(p)


def count_call() -> int:
    HOME.mkdir(parents=True, exist_ok=True)
    with open(HOME / "counter.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        n = int(read_json(HOME / "counter.json", 0)) + 1
        write_json(HOME / "counter.json", n)
    return n


def gate(argv: list[str]) -> None:
    """Knobs that make every command fail the way the real CLI does."""
    with open(HOME / "calls.jsonl", "a") as fh:
        fh.write(json.dumps(argv) + "\n")
    if argv[:1] == ["login"]:
        (HOME / "auth_expired").unlink(missing_ok=True)
        write_json(HOME / "counter.json", 0)
        print("Successfully logged in.")
        sys.exit(0)
    n = count_call()
    after = os.environ.get("FAKE_OSMO_AUTH_EXPIRE_AFTER")
    if os.environ.get("FAKE_OSMO_AUTH_EXPIRED") == "1" or (after and n > int(after)):
        (HOME / "auth_expired").touch()
    if (HOME / "auth_expired").exists():
        fail(RELOGIN, 401, 2)
    if os.environ.get("FAKE_OSMO_UNREACHABLE") == "1":
        fail(f"Unable to connect to {SERVER}: connection refused", 1, 10)
    if n <= int(os.environ.get("FAKE_OSMO_BUSY", "0")):
        fail("Too many requests, please retry later", 429, 75)


# ------------------------------------------------------------------------------------------------ records
def wf_dir(wid: str) -> Path:
    return HOME / "workflows" / wid


def load(wid: str) -> dict[str, Any] | None:
    return read_json(wf_dir(wid) / "record.json")


def not_found(wid: str) -> None:
    fail(f"Workflow {wid} not found", 404, 2)


def storage_path(url: str) -> Path:
    scheme, _, rest = url.partition("://")
    return HOME / "storage" / scheme / rest.strip("/")


def task_resources(wf: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
    profiles = wf.get("resources") or {}
    res = dict(profiles.get(task.get("resource", "default")) or {})
    res.update(task.get("resources") or {})
    return res


def size_gi(v: Any) -> float:
    m = re.match(r"^\s*([0-9.]+)\s*([KMGT]i)?", str(v))
    if not m:
        return 0.0
    return float(m.group(1)) * {"Ki": 2**-20, "Mi": 2**-10, "Gi": 1, "Ti": 1024, None: 2**-30}[m.group(2)]


def capacity_problems(wf: dict[str, Any]) -> list[str]:
    spec = os.environ.get("FAKE_OSMO_NODE_CAPACITY")
    if not spec:
        return []
    cap = dict(kv.split("=") for kv in spec.split(","))
    bad = []
    for t in all_tasks(wf):
        res = task_resources(wf, t)
        for key in ("gpu", "cpu"):
            if key in res and float(res[key]) > float(cap[key]):
                bad.append(t["name"])
        for key in ("memory", "storage"):
            if key in res and size_gi(res[key]) > size_gi(cap[key]):
                bad.append(t["name"])
    return sorted(set(bad))


def all_tasks(wf: dict[str, Any]) -> list[dict[str, Any]]:
    if wf.get("tasks"):
        return [{**t, "_group": f"{t['name']}-group"} for t in wf["tasks"]]
    return [{**t, "_group": g["name"]} for g in wf.get("groups") or [] for t in g.get("tasks") or []]


# ------------------------------------------------------------------------------------------------ submit
def render(template: str, values: dict[str, Any]) -> str:
    import jinja2
    import yaml

    kept, block, in_defaults = [], [], False
    for line in template.splitlines(keepends=True):
        if re.match(r"^default-values\s*:", line):
            in_defaults = True
        elif in_defaults and re.match(r"^\S", line):
            in_defaults = False
        (block if in_defaults else kept).append(line)
    body = "".join(kept)
    defaults = (yaml.safe_load("".join(block)) or {}).get("default-values") or {} if block else {}
    keep = re.compile(r"\{\{\s*(output|input:\d+|workflow_id|host:[\w-]+)\s*\}\}")
    protected = keep.sub(lambda m: "@@" + m.group(1) + "@@", body)
    out = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(protected).render(**{**defaults, **values})
    return re.sub(r"@@(output|input:\d+|workflow_id|host:[\w-]+)@@", lambda m: "{{" + m.group(1) + "}}", out)


def cast(v: str) -> Any:
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def cmd_validate(a: argparse.Namespace) -> None:
    """Renders and checks like submit; records nothing (the CLI's `workflow validate`)."""
    import yaml

    text = Path(a.file).read_text()
    values = {k: cast(v) for k, _, v in (p.partition("=") for p in a.set or [])}
    values.update({k: v for k, _, v in (p.partition("=") for p in a.set_string or [])})
    try:
        rendered = render(text, values)
    except Exception as exc:  # the fake reports any template problem like the service does
        fail(f"Workflow template rendering failed: {exc}", 400, 1)
    wf = yaml.safe_load(rendered)["workflow"]
    bad = capacity_problems(wf)
    if bad:
        fx = fixture("submit_validation_error.txt")
        print(fx.read_text() if fx else f"Resource validation failed for task: {bad[0]}")
        sys.exit(1)
    fx = fixture("workflow_validate_response.txt")
    print(fx.read_text().strip() if fx else "Workflow validation succeeded.")


def cmd_submit(a: argparse.Namespace) -> None:
    import yaml

    text = Path(a.file).read_text()
    values = {k: cast(v) for k, _, v in (p.partition("=") for p in a.set or [])}
    values.update({k: v for k, _, v in (p.partition("=") for p in a.set_string or [])})
    try:
        rendered = render(text, values)
    except Exception as exc:  # the fake reports any template problem like the service does
        fail(f"Workflow template rendering failed: {exc}", 400, 1)
    wf = yaml.safe_load(rendered)["workflow"]
    pools = [p["name"] for ns in pool_list()["node_sets"] for p in ns["pools"]]
    pool = a.pool or read_json(HOME / "profile_pool.json") or pools[0]
    if pool not in pools:
        fail(f"Pool {pool} does not exist", 404, 1)
    bad = capacity_problems(wf)
    if bad:
        fx = fixture("submit_validation_error.txt")
        print(
            fx.read_text()
            if fx
            else f"Resource validation failed for task: {bad[0]}\n"
            'Please check available resources with "osmo resource list".'
        )
        sys.exit(1)
    with open(HOME / "counter.lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        n = 1
        while wf_dir(f"{wf['name']}-{n}").exists() or wf["name"] + f"-{n}" in FIXTURE_IDS:
            n += 1
        wid = f"{wf['name']}-{n}"
        wf_dir(wid).mkdir(parents=True)
    rendered = rendered.replace("{{workflow_id}}", wid)
    wf = yaml.safe_load(rendered)["workflow"]
    record = {
        "id": wid,
        "name": wf["name"],
        "pool": pool,
        "priority": a.priority,
        "labels": dict(p.partition("=")[::2] for p in a.label or []),
        "submit_time": iso(now()),
        "template": text,
        "rendered": rendered,
        "workflow": wf,
        "user": "user@example.com",
        "knobs": {k: os.environ[k] for k in os.environ if k.startswith("FAKE_OSMO_")},
    }
    write_json(wf_dir(wid) / "record.json", record)
    write_json(wf_dir(wid) / "state.json", {"tasks": {}})
    subprocess.Popen(
        [sys.executable, __file__, "__run", wid],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=os.environ.copy(),
    )
    resp = {
        "name": wid,
        "overview": f"{SERVER}/workflows/{wid}",
        "logs": f"{SERVER}/api/workflow/{wid}/logs",
        "spec": None,
        "dashboard_url": None,
        "warnings": [],
    }
    if a.format_type == "json":
        print(json.dumps(resp))
    else:
        print(f"Workflow submit successful.\nWorkflow ID        - {wid}\nWorkflow Overview  - {resp['overview']}")


# ------------------------------------------------------------------------------------------------ runner
def runner(wid: str) -> None:
    """Detached: run each task in order, OSMO-format logs/events, upload {{output}} on success."""
    rec = load(wid)
    assert rec is not None
    knobs = rec["knobs"]
    d = wf_dir(wid)
    write_json(d / "runner.json", {"pid": os.getpid()})
    time.sleep(float(knobs.get("FAKE_OSMO_PENDING_SECONDS", "0")))
    tasks = all_tasks(rec["workflow"])
    st = read_json(d / "state.json")
    failed = False
    for t in tasks:
        name = t["name"]
        if failed:
            st["tasks"][name] = {"status": "FAILED_UPSTREAM", "end": iso(now())}
            write_json(d / "state.json", st)
            continue
        out_dir = d / "out" / name
        out_dir.mkdir(parents=True, exist_ok=True)
        st["tasks"][name] = {"status": "RUNNING", "start": iso(now()), "scheduling": iso(now())}
        write_json(d / "state.json", st)
        event(d, f"{stamp()} [{name}] PodScheduled: True, Reason: Scheduled, Message: assigned to fake-node-1")
        event(d, f"{stamp()} [{name}] Started: Started container {name}")
        if knobs.get("FAKE_OSMO_EXECUTE", "1") == "1":
            code = execute(d, t, out_dir, wid)
        else:
            log(d, name, f"running {t.get('image')} (simulated)")
            time.sleep(float(knobs.get("FAKE_OSMO_RUN_SECONDS", "1")))
            code = int(knobs.get("FAKE_OSMO_SIM_EXIT", "0"))
        if code == 0:
            for url in [o["url"] for o in t.get("outputs") or [] if isinstance(o.get("url"), str)] + [
                f"{INTERMEDIATE}/{wid}/{name}"
            ]:
                log(d, name, f"Uploading outputs to {url}", osmo=True)
                shutil.copytree(out_dir, storage_path(url), dirs_exist_ok=True)
            st["tasks"][name] = {**st["tasks"][name], "status": "COMPLETED", "exit_code": 0, "end": iso(now())}
        else:
            failed = True
            st["tasks"][name] = {
                **st["tasks"][name],
                "status": "FAILED",
                "exit_code": code,
                "end": iso(now()),
                "failure_message": f"Container command exited with code {code}",
            }
        write_json(d / "state.json", st)


def execute(d: Path, t: dict[str, Any], out_dir: Path, wid: str) -> int:
    files_root = d / "files" / t["name"]
    argv = [*t.get("command", []), *t.get("args", [])]
    for f in t.get("files") or []:
        local = files_root / f["path"].lstrip("/")
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_text(str(f.get("contents", "")).replace("{{output}}", str(out_dir)))
        argv = [x.replace(f["path"], str(local)) for x in argv]
    argv = [x.replace("{{output}}", str(out_dir)).replace("{{workflow_id}}", wid) for x in argv]
    env = {**os.environ, **{k: str(v) for k, v in (t.get("environment") or {}).items()}}
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=out_dir)
    assert proc.stdout is not None
    for line in proc.stdout:
        log(d, t["name"], line.rstrip("\n"))
    return proc.wait()


def log(d: Path, task: str, text: str, osmo: bool = False) -> None:
    with open(d / "logs.txt", "a") as fh:
        fh.write(f"{stamp()} [{task}]{'[osmo]' if osmo else ''} {text}\n")


def event(d: Path, line: str) -> None:
    with open(d / "events.txt", "a") as fh:
        fh.write(line + "\n")


# ------------------------------------------------------------------------------------------------ query
def status_of(rec: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    st = read_json(wf_dir(rec["id"]) / "state.json", {"tasks": {}})
    tasks = [st["tasks"].get(t["name"], {"status": "SCHEDULING"}) for t in all_tasks(rec["workflow"])]
    statuses = [t["status"] for t in tasks]
    if st.get("canceled"):
        return "FAILED_CANCELED", st
    if any(s in ("RUNNING", "SCHEDULING") for s in statuses):
        return ("RUNNING" if "RUNNING" in statuses else "PENDING"), st
    if all(s == "COMPLETED" for s in statuses):
        return "COMPLETED", st
    return "FAILED", st


def query_json(rec: dict[str, Any]) -> dict[str, Any]:
    wid = rec["id"]
    status, st = status_of(rec)
    groups: dict[str, dict[str, Any]] = {}
    for t in all_tasks(rec["workflow"]):
        s = st["tasks"].get(t["name"], {"status": "SCHEDULING"})
        task_status = (
            s["status"] if not st.get("canceled") or s["status"] not in ALIVE | {"SCHEDULING"} else "FAILED_CANCELED"
        )
        g = groups.setdefault(
            t["_group"],
            {
                "name": t["_group"],
                "status": task_status,
                "tasks": [],
                "failure_message": None,
                "start_time": s.get("start"),
                "end_time": s.get("end"),
            },
        )
        g["tasks"].append(
            {
                "name": t["name"],
                "retry_id": 0,
                "status": task_status,
                "failure_message": s.get("failure_message"),
                "exit_code": s.get("exit_code"),
                "logs": f"{SERVER}/api/workflow/{wid}/logs?task_name={t['name']}",
                "error_logs": None,
                "processing_start_time": rec["submit_time"],
                "scheduling_start_time": s.get("scheduling"),
                "initializing_start_time": s.get("start"),
                "events": f"{SERVER}/api/workflow/{wid}/events",
                "start_time": s.get("start"),
                "end_time": s.get("end"),
                "input_download_start_time": None,
                "input_download_end_time": None,
                "output_upload_start_time": None,
                "dashboard_url": None,
                "pod_name": f"{wid}-{t['name']}",
                "pod_ip": None,
                "task_uuid": "0" * 32,
                "node_name": "fake-node-1",
                "lead": bool(t.get("lead")) or len(all_tasks(rec["workflow"])) == 1,
            }
        )
    starts = [s.get("start") for s in st["tasks"].values() if s.get("start")]
    ends = [s.get("end") for s in st["tasks"].values() if s.get("end")]
    out = {
        "name": wid,
        "uuid": "f" * 32,
        "submitted_by": rec["user"],
        "cancelled_by": None,
        "spec": f"{SERVER}/api/workflow/{wid}/spec",
        "template_spec": f"{SERVER}/api/workflow/{wid}/spec?use_template=true",
        "logs": f"{SERVER}/api/workflow/{wid}/logs?last_n_lines=1000",
        "events": f"{SERVER}/api/workflow/{wid}/events",
        "overview": f"{SERVER}/workflows/{wid}",
        "parent_name": None,
        "parent_job_id": None,
        "dashboard_url": None,
        "grafana_url": None,
        "tags": [],
        "submit_time": rec["submit_time"],
        "start_time": min(starts) if starts else None,
        "end_time": (max(ends) if ends else iso(now())) if status not in ALIVE else None,
        "exec_timeout": None,
        "queue_timeout": None,
        "duration": None,
        "queued_time": 0.0,
        "status": status,
        "outputs": f"{INTERMEDIATE}/{wid}",
        "groups": list(groups.values()),
        "pool": rec["pool"],
        "backend": "fake",
        "app_owner": None,
        "app_name": None,
        "app_version": None,
        "plugins": {"rsync": False},
        "priority": rec["priority"],
    }
    if version_tuple() > (6, 3):
        out.update(labels=rec["labels"], warnings=[])
    return out


def cmd_query(a: argparse.Namespace) -> None:
    rec = load(a.id)
    if rec is not None:
        print(json.dumps(query_json(rec)))
        return
    fx = fixture(f"workflow_query_{FIXTURE_IDS.get(a.id, '-')}.json")
    if fx is None:
        not_found(a.id)
    print(fx.read_text())


def cmd_list(a: argparse.Namespace) -> None:
    """`osmo workflow list`: the server returns the newest first, `--offset` skips the newest N, `--count` rows are
    kept (the CLI pages by 1000 itself), and `--order asc` (the default) reverses them: latest at the bottom."""
    rows = []
    for d in sorted((HOME / "workflows").glob("*/record.json")):
        rec = read_json(d)
        q = query_json(rec)
        row = {
            k: q.get(k)
            for k in (
                "name",
                "submit_time",
                "start_time",
                "end_time",
                "queued_time",
                "duration",
                "status",
                "overview",
                "logs",
                "grafana_url",
                "dashboard_url",
                "pool",
                "app_owner",
                "app_name",
                "app_version",
                "priority",
            )
        } | {"user": rec["user"], "workflow_uuid": q["uuid"], "labels": rec["labels"]}
        if str(row["status"]).startswith("FAILED"):
            row["error_logs"] = f"{SERVER}/api/workflow/{rec['id']}/error_logs"
        rows.append(row)
    fx = fixture("workflow_list.json")
    if fx:
        rows += json.loads(fx.read_text())["workflows"]
    if a.status:
        rows = [r for r in rows if r["status"] in a.status]
    if a.pool:
        rows = [r for r in rows if r.get("pool") in a.pool]
    if a.name:
        rows = [r for r in rows if a.name in r["name"]]
    if a.user:
        rows = [r for r in rows if r.get("user") in a.user]
    if a.priority:
        rows = [r for r in rows if r.get("priority") in a.priority]
    if a.app:
        app, _, version = a.app.partition(":")
        rows = [r for r in rows if r.get("app_name") == app and (not version or str(r.get("app_version")) == version)]
    if a.submitted_after:
        rows = [r for r in rows if (r["submit_time"] or "") >= a.submitted_after]
    if a.submitted_before:
        rows = [r for r in rows if (r["submit_time"] or "") < a.submitted_before]
    for sel in a.label or []:
        k, _, v = sel.partition("=")
        rows = [r for r in rows if (r.get("labels") or {}).get(k) == v]
    rows.sort(key=lambda r: r["submit_time"] or "", reverse=True)
    rows = rows[a.offset : a.offset + a.count]
    if a.order == "asc":
        rows.reverse()
    if version_tuple() <= (6, 3):  # labels in list JSON are HEAD only
        for r in rows:
            r.pop("labels", None)
    print(json.dumps({"workflows": rows}))


# ------------------------------------------------------------------------------------------------ streams
def task_filter(lines: list[str], task: str | None) -> list[str]:
    if not task:
        return lines
    pat = re.compile(r"^[^ ]+ [^ ]+ \[" + re.escape(task) + r"( retry-\d+)?\]")
    return [ln for ln in lines if pat.match(ln)]


def stream(a: argparse.Namespace, kind: str) -> None:
    rec = load(a.id)
    never_end = os.environ.get("FAKE_OSMO_LOGS_NEVER_END") == "1"
    if rec is None:
        stem = FIXTURE_IDS.get(a.id)
        if stem is None:
            not_found(a.id)
        print(f"Workflow {a.id} has {kind}:", flush=True)
        fx = fixture(f"workflow_{kind}_{stem}.txt")
        lines = fx.read_text().splitlines() if fx else []
        print("\n".join(lines[-a.n :] if getattr(a, "n", None) else lines), flush=True)
        qfx = fixture(f"workflow_query_{stem}.json")
        alive = qfx is not None and json.loads(qfx.read_text())["status"] in ALIVE
        if alive or never_end:  # a live workflow's stream does not end
            time.sleep(3600)
        return
    path = wf_dir(a.id) / f"{kind}.txt"
    print(f"Workflow {a.id} has {kind}:", flush=True)
    seen = path.read_text().splitlines() if path.exists() else []
    shown = task_filter(seen, a.task)
    n = getattr(a, "n", None)
    for ln in shown[-n:] if n else shown:
        print(ln, flush=True)
    while status_of(load(a.id))[0] in ALIVE:
        time.sleep(0.1)
        now_lines = path.read_text().splitlines() if path.exists() else []
        for ln in task_filter(now_lines[len(seen) :], a.task):
            print(ln, flush=True)
        seen = now_lines
    if never_end:
        time.sleep(3600)


def cmd_spec(a: argparse.Namespace) -> None:
    rec = load(a.id)
    if rec is not None:
        sys.stdout.write(rec["template"] if a.template else rec["rendered"])
        return
    stem = FIXTURE_IDS.get(a.id)
    if stem is None:
        not_found(a.id)
    names = ["workflow_spec_template.yaml"] if a.template and stem == "single_task" else []
    names += [f"workflow_spec_{stem}.yaml", "workflow_spec_template.yaml" if stem == "single_task" else ""]
    for n in filter(None, names):
        fx = fixture(n)
        if fx:
            sys.stdout.write(fx.read_text())
            return
    fail(f"Spec for workflow {a.id} is not available", 404, 2)


def cmd_cancel(a: argparse.Namespace) -> None:
    for wid in a.ids:
        rec = load(wid)
        if rec is None:
            print(f"Workflow cancelation failed for workflow {wid}: Workflow {wid} not found")
            continue
        if status_of(rec)[0] not in ALIVE:
            print(f"Workflow cancelation failed for workflow {wid}: Workflow {wid} has already finished")
            continue
        runner_pid = (read_json(wf_dir(wid) / "runner.json") or {}).get("pid")
        st = read_json(wf_dir(wid) / "state.json")
        st["canceled"] = True
        for _name, s in st["tasks"].items():
            if s["status"] in ("RUNNING", "SCHEDULING"):
                s.update(status="FAILED_CANCELED", end=iso(now()))
        write_json(wf_dir(wid) / "state.json", st)
        if runner_pid:
            try:
                os.killpg(runner_pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        print(json.dumps({"name": wid}) if a.format_type == "json" else f"Cancel job for workflow {wid} is submitted!")


# ------------------------------------------------------------------------------------------------ pools, data, apps
def pool_list() -> dict[str, Any]:
    fx = fixture("pool_list.json")
    return json.loads(fx.read_text()) if fx else {"node_sets": []}


def cmd_resource_list(a: argparse.Namespace) -> None:
    fx = fixture("resource_list.json")
    data = json.loads(fx.read_text()) if fx else {"resources": []}
    if a.pool:
        known = [p["name"] for ns in pool_list()["node_sets"] for p in ns["pools"]]
        if any(p not in known for p in a.pool):
            fail(f"Pool {a.pool[0]} does not exist", 404, 2)
        data["resources"] = [r for r in data["resources"] if set(r.get("pool_platform_labels", {})) & set(a.pool)]
    print(json.dumps(data))


def cmd_data_download(a: argparse.Namespace) -> None:
    src = storage_path(a.remote_uri)
    if not src.exists():
        fx = fixture("data_download_response.txt")
        if fx and a.remote_uri.startswith("s3://robotics-artifacts/"):
            print(fx.read_text())
            return
        fail(f"No objects found at {a.remote_uri}", 404, 2, json_mode=False)
    dest = Path(a.local_path)
    dest.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        shutil.copytree(src, dest / src.name, dirs_exist_ok=True)
    else:
        shutil.copy2(src, dest / src.name)
    print(f"Data download successful.\nURI: {a.remote_uri}\nPath: {dest}")


def cmd_data_check(a: argparse.Namespace) -> None:
    """Prints the real CLI's JSON verdict; FAKE_OSMO_DATA_DENY=prefix[,prefix] makes matching URIs fail."""
    denied = [p for p in os.environ.get("FAKE_OSMO_DATA_DENY", "").split(",") if p and a.remote_uri.startswith(p)]
    if denied:
        err = f"Access denied: {a.access_type or 'READ'} on {a.remote_uri} (no DATA credential grants it)"
        print(json.dumps({"status": "fail", "error": err}))
    else:
        print(json.dumps({"status": "pass"}))


def cmd_app_create(a: argparse.Namespace) -> None:
    path = HOME / "apps" / f"{a.name}.json"
    if path.exists() or (
        fixture("app_info_response.txt") and a.name == "gr00t-train" and os.environ.get("FAKE_OSMO_APP_EXISTS") == "1"
    ):
        fail(f"App {a.name} already exists", 409, 2, json_mode=False)
    write_json(path, {"name": a.name, "description": a.description, "spec": Path(a.file).read_text(), "version": 1})
    print(f"App {a.name} created successfully")


def known_apps() -> dict[str, dict[str, Any]]:
    """Apps created through the fake, plus the skill fixtures' gr00t-train (versions 1 and 2) when served."""
    apps: dict[str, dict[str, Any]] = {}
    info, spec = fixture("app_info_response.txt"), fixture("app_spec_response.yaml")
    if info and spec:
        text = info.read_text()
        versions = [int(v) for v in re.findall(r"^(\d+)\s+\S+\s+READY", text, re.MULTILINE)]
        desc = re.search(r"^Description:\s*(.+)$", text, re.MULTILINE)
        apps["gr00t-train"] = {
            "name": "gr00t-train",
            "description": desc.group(1).strip() if desc else "",
            "versions": versions or [1],
            "spec": spec.read_text(),
            "owner": "user@example.com",
        }
    for f in sorted((HOME / "apps").glob("*.json")):
        rec = read_json(f)
        apps[rec["name"]] = {**rec, "versions": list(range(1, rec["version"] + 1)), "owner": "user@example.com"}
    return apps


def app_ref(ref: str) -> tuple[dict[str, Any], int]:
    name, _, ver = ref.partition(":")
    app = known_apps().get(name)
    if app is None:
        fail(f"App {name} not found", 404, 1, json_mode=False)
    version = int(ver) if ver else max(app["versions"])  # type: ignore[index]
    if version not in app["versions"]:  # type: ignore[index]
        fail(f"App {name} version {version} not found", 404, 1, json_mode=False)
    return app, version  # type: ignore[return-value]


def cmd_app_list(a: argparse.Namespace) -> None:
    rows = [
        {
            "uuid": f"app-{n}",
            "name": n,
            "description": app["description"],
            "created_date": "2026-08-01T00:00:00",
            "owner": app["owner"],
            "latest_version": max(app["versions"]),
        }
        for n, app in known_apps().items()
        if not a.name or a.name in n
    ]
    if a.format_type == "json":
        print(json.dumps({"apps": rows}, indent=2))
    elif not rows:
        print("There are no apps to view.")
    else:
        print("Owner  Name  Description  Created Date  Latest Version")
        for r in rows:
            print(f"{r['owner']}  {r['name']}  {r['description']}  {r['created_date']}  {r['latest_version']}")


def cmd_app_info(a: argparse.Namespace) -> None:
    app, version = app_ref(a.name)
    shown = [version] if ":" in a.name else app["versions"]
    body = {
        "uuid": f"app-{app['name']}",
        "name": app["name"],
        "description": app["description"],
        "created_date": "2026-08-01T00:00:00",
        "owner": app["owner"],
        "versions": [
            {"version": v, "created_by": app["owner"], "created_date": "2026-08-01T00:00:00", "status": "READY"}
            for v in shown
        ],
    }
    print(json.dumps(body, indent=2) if a.format_type == "json" else json.dumps(body))


def cmd_app_show(a: argparse.Namespace) -> None:
    """DESCRIPTION, then PARAMETERS: the spec's default-values (printed as the real CLI does, a mapping)."""
    import yaml

    app, _ = app_ref(a.name)
    fx = fixture("app_show_response.txt")
    if fx and app["name"] == "gr00t-train":
        print(fx.read_text().rstrip())
        return
    defaults = (yaml.safe_load(app["spec"]) or {}).get("default-values") or {}
    print(f"DESCRIPTION\n    {app['description']}\n")
    if defaults:
        print(f"PARAMETERS\n    {defaults}")


def cmd_app_spec(a: argparse.Namespace) -> None:
    app, _ = app_ref(a.name)
    print(app["spec"])


def cmd_app_submit(a: argparse.Namespace) -> None:
    app_ref(a.name)
    pools = [p["name"] for ns in pool_list()["node_sets"] for p in ns["pools"]]
    if a.pool and a.pool not in pools:
        fail(f"Pool {a.pool} does not exist", 404, 1)
    fx = fixture("app_submit_response.txt")
    if fx is None:
        fail(f"App {a.name} not found", 404, 2)
    text = fx.read_text()
    wid = re.search(r"Workflow ID\s*-\s*(\S+)", text).group(1)  # type: ignore[union-attr]
    print(
        json.dumps({"name": wid, "overview": f"https://osmo.example.com/workflows/{wid}", "warnings": []})
        if a.format_type == "json"
        else text
    )


def cmd_credential(a: argparse.Namespace) -> None:
    """Server-side credentials; the fake keeps each value's sha256 only (a test can check what arrived)."""
    import hashlib

    path = HOME / "credentials.json"
    creds = read_json(path, {})
    if a.cmd == "list":
        rows = [{"cred_name": n, "cred_type": c["cred_type"], "profile": c["profile"]} for n, c in creds.items()]
        if a.format_type == "json":
            print(json.dumps({"credentials": rows}, indent=2))
        elif not rows and fixture("credential_list_response.txt"):
            print(fixture("credential_list_response.txt").read_text().strip())  # type: ignore[union-attr]
        else:
            print(
                "Name  Type  Profile  Local\n"
                + "\n".join(f"{r['cred_name']}  {r['cred_type']}  {r['profile']}  N/A" for r in rows)
            )
        return
    if a.cmd == "delete":
        if a.name not in creds:
            fail(f"Credential {a.name} not found", 404, 1, json_mode=False)
        ctype = creds.pop(a.name)["cred_type"]
        write_json(path, creds)
        print(f"Deleted credential {a.name}.")
        return
    if not re.fullmatch(r"[a-zA-Z][a-zA-Z0-9_-]*", a.name):
        fail(f"Invalid name: {a.name}. Names can only consist of letters, numbers, -, and _.", 400, 2, False)
    payload = {}
    for item in a.payload or a.payload_file:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            print("Error: Please provide non-empty keys and values.")
            sys.exit(1)
        if a.payload_file:
            try:
                value = Path(value).read_text()
            except FileNotFoundError:
                print(f"File {value} cannot be found.")
                sys.exit(1)
        payload[key] = value
    required = {"REGISTRY": "auth", "DATA": "endpoint"}.get(a.type)
    if required and required not in payload:
        fail(f"{required} is required for {a.type} credentials.", 400, 1, json_mode=False)
    profile = payload.get("registry") or payload.get("endpoint") or "-"
    creds[a.name] = {
        "cred_type": a.type,
        "profile": profile if a.type != "GENERIC" else "-",
        "sha256": {k: hashlib.sha256(v.encode()).hexdigest() for k, v in payload.items()},
    }
    write_json(path, creds)
    ctype = a.type
    print(
        json.dumps({"cred_name": a.name, "cred_type": ctype})
        if a.format_type == "json"
        else f"Set {ctype} credential {a.name}."
    )


def version_tuple() -> tuple[int, int]:
    major, minor, *_ = (os.environ.get("FAKE_OSMO_VERSION") or "6.3.0").split(".")
    return int(major), int(minor)


def cmd_version(a: argparse.Namespace) -> None:
    major, minor, rev = ((os.environ.get("FAKE_OSMO_VERSION") or "6.3.0").split(".") + ["0"])[:3]
    part = {"major": major, "minor": minor, "revision": rev, "hash": ""}
    if a.format_type == "json":
        print(json.dumps({"client": part, "service": part}))
    else:
        print(f"OSMO client version:  {major}.{minor}.{rev}\nOSMO service version: {major}.{minor}.{rev}")


def cmd_profile(a: argparse.Namespace) -> None:
    fx = fixture("profile_list.json")
    print(fx.read_text() if fx else json.dumps({"profile": {"pool": None}, "pools": []}))


# ------------------------------------------------------------------------------------------------ main
def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="osmo")
    sub = p.add_subparsers(dest="group", required=True)

    def fmt(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--format-type", "-t", default="text")

    wf = sub.add_parser("workflow").add_subparsers(dest="cmd", required=True)
    s = wf.add_parser("submit")
    s.add_argument("file")
    fmt(s)
    s.add_argument("--set", nargs="+", action="extend")
    s.add_argument("--set-string", nargs="+", action="extend")
    s.add_argument("--pool", "-p")
    s.add_argument("--priority", default="NORMAL")
    s.add_argument("--label", action="append")
    s.set_defaults(fn=cmd_submit)
    v = wf.add_parser("validate")
    v.add_argument("file")
    v.add_argument("--set", nargs="+", action="extend")
    v.add_argument("--set-string", nargs="+", action="extend")
    v.add_argument("--pool", "-p")
    v.add_argument("--label", action="append")
    v.set_defaults(fn=cmd_validate)
    q = wf.add_parser("query")
    q.add_argument("id")
    fmt(q)
    q.set_defaults(fn=cmd_query)
    ls = wf.add_parser("list")
    fmt(ls)
    ls.add_argument("--count", "-c", type=int, default=20)
    ls.add_argument("--offset", "-f", type=int, default=0)
    ls.add_argument("--order", "-o", default="asc", choices=("asc", "desc"))
    ls.add_argument("--status", "-s", nargs="+")
    ls.add_argument("--pool", "-p", nargs="+")
    ls.add_argument("--name", "-n")
    ls.add_argument("--label", action="append")
    ls.add_argument("--submitted-after", type=lambda v: datetime.strptime(v, "%Y-%m-%d").strftime("%Y-%m-%d"))
    ls.add_argument("--submitted-before", type=lambda v: datetime.strptime(v, "%Y-%m-%d").strftime("%Y-%m-%d"))
    ls.add_argument("--priority", nargs="+", type=str.upper)
    users = ls.add_mutually_exclusive_group()
    users.add_argument("--user", "-u", nargs="+", default=[])
    users.add_argument("--all-users", "-a", action="store_true")
    ls.add_argument("--app", "-P")
    ls.set_defaults(fn=cmd_list)
    for kind in ("logs", "events"):
        lg = wf.add_parser(kind)
        lg.add_argument("id")
        lg.add_argument("--task", "-t")
        if kind == "logs":
            lg.add_argument("-n", type=int)
        lg.set_defaults(fn=lambda a, k=kind: stream(a, k))
    sp = wf.add_parser("spec")
    sp.add_argument("id")
    sp.add_argument("--template", action="store_true")
    sp.set_defaults(fn=cmd_spec)
    c = wf.add_parser("cancel")
    c.add_argument("ids", nargs="+")
    fmt(c)
    c.add_argument("--force", "-f", action="store_true")
    c.set_defaults(fn=cmd_cancel)
    pl = sub.add_parser("pool").add_subparsers(dest="cmd", required=True).add_parser("list")
    fmt(pl)
    pl.add_argument("--mode", "-m")
    pl.set_defaults(fn=lambda a: print(json.dumps(pool_list())))
    rl = sub.add_parser("resource").add_subparsers(dest="cmd", required=True).add_parser("list")
    fmt(rl)
    rl.add_argument("--pool", "-p", nargs="+")
    rl.add_argument("--mode", "-m")
    rl.set_defaults(fn=cmd_resource_list)
    data = sub.add_parser("data").add_subparsers(dest="cmd", required=True)
    dd = data.add_parser("download")
    dd.add_argument("remote_uri")
    dd.add_argument("local_path")
    dd.set_defaults(fn=cmd_data_download)
    dc = data.add_parser("check")
    dc.add_argument("remote_uri")
    dc.add_argument("--access-type", "-a", choices=["READ", "WRITE", "DELETE"])
    dc.add_argument("--config-file", "-c")
    dc.set_defaults(fn=cmd_data_check)
    apps = sub.add_parser("app").add_subparsers(dest="cmd", required=True)
    ac = apps.add_parser("create")
    ac.add_argument("name")
    ac.add_argument("--description", "-d", required=True)
    ac.add_argument("--file", "-f", required=True)
    ac.set_defaults(fn=cmd_app_create)
    al = apps.add_parser("list")
    al.add_argument("--name", "-n")
    al.add_argument("--count", "-c", type=int, default=20)
    al.add_argument("--format-type", "-t", default="text")
    al.set_defaults(fn=cmd_app_list)
    ai = apps.add_parser("info")
    ai.add_argument("name")
    ai.add_argument("--format-type", "-t", default="text")
    ai.set_defaults(fn=cmd_app_info)
    for verb, fn in (("show", cmd_app_show), ("spec", cmd_app_spec)):
        ap = apps.add_parser(verb)
        ap.add_argument("name")
        ap.set_defaults(fn=fn)
    asb = apps.add_parser("submit")
    asb.add_argument("name")
    fmt(asb)
    asb.add_argument("--set", nargs="+", action="extend")
    asb.add_argument("--set-string", nargs="+", action="extend")
    asb.add_argument("--pool", "-p")
    asb.add_argument("--priority", default="NORMAL")
    asb.set_defaults(fn=cmd_app_submit)
    cr = sub.add_parser("credential")
    cr.add_argument("--format-type", choices=("json", "text"), default="text")  # before the subcommand, as in OSMO
    crs = cr.add_subparsers(dest="cmd", required=True)
    cs = crs.add_parser("set")
    cs.add_argument("name")
    cs.add_argument("--type", default="GENERIC", choices=["REGISTRY", "DATA", "GENERIC"])
    payload = cs.add_mutually_exclusive_group(required=True)
    payload.add_argument("--payload", nargs="+")
    payload.add_argument("--payload-file", nargs="+")
    crs.add_parser("list")
    cd = crs.add_parser("delete")
    cd.add_argument("name")
    cr.set_defaults(fn=cmd_credential)
    v = sub.add_parser("version")
    fmt(v)
    v.set_defaults(fn=cmd_version)
    pr = sub.add_parser("profile").add_subparsers(dest="cmd", required=True).add_parser("list")
    fmt(pr)
    pr.set_defaults(fn=cmd_profile)
    return p


def main(argv: list[str]) -> None:
    if argv[:1] == ["__run"]:
        runner(argv[1])
        return
    HOME.mkdir(parents=True, exist_ok=True)
    gate(argv)
    args = parser().parse_args(argv)
    args.fn(args)


if __name__ == "__main__":
    main(sys.argv[1:])
