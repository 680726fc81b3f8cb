"""`cancel_mark.cancel_once`: one cancel per workflow whoever gets there first, acknowledged once the scheduler took
it; a claim whose maker died before sending it is sent again, once, and says so (see
tests/e2e/test_a_lost_cancel_is_sent_again.py for the session path)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from runshepherd.cancel_mark import cancel_once


class Scheduler:
    def __init__(self) -> None:
        self.canceled: list[str] = []

    def cancel(self, workflow_id: str) -> None:
        self.canceled.append(workflow_id)


def _claim(state: Path, wid: str, **data: object) -> None:
    claim = state / "canceled" / "workflows" / wid
    claim.parent.mkdir(parents=True, exist_ok=True)
    claim.write_text(json.dumps({"host": socket.gethostname(), **data}))


def _dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(proc.stdout)


def test_first_sends_then_nobody_else(tmp_path: Path) -> None:
    backend = Scheduler()
    kw = {"approved_by": "--yes", "via": "orchestrate cancel"}
    assert cancel_once(backend, tmp_path, "wf-1", **kw) == "sent"  # type: ignore[arg-type]
    assert cancel_once(backend, tmp_path, "wf-1", **kw) is None  # type: ignore[arg-type]
    assert backend.canceled == ["wf-1"]


def test_a_live_claimer_is_left_to_send_it(tmp_path: Path) -> None:
    _claim(tmp_path, "wf-2", pid=os.getpid())  # claimed, being sent by a process still alive
    backend = Scheduler()
    assert cancel_once(backend, tmp_path, "wf-2", approved_by="--yes", via="chat") is None  # type: ignore[arg-type]
    assert backend.canceled == []


def test_a_dead_claimers_cancel_is_sent_again_once_and_audited_as_such(tmp_path: Path) -> None:
    _claim(tmp_path, "wf-3", pid=_dead_pid())
    backend = Scheduler()
    kw = {"approved_by": "--yes", "via": "orchestrate cancel"}
    assert cancel_once(backend, tmp_path, "wf-3", **kw) == "resent"  # type: ignore[arg-type]
    assert cancel_once(backend, tmp_path, "wf-3", **kw) is None  # type: ignore[arg-type]
    assert backend.canceled == ["wf-3"]
    audit = [json.loads(x) for x in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [(a["what"], a["workflow"], a.get("resent")) for a in audit] == [("cancel", "wf-3", True)]


def test_two_doors_that_find_a_lost_claim_at_once_resend_it_once(tmp_path: Path, monkeypatch) -> None:
    """The look (lost?) and the take-over are one step: a door that looks while another takes over sees a live
    claimer. Both doors are held right after their look until the other has looked too (or a second passed)."""
    import contextlib
    import threading

    from runshepherd import cancel_mark

    _claim(tmp_path, "wf-4", pid=_dead_pid())
    real = cancel_mark._claim_lost
    both_looked = threading.Barrier(2, timeout=1.0)

    def look_then_wait(claim: Path, seen: dict[str, object]) -> bool:
        answer = real(claim, seen)
        # a broken barrier: the other door could not look meanwhile (it waits for this one's take-over)
        with contextlib.suppress(threading.BrokenBarrierError):
            both_looked.wait()
        return answer

    monkeypatch.setattr(cancel_mark, "_claim_lost", look_then_wait)
    backend = Scheduler()
    said: list[str | None] = []
    doors = [
        threading.Thread(
            target=lambda v=via: said.append(cancel_once(backend, tmp_path, "wf-4", approved_by="--yes", via=v))
        )  # type: ignore[arg-type,misc]
        for via in ("orchestrate cancel", "chat")
    ]
    for d in doors:
        d.start()
    for d in doors:
        d.join(10)
    assert backend.canceled == ["wf-4"]
    assert sorted(said, key=str) == sorted(["resent", None], key=str)


def test_a_take_over_leaves_nothing_beside_the_claims(tmp_path: Path) -> None:
    """Before: each taken-over claim left a `<claim>.lock` file in the state dir, never removed."""
    for wid in ("wf-5", "wf-6"):
        _claim(tmp_path, wid, pid=_dead_pid())
        assert cancel_once(Scheduler(), tmp_path, wid, approved_by="--yes", via="chat") == "resent"  # type: ignore[arg-type]
    assert sorted(p.name for p in (tmp_path / "canceled" / "workflows").iterdir()) == ["wf-5", "wf-6"]
