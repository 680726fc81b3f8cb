"""Fault injection: a backend that fails one call kind at a time — an exception, a reply lost after the work
was done, a hang to its timeout, garbage output — and kill -9 at the backend calls that bound the nodes.
Each run must end resumable: resuming with a healthy backend completes, with one workflow, never two."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from graph_helpers import Session, make_deps

from runshepherd.backends.base import BackendError, BackendUnavailable
from runshepherd.backends.local import LocalBackend
from runshepherd.graph.checkpoint import open_saver

HERE = Path(__file__).resolve().parent
HANG = 0.3  # seconds a "hung" call blocks before its timeout fires (the backends' runners bound every call)

SPEC = """\
workflow:
  name: fi
  resources:
    default: {cpu: 1, memory: 256Mi}
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo step 1/2; sleep 1; echo step 2/2; echo done > {{output}}/result.txt"]
"""


class FaultyBackend:
    """Delegates to a real backend; the first call of ``method`` misbehaves as ``mode`` says."""

    def __init__(self, inner: LocalBackend, method: str, mode: str) -> None:
        self.inner, self.method, self.mode, self.fired = inner, method, mode, False

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name != self.method or not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            if self.fired:
                return attr(*args, **kwargs)
            self.fired = True
            if self.mode == "exit":  # kill -9: no cleanup, no finally, no reply
                os._exit(9)
            if self.mode == "exit_after":
                attr(*args, **kwargs)
                os._exit(9)
            if self.mode == "error":
                raise BackendError(f"injected: {name} failed")
            if self.mode == "after":  # the work was done, the reply was lost
                attr(*args, **kwargs)
                raise BackendError(f"injected: {name} reply lost")
            if self.mode == "hang":
                time.sleep(HANG)
                raise BackendUnavailable(f"injected: {name} timed out after {HANG}s")
            if self.mode == "garbage":
                return None
            raise AssertionError(self.mode)

        return call


def _first(tmp_path: Path) -> dict[str, Any]:
    spec = tmp_path / "fi.yaml"
    spec.write_text(SPEC)
    return {"request": "fault injection", "spec_path": str(spec)}


def _resume_healthy(tmp_path: Path) -> dict[str, Any]:
    backend = LocalBackend(tmp_path / "state")
    with open_saver(tmp_path / "state") as saver:
        s = Session(saver, make_deps(backend, tmp_path, auto_yes=True, session_id="fi"), thread="fi")
        out = s.run(None)
        resubmits = [e for e in s.events if e.get("event") == "submitted" and not e.get("reused")]
    return {"out": out, "workflows": [w.workflow_id for w in backend.list_workflows()], "new": resubmits}


CASES = [
    ("submit", "error"),
    ("submit", "after"),
    ("submit", "hang"),
    ("submit", "garbage"),
    ("find_by_key", "error"),
    ("find_by_key", "garbage"),
    ("query", "error"),
    ("query", "hang"),
    ("query", "garbage"),
    ("logs", "error"),
    ("logs", "garbage"),
    ("events", "error"),
    ("spec", "error"),
    ("download", "error"),
]


@pytest.mark.parametrize(("method", "mode"), CASES)
def test_a_failing_call_leaves_a_resumable_session_with_one_workflow(tmp_path: Path, method: str, mode: str) -> None:
    backend = FaultyBackend(LocalBackend(tmp_path / "state"), method, mode)
    with open_saver(tmp_path / "state") as saver:
        s = Session(saver, make_deps(backend, tmp_path, auto_yes=True, session_id="fi"), thread="fi")  # type: ignore[arg-type]
        try:
            s.run(_first(tmp_path))
        except Exception:  # noqa: BLE001 - the injected failure may surface; what matters is what is left
            pass
    assert backend.fired
    after = _resume_healthy(tmp_path)
    assert after["out"]["outcome"] == "COMPLETED", (method, mode, after["out"].get("outcome_reason"))
    assert len(after["workflows"]) == 1, after["workflows"]  # never a duplicate submission


CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from graph_helpers import Session, make_deps
    from test_fault_injection import FaultyBackend, _first
    from runshepherd.backends.local import LocalBackend
    from runshepherd.graph.checkpoint import open_saver

    tmp, method, mode = Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    backend = FaultyBackend(LocalBackend(tmp / "state"), method, mode)
    with open_saver(tmp / "state") as saver:
        Session(saver, make_deps(backend, tmp, auto_yes=True, session_id="fi"), thread="fi").run(_first(tmp))
    """
)


@pytest.mark.parametrize(
    ("method", "mode"),
    [("submit", "exit"), ("submit", "exit_after"), ("query", "exit"), ("logs", "exit"), ("download", "exit")],
)
def test_kill_9_at_a_node_boundary_resumes_with_one_workflow(tmp_path: Path, method: str, mode: str) -> None:
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(HERE), str(tmp_path), method, mode],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 9, child.stderr[-2000:]
    after = _resume_healthy(tmp_path)
    assert after["out"]["outcome"] == "COMPLETED", after["out"].get("outcome_reason")
    assert len(after["workflows"]) == 1, after["workflows"]
    if mode == "exit_after":
        assert after["new"] == []  # the submission the killed process made is found by its key, not repeated
