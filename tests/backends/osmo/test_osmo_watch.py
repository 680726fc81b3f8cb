"""The watch monitor on OSMO (the fake `osmo` CLI): an OSMO workflow id is followed to its failure with a
diagnosis and one notification; an expired login stops the monitor (the seed's auth circuit breaker)."""

from __future__ import annotations

import json
from pathlib import Path

from runshepherd.config import Settings
from runshepherd.notify import Notifier, parse_targets
from runshepherd.watch.escalations import escalations_for
from runshepherd.watch.monitor import RunMonitor, watch_all

from ..helpers import spec_from_yaml
from .conftest import MakeBackend

FAILING = """\
workflow:
  name: osmo-fail
  tasks:
  - name: train
    image: python:3.11-slim
    command: [sh, -c, "echo 'RuntimeError: CUDA error: device-side assert triggered' >&2; exit 1"]
"""


def _monitor(be: object, wid: str, tmp: Path) -> RunMonitor:
    notes = tmp / "notes.jsonl"
    return RunMonitor(
        be,
        wid,
        settings=Settings(state_dir=tmp / "state"),
        runs_dir=tmp / "runs",
        notifier=Notifier(parse_targets([f"file:{notes}"])),
        cadence=0.2,
        escalate=escalations_for,
    )


def test_an_osmo_workflow_is_followed_to_its_failure(make_backend: MakeBackend, tmp_path: Path) -> None:
    be = make_backend(options={"pool": "fake-pool"}, FAKE_OSMO_SIM_EXIT="1")
    wid = be.submit(spec_from_yaml(FAILING)).workflow_id
    m = _monitor(be, wid, tmp_path)
    seen = []
    watch_all([m], on_observation=seen.append)
    assert m.notifier is not None
    m.notifier.close(timeout=10)
    assert seen[-1].status.startswith("FAILED") and seen[-1].terminal
    rows = [json.loads(x) for x in (tmp_path / "notes.jsonl").read_text().splitlines()]
    terminal = [r for r in rows if r["status"].startswith("FAILED")]
    assert len(terminal) == 1 and terminal[0]["workflow_id"] == wid and terminal[0]["label"]
    assert "State: failed" in (tmp_path / "runs" / f"{wid}-status.md").read_text()


def test_an_expired_login_stops_the_monitor_and_says_so(make_backend: MakeBackend, tmp_path: Path) -> None:
    be = make_backend(options={"pool": "fake-pool"})
    wid = be.submit(spec_from_yaml(FAILING)).workflow_id
    blocked = make_backend(options={"pool": "fake-pool"}, FAKE_OSMO_AUTH_EXPIRED="1")
    m = _monitor(blocked, wid, tmp_path)
    watch_all([m])
    assert m.done and m.auth_blocked
    assert m.notifier is not None
    m.notifier.close(timeout=10)
    [row] = [json.loads(x) for x in (tmp_path / "notes.jsonl").read_text().splitlines()]
    assert row["label"] == "auth_blocked"
    text = (tmp_path / "runs" / f"{wid}-status.md").read_text()
    assert "AUTH BLOCKED" in text and "Log in once" in text
