"""OSMO-specific behaviour: exit codes, the auth breaker, never-ending streams, versions, keys, apps, shapes."""

from __future__ import annotations

import json
import re
import time
from datetime import UTC
from pathlib import Path

import pytest

from runshepherd.backends.base import (
    AuthRequired,
    BackendUnavailable,
    RetryLater,
    Status,
    SubmissionRejected,
    TaskStatus,
)
from runshepherd.backends.osmo import AUTH_BREAKER, ServerBusy
from runshepherd.spec import load_spec_text

from ..conformance import HELLO, SLEEPER, wait_running, wait_terminal
from ..helpers import spec_from_yaml
from . import fake_env
from .conftest import MakeBackend


def calls(home: Path) -> list[list[str]]:
    return [json.loads(line) for line in (home / "calls.jsonl").read_text().splitlines()]


def test_busy_server_is_retried_with_backoff_then_succeeds(make_backend: MakeBackend, server_home: Path) -> None:
    be = make_backend(FAKE_OSMO_BUSY="2")
    assert [p.name for p in be.pools()] == ["fake-pool", "fake-pool-low"]
    assert [c[:2] for c in calls(server_home)] == [["pool", "list"]] * 3


def test_busy_past_the_budget_pauses_not_fails(make_backend: MakeBackend) -> None:
    be = make_backend(FAKE_OSMO_BUSY="99")
    with pytest.raises(ServerBusy) as err:
        be.pools()
    assert isinstance(err.value, RetryLater) and isinstance(err.value, BackendUnavailable)
    assert err.value.exit_code == 4 and "retry later" in str(err.value)


def test_unreachable_server_is_backend_unavailable(make_backend: MakeBackend) -> None:
    be = make_backend(FAKE_OSMO_UNREACHABLE="1")
    with pytest.raises(BackendUnavailable) as err:
        be.query("anything-1")
    assert err.value.exit_code == 4 and "unreachable" in str(err.value)


def test_auth_expiry_trips_the_breaker_and_stops_calling_osmo(make_backend: MakeBackend, server_home: Path) -> None:
    be = make_backend(FAKE_OSMO_AUTH_EXPIRED="1")
    with pytest.raises(AuthRequired) as err:
        be.pools()
    assert "osmo login" in str(err.value) and err.value.exit_code == 4
    n = len(calls(server_home))
    for op in (be.pools, lambda: be.query("x-1"), lambda: list(be.logs("x-1"))):
        with pytest.raises(AuthRequired):
            op()
    assert len(calls(server_home)) == n  # circuit open: no further osmo process was started
    AUTH_BREAKER.reset()


def test_never_ending_log_stream_costs_at_most_the_capture_timeout(make_backend: MakeBackend) -> None:
    be = make_backend(options={"pool": "fake-pool"}, FAKE_OSMO_LOGS_NEVER_END="1")
    sub = be.submit(spec_from_yaml(HELLO))
    wait_terminal(be, sub.workflow_id)
    t0 = time.monotonic()
    lines = list(be.logs(sub.workflow_id, timeout=1.0))
    assert time.monotonic() - t0 < 3
    assert any(line.endswith("[hello] hello from conformance") for line in lines)
    t0 = time.monotonic()
    events = be.events(sub.workflow_id)
    assert time.monotonic() - t0 < 3.5 and {e.reason for e in events} >= {"Started"}


def test_capture_kills_the_whole_process_group(make_backend: MakeBackend) -> None:
    be = make_backend(options={"pool": "fake-pool"})
    sub = be.submit(spec_from_yaml(SLEEPER))
    try:
        wait_running(be, sub.workflow_id)
        res = be.cli.capture(["workflow", "logs", sub.workflow_id, "-n", "10"], timeout=0.8)
        assert res.timed_out and res.returncode is None
        assert res.lines[0] == f"Workflow {sub.workflow_id} has logs:"
    finally:
        be.cancel(sub.workflow_id)


def test_submit_passes_pool_priority_and_set_values(make_backend: MakeBackend, server_home: Path) -> None:
    be = make_backend()
    text = (
        "default-values:\n  word: hi\n  tag: '007'\nworkflow:\n  name: sets\n  tasks:\n  - name: t\n"
        "    image: ubuntu\n    command: [sh, -c, 'echo {{ word }} {{ tag }} {{ n }}']\n"
    )
    doc = load_spec_text(text, set_values={"n": 4})
    sub = be.submit(doc, "fake-pool", priority="LOW")
    submit_call = next(c for c in calls(server_home) if c[:2] == ["workflow", "submit"])
    assert submit_call[submit_call.index("--pool") + 1] == "fake-pool"
    assert submit_call[submit_call.index("--priority") + 1] == "LOW"
    assert "n=4" in submit_call and "word=hi" in submit_call
    assert submit_call[submit_call.index("--set-string") + 1] == "tag=007"
    assert any("preempted" in w for w in sub.warnings)
    wait_terminal(be, sub.workflow_id)
    assert "[t] hi 007 4" in "\n".join(be.logs(sub.workflow_id))


