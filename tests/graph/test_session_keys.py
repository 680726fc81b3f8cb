"""Idempotency keys across runs. A scheduler remembers keys longer than a session lives: Slurm lists finished jobs,
key in their comment, for MinJobAge; OSMO keeps key labels; local keeps its records in the state dir while the
sessions may live elsewhere (PostgreSQL). A new session under a reused name must submit its own workflow, while a
crash-resume of the same session must find the one it submitted (the session nonce in the key, graph/state.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path
from typing import Any

import pytest
from graph_helpers import Session, make_deps
from langgraph.checkpoint.memory import InMemorySaver

from runshepherd.backends.local import LocalBackend
from runshepherd.backends.osmo import OsmoBackend
from runshepherd.backends.slurm import SlurmBackend
from runshepherd.backends.slurm.backend import SQUEUE_FORMAT
from runshepherd.backends.slurm.jobs import parse_squeue
from runshepherd.graph.checkpoint import open_saver

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "backends" / "slurm"))
sys.path.insert(0, str(HERE.parent / "backends" / "osmo"))
import fake_env  # noqa: E402  (the fake `osmo` of the OSMO backend tests)
from slurm_available import slurm_conf_or_skip  # noqa: E402  (the Slurm tests' own "is Slurm here?" check)

SPEC = """\
workflow:
  name: keyed
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [sh, -c, "echo step 1/1; echo done"]
"""


def _first(tmp: Path) -> dict[str, Any]:
    spec = tmp / "keyed.yaml"
    spec.write_text(SPEC)
    return {"request": "keyed run", "spec_path": str(spec)}


def _run(tmp: Path, sid: str, conf: Path, first: dict[str, Any] | None) -> dict[str, Any]:
    """Drive session ``sid`` in ``tmp/state`` on the real Slurm to its end; the final state and the events."""
    backend = SlurmBackend(tmp / "state", {"slurm_conf": str(conf)})
    with open_saver(tmp / "state") as saver:
        s = Session(saver, make_deps(backend, tmp, auto_yes=True, session_id=sid), thread=sid)  # type: ignore[arg-type]
        out = s.run(first)
    return {"out": out, "events": s.events, "backend": backend}


def _jobs_of_session(conf: Path, sid: str) -> dict[str, str]:
    """Every job Slurm lists (any state) whose comment key belongs to session ``sid``: job id → key."""
    env = {**os.environ, "SLURM_CONF": str(conf)}
    proc = subprocess.run(
        ["squeue", "-h", "-t", "all", "-O", SQUEUE_FORMAT], env=env, capture_output=True, text=True, timeout=30
    )
    rows = parse_squeue(proc.stdout)
    return {r.job_id: r.tag.key for r in rows if r.tag and r.tag.key and r.tag.key.startswith(f"{sid}:")}


def _job_ids(backend: SlurmBackend, workflow_id: str) -> set[str]:
    return {t.job_id for t in backend._dir(workflow_id).read_slurm_record().tasks}


def test_a_reused_session_name_with_fresh_state_submits_its_own_jobs(tmp_path: Path) -> None:
    conf = slurm_conf_or_skip()
    sid = f"reuse{uuid.uuid4().hex[:8]}"  # the cluster is shared: other runs' sessions must not collide
    a = _run(tmp_path / "a", sid, conf, _first(tmp_path))
    assert a["out"]["outcome"] == "COMPLETED", a["out"].get("outcome_reason")
    first_jobs = _job_ids(a["backend"], a["out"]["workflow_ids"][0])
    assert first_jobs <= set(_jobs_of_session(conf, sid))  # Slurm still lists them, key and all (MinJobAge)

    # The same session name, a fresh state dir (removed, or another machine): a new session, not a resume.
    b = _run(tmp_path / "b", sid, conf, _first(tmp_path))
    assert b["out"]["outcome"] == "COMPLETED", b["out"].get("outcome_reason")
    submitted = [e for e in b["events"] if e["event"] == "submitted"]
    assert [e["reused"] for e in submitted] == [False], submitted  # the earlier run's job was not adopted
    second_jobs = _job_ids(b["backend"], b["out"]["workflow_ids"][0])
    assert second_jobs and not second_jobs & first_jobs
    keys = _jobs_of_session(conf, sid)
    assert len({keys[j] for j in first_jobs}) == 1 and {keys[j] for j in first_jobs} != {keys[j] for j in second_jobs}


CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from graph_helpers import Session, make_deps
    from test_fault_injection import FaultyBackend
    from test_session_keys import _first
    from runshepherd.backends.slurm import SlurmBackend
    from runshepherd.graph.checkpoint import open_saver

    tmp, conf, sid = Path(sys.argv[2]), sys.argv[3], sys.argv[4]
    backend = FaultyBackend(SlurmBackend(tmp / "state", {"slurm_conf": conf}), "submit", "exit_after")
    with open_saver(tmp / "state") as saver:
        Session(saver, make_deps(backend, tmp, auto_yes=True, session_id=sid), thread=sid).run(_first(tmp))
    """
)


