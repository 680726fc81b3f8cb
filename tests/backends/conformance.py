"""The backend conformance suite, written against the Backend Protocol only.

A backend's test module subclasses :class:`BackendConformance` and provides two fixtures:

* ``backend`` — a ready :class:`~runshepherd.backends.base.Backend` (cleaned up by the fixture);
* ``make_spec`` — ``(yaml_text) -> SpecDocument``, so a backend may adapt specs (e.g. a pool or image).

Specs use small POSIX shell commands so every scheduler can run them. Waits poll with generous deadlines
(loaded CI machines) but return as soon as the state is reached.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from runshepherd.backends.base import (
    Backend,
    Event,
    Node,
    Pool,
    Status,
    TaskStatus,
    WorkflowNotFound,
    WorkflowStatus,
    WorkflowSummary,
)
from runshepherd.spec.document import SpecDocument

DEADLINE = 30.0
LINE_RE = re.compile(
    r"^\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2} \[(?P<task>[A-Za-z0-9_-]+)\](?P<osmo>\[osmo\])? (?P<text>.*)$"
)

MakeSpec = Callable[[str], SpecDocument]

HELLO = """
workflow:
  name: conf-hello
  tasks:
  - name: hello
    image: ubuntu:24.04
    command: [sh, -c]
    args: ["echo hello from conformance; echo line two; echo model-bytes > {{output}}/model.txt"]
"""

FAILING = """
workflow:
  name: conf-fail
  tasks:
  - name: boom
    image: ubuntu:24.04
    command: [sh, -c, "echo about to fail; exit 3"]
"""

SLEEPER = """
workflow:
  name: conf-sleep
  tasks:
  - name: sleeper
    image: ubuntu:24.04
    command: [sh, -c, "echo started; sleep 60"]
"""

TEMPLATED = """
default-values:
  greeting: bonjour
workflow:
  name: conf-template
  tasks:
  - name: greet
    image: ubuntu:24.04
    command: [sh, -c, "echo {{ greeting }}"]