def test_submission_error_is_rejected_with_the_cli_text(make_backend: MakeBackend, eval_fixtures: Path) -> None:
    be = make_backend([eval_fixtures], FAKE_OSMO_NODE_CAPACITY="gpu=64,cpu=192,memory=1500Gi,storage=1024Gi")
    oversized = (fake_env.EVALS / "files" / "oversized.yaml").read_text()
    with pytest.raises(SubmissionRejected) as err:
        be.submit(spec_from_yaml(oversized), "h100-east", idempotency_key="s:1")
    assert "failed capacity validation" in str(err.value) and "2000Gi" in str(err.value)
    assert be.find_by_key("s:1") is None


def test_dataset_io_refused_on_main_and_labels_added(make_backend: MakeBackend, server_home: Path) -> None:
    be = make_backend(FAKE_OSMO_VERSION="6.4.0")
    ds = HELLO.replace("    command:", "    inputs:\n    - dataset: {name: my-data}\n    command:")
    with pytest.raises(SubmissionRejected, match="dataset.*6.4.0.*url:"):
        be.submit(spec_from_yaml(ds), "fake-pool")
    sub = be.submit(spec_from_yaml(HELLO), "fake-pool", idempotency_key="sess:1")
    submit_call = next(c for c in calls(server_home) if c[:2] == ["workflow", "submit"])
    assert submit_call[submit_call.index("--label") + 1] == "runshepherd-key=sess-1"
    (be.store.root / "keys.json").unlink()  # a crash lost our record: the label still finds it
    assert be.find_by_key("sess:1") == sub.workflow_id
    wait_terminal(be, sub.workflow_id)


def test_a_fresh_process_finds_a_labelled_workflow_without_a_prior_call(
    make_backend: MakeBackend, server_home: Path
) -> None:
    """Crash recovery by label must not depend on what ran earlier in the process: a new backend object (a new
    process after the crash) whose first call is find_by_key reads the server version itself."""
    be = make_backend(FAKE_OSMO_VERSION="6.4.0")
    sub = be.submit(spec_from_yaml(HELLO), "fake-pool", idempotency_key="sess:2")
    (be.store.root / "keys.json").unlink()  # the crash lost our record of the key
    fresh = type(be)(be.store.root.parent, be.options)
    assert fresh.find_by_key("sess:2") == sub.workflow_id
    assert [c[:2] for c in calls(server_home)][-2:] == [["version", "--format-type"], ["workflow", "list"]]
    assert type(be)(be.store.root.parent, be.options).find_by_key("never-used") is None
    wait_terminal(be, sub.workflow_id)


def test_on_63_no_labels_and_crash_recovery_by_name_and_time(make_backend: MakeBackend, server_home: Path) -> None:
    be = make_backend(options={"pool": "fake-pool"})
    ds = HELLO.replace("    command:", "    outputs:\n    - dataset: {name: out}\n    command:")
    sub = be.submit(spec_from_yaml(ds), idempotency_key="k:1")  # 6.3 still has datasets
    assert not any("--label" in c for c in calls(server_home))
    from datetime import datetime, timedelta

    be.store.forget_key("k:1")
    be.store.mark_submitting("k:1", "conf-hello", datetime.now(UTC) - timedelta(seconds=30))
    assert be.find_by_key("k:1") == sub.workflow_id
    assert be.find_by_key("never-used") is None
    wait_terminal(be, sub.workflow_id)


def test_declared_outputs_come_from_the_spec(make_backend: MakeBackend, tmp_path: Path) -> None:
    be = make_backend(options={"pool": "fake-pool"})
    spec = HELLO.replace("    command:", "    outputs:\n    - url: s3://bucket/run-{{workflow_id}}/\n    command:")
    sub = be.submit(spec_from_yaml(spec))
    st = wait_terminal(be, sub.workflow_id)
    assert st.status is Status.COMPLETED
    assert st.outputs == st.task("hello").outputs == [f"s3://bucket/run-{sub.workflow_id}/"]
    assert sub.outputs == st.outputs
    other = type(be)(tmp_path / "other-state", {})  # no local record: read once from `osmo workflow spec`
    assert other.query(sub.workflow_id).outputs == st.outputs