def test_a_crash_between_submit_and_checkpoint_adopts_the_job_and_never_submits_twice(tmp_path: Path) -> None:
    conf = slurm_conf_or_skip()
    sid = f"crash{uuid.uuid4().hex[:8]}"
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(HERE), str(tmp_path), str(conf), sid],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 9, child.stderr[-2000:]  # killed right after sbatch, before the checkpoint
    submitted_before = _jobs_of_session(conf, sid)
    assert len(submitted_before) == 1, submitted_before

    after = _run(tmp_path, sid, conf, None)  # resume the same session (same state dir, same checkpoint)
    assert after["out"]["outcome"] == "COMPLETED", after["out"].get("outcome_reason")
    submitted = [e for e in after["events"] if e["event"] == "submitted"]
    assert [e["reused"] for e in submitted] == [True], submitted  # found by its key, not submitted again
    assert _jobs_of_session(conf, sid) == submitted_before  # one job on the cluster for this session, ever
    assert set(submitted_before) == _job_ids(after["backend"], after["out"]["workflow_ids"][0])


def test_a_reused_session_name_on_osmo_does_not_adopt_the_earlier_runs_labelled_workflow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OSMO main labels each workflow with its key and finds it by label when keys.json is gone (a crash): a new
    session under the same name, in a fresh state dir, must not take the earlier run's workflow for its own."""
    env = fake_env.install(tmp_path, [fake_env.OWN_FIXTURES / "conformance"], FAKE_OSMO_VERSION="6.4.0")
    fake_env.apply(monkeypatch, env)
    ran: list[dict[str, Any]] = []
    for state in ("a", "b"):  # one OSMO server, two state dirs, one session name
        backend = OsmoBackend(tmp_path / state / "state", {"pool": "fake-pool", "capture_timeout": 3.0})
        # a long-lived process (the chat, the MCP server) has asked the server's version already: labels are on
        assert backend.capabilities.labels
        s = Session(InMemorySaver(), make_deps(backend, tmp_path / state, auto_yes=True, session_id="same"), "same")  # type: ignore[arg-type]
        out = s.run(_first(tmp_path))
        assert out["outcome"] == "COMPLETED", out.get("outcome_reason")
        ran.append({"out": out, "submitted": s.kinds("submitted")})
    assert [e["reused"] for e in ran[1]["submitted"]] == [False], ran[1]["submitted"]
    assert ran[0]["out"]["workflow_ids"] != ran[1]["out"]["workflow_ids"]
    listed = OsmoBackend(tmp_path / "a" / "state", {"pool": "fake-pool"}).list_workflows(limit=10)
    assert len(listed) == 2  # the server ran both


def test_a_reused_session_name_on_local_with_sessions_elsewhere_submits_its_own_workflow(tmp_path: Path) -> None:
    """Local keeps its records in the state dir; with the sessions in another store (PostgreSQL, or a removed
    sessions file) a new session under the same name must not take the earlier run's workflow for its own."""
    backend = LocalBackend(tmp_path / "state")
    ran = []
    for _ in range(2):  # a fresh, empty session store each time: the session is new, the state dir is the same
        s = Session(InMemorySaver(), make_deps(backend, tmp_path, auto_yes=True, session_id="same"), "same")
        out = s.run(_first(tmp_path))
        assert out["outcome"] == "COMPLETED", out.get("outcome_reason")
        ran.append((out, s.kinds("submitted")))
    assert [e["reused"] for e in ran[1][1]] == [False], ran[1][1]
    assert ran[0][0]["workflow_ids"] != ran[1][0]["workflow_ids"]
    assert len(backend.list_workflows()) == 2