"""


def wait_for(
    backend: Backend, workflow_id: str, done: Callable[[WorkflowStatus], bool], deadline: float = DEADLINE
) -> WorkflowStatus:
    end = time.monotonic() + deadline
    while True:
        status = backend.query(workflow_id)
        if done(status):
            return status
        if time.monotonic() > end:
            raise AssertionError(f"{workflow_id} still {status.status.value} after {deadline}s: {status}")
        backend.wait_for_change(workflow_id, 0.5)


def wait_terminal(backend: Backend, workflow_id: str, deadline: float = DEADLINE) -> WorkflowStatus:
    return wait_for(backend, workflow_id, lambda s: s.status.terminal(), deadline)


def wait_running(backend: Backend, workflow_id: str) -> WorkflowStatus:
    return wait_for(backend, workflow_id, lambda s: s.status is Status.RUNNING or s.status.terminal())


class BackendConformance:
    """Behaviour every backend shares. Subclass it in a ``test_*`` module and provide the fixtures."""

    def test_backend_satisfies_protocol(self, backend: Backend) -> None:
        assert isinstance(backend, Backend)
        assert backend.name

    def test_submit_runs_to_completed(self, backend: Backend, make_spec: MakeSpec) -> None:
        sub = backend.submit(make_spec(HELLO))
        assert sub.workflow_id.startswith("conf-hello")
        status = wait_terminal(backend, sub.workflow_id)
        assert status.status is Status.COMPLETED
        assert status.workflow_id == sub.workflow_id and status.name == "conf-hello"
        assert status.backend == backend.name
        task = status.task("hello")
        assert task.status is TaskStatus.COMPLETED and task.exit_code == 0 and task.lead
        assert task.start_time is not None and task.end_time is not None and task.end_time >= task.start_time
        assert status.submit_time is not None and status.end_time is not None
        assert not status.status.alive() and not status.status.failed()

    def test_failing_command_is_failed_with_exit_code(self, backend: Backend, make_spec: MakeSpec) -> None:
        sub = backend.submit(make_spec(FAILING))
        status = wait_terminal(backend, sub.workflow_id)
        assert status.status is Status.FAILED and status.status.failed()
        task = status.task("boom")
        assert task.status is TaskStatus.FAILED
        assert task.exit_code == 3
        assert task.failure_message

    def test_logs_are_in_osmo_format_with_tail(self, backend: Backend, make_spec: MakeSpec) -> None:
        sub = backend.submit(make_spec(HELLO))
        wait_terminal(backend, sub.workflow_id)
        lines = list(backend.logs(sub.workflow_id))
        parsed = [LINE_RE.match(line) for line in lines]
        assert lines and all(parsed), [line for line, m in zip(lines, parsed) if not m]
        user = [m.group("text") for m in parsed if m and not m.group("osmo")]
        assert user[:2] == ["hello from conformance", "line two"]
        assert all(m.group("task") == "hello" for m in parsed if m)
        assert list(backend.logs(sub.workflow_id, task="hello")) == lines
        assert list(backend.logs(sub.workflow_id, tail=2)) == lines[-2:]
        assert list(backend.logs(sub.workflow_id, tail=1)) == lines[-1:]

    def test_log_follow_is_bounded_by_timeout(self, backend: Backend, make_spec: MakeSpec) -> None:
        sub = backend.submit(make_spec(SLEEPER))
        try:
            wait_running(backend, sub.workflow_id)
            t0 = time.monotonic()
            now = list(backend.logs(sub.workflow_id))  # timeout=None on an alive workflow: what exists now
            assert time.monotonic() - t0 < 5
            t0 = time.monotonic()
            followed = list(backend.logs(sub.workflow_id, timeout=1.5))
            elapsed = time.monotonic() - t0
            assert 1.0 <= elapsed < 8, elapsed
            assert len(followed) >= len(now)
            assert any(line.endswith("] started") for line in followed)
        finally:
            backend.cancel(sub.workflow_id)

    def test_cancel_gives_failed_canceled(self, backend: Backend, make_spec: MakeSpec) -> None:
        sub = backend.submit(make_spec(SLEEPER))
        wait_running(backend, sub.workflow_id)
        t0 = time.monotonic()
        backend.cancel(sub.workflow_id)
        status = wait_terminal(backend, sub.workflow_id)
        assert status.status is Status.FAILED_CANCELED
        assert status.task("sleeper").status is TaskStatus.FAILED_CANCELED
        assert time.monotonic() - t0 < 20
        backend.cancel(sub.workflow_id)  # cancelling a finished workflow is harmless

    def test_events_have_both_line_kinds_shape(self, backend: Backend, make_spec: MakeSpec) -> None:
        sub = backend.submit(make_spec(HELLO))
        wait_terminal(backend, sub.workflow_id)
        events = backend.events(sub.workflow_id)
        assert all(isinstance(e, Event) and e.task == "hello" for e in events)
        for e in events:
            assert re.match(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[hello\] \S+: ", e.line())
        assert backend.events(sub.workflow_id, task="no-such-task") == []

    def test_spec_rendered_and_template(self, backend: Backend, make_spec: MakeSpec) -> None:
        sub = backend.submit(make_spec(TEMPLATED))
        rendered = backend.spec(sub.workflow_id)
        template = backend.spec(sub.workflow_id, template=True)
        assert "echo bonjour" in rendered and "{{ greeting }}" not in rendered
        assert "{{ greeting }}" in template and "default-values" in template
        wait_terminal(backend, sub.workflow_id)

    def test_list_includes_the_workflow(self, backend: Backend, make_spec: MakeSpec) -> None:
        sub = backend.submit(make_spec(HELLO))
        wait_terminal(backend, sub.workflow_id)
        rows = backend.list_workflows()
        assert all(isinstance(r, WorkflowSummary) for r in rows)
        assert sub.workflow_id in [r.workflow_id for r in rows]
        assert sub.workflow_id in [r.workflow_id for r in backend.list_workflows(statuses=[Status.COMPLETED])]
        assert sub.workflow_id not in [r.workflow_id for r in backend.list_workflows(statuses=[Status.RUNNING])]
        assert len(backend.list_workflows(limit=1)) == 1

    def test_pools_and_resources_shapes(self, backend: Backend) -> None:
        pools = backend.pools()
        assert pools and all(isinstance(p, Pool) for p in pools)
        nodes = backend.resources(pools[0].name)
        assert nodes and all(isinstance(n, Node) for n in nodes)
        for n in nodes:
            assert n.cpu_total > 0 and 0 <= n.cpu_free <= n.cpu_total
            assert n.memory_total_gi > 0 and 0 <= n.memory_free_gi <= n.memory_total_gi
            assert 0 <= n.gpu_free <= n.gpu_total

    def test_find_by_key_and_idempotent_submit(self, backend: Backend, make_spec: MakeSpec) -> None:
        key = f"conformance-{time.time_ns()}"
        assert backend.find_by_key(key) is None
        sub = backend.submit(make_spec(HELLO), idempotency_key=key)
        assert backend.find_by_key(key) == sub.workflow_id
        again = backend.submit(make_spec(HELLO), idempotency_key=key)
        assert again.workflow_id == sub.workflow_id
        wait_terminal(backend, sub.workflow_id)

    def test_outputs_listed_and_downloadable(self, backend: Backend, make_spec: MakeSpec, tmp_path: Path) -> None:
        sub = backend.submit(make_spec(HELLO))
        status = wait_terminal(backend, sub.workflow_id)
        model_urls = [u for u in status.outputs if u.endswith("model.txt")]
        assert model_urls, status.outputs
        assert model_urls[0] in status.task("hello").outputs
        paths = backend.download(model_urls[0], tmp_path / "dl")
        assert [p.name for p in paths] == ["model.txt"]
        assert paths[0].read_text().strip() == "model-bytes"

    def test_unknown_workflow_is_not_found(self, backend: Backend) -> None:
        missing = "no-such-workflow-424242"
        with pytest.raises(WorkflowNotFound):
            backend.query(missing)
        with pytest.raises(WorkflowNotFound):
            list(backend.logs(missing))
        with pytest.raises(WorkflowNotFound):
            backend.events(missing)
        with pytest.raises(WorkflowNotFound):
            backend.spec(missing)
        with pytest.raises(WorkflowNotFound):
            backend.cancel(missing)

    def test_wait_for_change_is_bounded(self, backend: Backend, make_spec: MakeSpec) -> None:
        sub = backend.submit(make_spec(HELLO))
        wait_terminal(backend, sub.workflow_id)
        t0 = time.monotonic()
        assert backend.wait_for_change(sub.workflow_id, 0.3) is False
        assert 0.25 <= time.monotonic() - t0 < 3