def test_create_app_and_name_taken(make_backend: MakeBackend, server_home: Path) -> None:
    be = make_backend()
    made = be.create_app("hello-app", "Says hello", HELLO)
    assert made.name == "hello-app" and "created successfully" in made.message
    assert json.loads((server_home / "apps" / "hello-app.json").read_text())["spec"] == HELLO
    create = next(c for c in calls(server_home) if c[:2] == ["app", "create"])
    assert create[create.index("--description") + 1] == "Says hello" and "--file" in create
    with pytest.raises(SubmissionRejected, match="already exists"):
        be.create_app("hello-app", "again", HELLO)


def test_fixture_shapes_map_to_models(make_backend: MakeBackend, eval_fixtures: Path) -> None:
    be = make_backend([eval_fixtures])
    pools = {p.name: p for p in be.pools()}
    assert (pools["h100-east"].quota_free, pools["h100-east"].total_free) == (8, 12)
    assert pools["h100-east"].effective_gpu_free() == 8 and pools["h100-west"].effective_gpu_free() == 0
    assert pools["default"].status == "OFFLINE"
    nodes = be.resources("h100-east")
    assert len(nodes) == 6 and max(n.gpu_free for n in nodes) == 4 and all(n.gpu_total == 8 for n in nodes)
    pending = be.query("stuck-train-1")
    assert pending.status is Status.PENDING and pending.task("train").status is TaskStatus.SCHEDULING
    assert be.query("badimage-train-1").task("train").status is TaskStatus.INITIALIZING
    oom = be.query("oom-train-1")
    assert oom.task("train").exit_code == 137 and "OOMKilled" in (oom.task("train").failure_message or "")
    assert oom.links.grafana and oom.links.dashboard and oom.links.overview
    ev = be.events("stuck-train-1")
    assert ev and all(e.task == "train" for e in ev) and ev[1].reason == "FailedScheduling"
    t0 = time.monotonic()
    lines = list(be.logs("gr00t-train-1"))  # RUNNING: the stream does not end; idle gap cuts it
    assert time.monotonic() - t0 < 3 and lines[-1].endswith(
        "step=3500/10000 loss=0.8915 lr=8.2e-05 throughput=24.1 samples/s"
    )
    assert [r.workflow_id for r in be.list_workflows(statuses=[Status.FAILED])] == ["policy-train-7"]


def test_whole_log_spools_the_full_stream_and_reports_a_bound_that_cut_it(make_backend: MakeBackend) -> None:
    from runshepherd.backends.base import WholeLogSource
    from runshepherd.logs import LogConfig
    from runshepherd.logs.tasklog import digest_task

    be = make_backend(options={"pool": "fake-pool"})
    assert isinstance(be, WholeLogSource)
    sub = be.submit(spec_from_yaml(HELLO))
    wait_terminal(be, sub.workflow_id)
    whole = be.whole_log(sub.workflow_id, "hello")
    try:
        assert whole.temporary and whole.cap_reason is None
        assert "hello from conformance" in whole.path.read_text()
    finally:
        whole.path.unlink()
    d = digest_task(be, sub.workflow_id, "hello", status="COMPLETED", config=LogConfig(), tail_lines=10)
    assert not d.truncated and d.lines_read >= 1

    capped = make_backend(options={"pool": "fake-pool", "whole_log_timeout": 1.0}, FAKE_OSMO_LOGS_NEVER_END="1")
    d = digest_task(capped, sub.workflow_id, "hello", status="COMPLETED", config=LogConfig(), tail_lines=10)
    assert d.truncated and "capture timeout" in (d.truncation_reason or "")


def test_a_log_line_longer_than_the_cap_is_cut_in_the_stream_too(make_backend: MakeBackend) -> None:
    """OSMO's log stream handed a 200 KB line on whole (`logs --raw`, `logs -f`, MCP's raw tail printed it): it
    is cut at RAW_LINE_BYTES with the marker the task log files use; the lines around it are kept."""
    be = make_backend(options={"pool": "fake-pool"})
    text = (
        "workflow:\n  name: long\n  tasks:\n  - name: t\n    image: ubuntu\n"
        "    command: [python3, -c, \"print('before'); print('L' * 200000); print('after')\"]\n"
    )
    sub = be.submit(spec_from_yaml(text))
    wait_terminal(be, sub.workflow_id)
    lines = list(be.logs(sub.workflow_id))
    (cut,) = [ln for ln in lines if "LLLL" in ln]
    assert len(cut.encode()) < 65_600 and re.search(r"L … \[line cut at 65,536 of 200,\d{3} bytes\]$", cut), cut[-80:]
    assert any(ln.endswith("[t] before") for ln in lines) and any(ln.endswith("[t] after") for ln in lines)
