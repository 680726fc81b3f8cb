"""A session's checkpoints hold its spec once (per distinct spec), not once per checkpoint."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from graph_helpers import Session, make_deps

from runshepherd.backends.local import LocalBackend
from runshepherd.graph.checkpoint import open_saver

PADDED = """\
workflow:
  name: padded
  resources:
    default: {cpu: 1, memory: 256Mi}
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["for i in 1 2 3; do echo step $i/3; sleep 1; done"]
""" + "".join(f"# PADLINE {i:05d} {'x' * 60}\n" for i in range(2000))


def test_checkpoints_hold_the_spec_once(tmp_path: Path) -> None:
    spec = tmp_path / "padded.yaml"
    spec.write_text(PADDED)
    backend = LocalBackend(tmp_path / "state")
    with open_saver(tmp_path / "state") as saver:
        s = Session(saver, make_deps(backend, tmp_path, auto_yes=True), thread="big")
        out = s.run({"request": "padded", "spec_path": str(spec)})
        assert out["outcome"] == "COMPLETED"
        assert out["spec"] == PADDED  # read back whole from the one stored copy
    conn = sqlite3.connect(str(tmp_path / "state" / "sessions.sqlite"))
    rows = conn.execute("SELECT checkpoint FROM checkpoints").fetchall()
    writes = conn.execute("SELECT value FROM writes").fetchall()
    assert rows  # whatever pruning kept …
    assert not any(b"PADLINE 00001" in (r[0] or b"") for r in rows + writes)  # … none holding the spec text
    assert conn.execute("SELECT count(*) FROM rs_blobs WHERE text LIKE '%PADLINE 00001%'").fetchone() == (1,)
