"""A status change the session printed is the one it resumes from: a driver that dies right after showing
"PENDING → RUNNING" (SIGTERM leaves at once, without draining) must not resume with "SUBMITTED → …"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graph_helpers import Session, make_deps

from runshepherd.backends.base import Status
from runshepherd.backends.local import LocalBackend
from runshepherd.graph.checkpoint import open_saver

SPEC = """\
workflow:
  name: tk
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo started; sleep 60"]
"""


class Killed(BaseException):
    """The process dying mid-node: nothing after it runs, nothing the node had not returned is saved."""


class DiesAfterRunning:
    """Delegates to the local backend; the first query after one that answered RUNNING kills the driver."""

    def __init__(self, inner: LocalBackend) -> None:
        self.inner, self.seen_running = inner, False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def query(self, workflow_id: str) -> Any:
        if self.seen_running:
            raise Killed
        ws = self.inner.query(workflow_id)
        self.seen_running = ws.status is Status.RUNNING
        return ws


def test_resume_after_a_kill_prints_the_transition_from_the_status_the_session_showed(tmp_path: Path) -> None:
    spec = tmp_path / "tk.yaml"
    spec.write_text(SPEC)
    local = LocalBackend(tmp_path / "state")
    dying = DiesAfterRunning(local)
    with open_saver(tmp_path / "state") as saver:
        first = Session(saver, make_deps(dying, tmp_path, auto_yes=True, session_id="tk"), thread="tk")  # type: ignore[arg-type]
        try:
            first.run({"request": "kill test", "spec_path": str(spec)})
        except Killed:
            pass
        shown = [e["text"] for e in first.events if e.get("event") == "status"]
        assert shown and shown[-1].startswith("PENDING → RUNNING"), shown
        wid = next(e["workflow_id"] for e in first.events if e.get("event") == "status")
        local.cancel(wid)  # canceled while no driver watched (scancel, another tool)
        second = Session(saver, make_deps(local, tmp_path, auto_yes=True, session_id="tk"), thread="tk")
        out = second.run(None)
    resumed = [e["text"] for e in second.events if e.get("event") == "status"]
    assert resumed and resumed[0].startswith("RUNNING → FAILED_CANCELED"), resumed
    assert out["outcome"] == "CANCELED"
