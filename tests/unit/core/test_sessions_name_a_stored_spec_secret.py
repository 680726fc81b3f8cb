"""A session checkpointed before specs with literal secrets were refused can still hold one in its stored spec.
Nothing rewrites it (the scheduler and the backend's workflow record hold the same spec), so `orchestrate sessions`
names the session and the kind of secret, never the value, and says to rotate it.

Before: `sessions` listed such a session like any other; nothing said a secret was kept."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

TOKEN = "hf_" + "abcdefghijklmnopqrstuvwxyz0123456789"
SPEC = "workflow:\n  name: t\n  tasks:\n  - name: a\n    environment:\n      HF_TOKEN: {}\n"


def _seed(state: Path, sid: str, spec: str, **more: object) -> None:
    """A session as an older RunShepherd stored it: its spec in the checkpoint as loaded, unchecked."""
    from runshepherd.graph.builder import compile_graph
    from runshepherd.graph.checkpoint import open_saver
    from runshepherd.graph.runner import session_config

    with open_saver(state, None) as saver:
        values = {"request": "train it", "spec": spec, **more}
        compile_graph(saver).update_state(session_config(sid), values, as_node="plan")


def test_sessions_names_a_session_whose_stored_spec_holds_a_secret(tmp_path: Path) -> None:
    from runshepherd.cli.main import app

    state = tmp_path / "state"
    _seed(state, "old1", SPEC.format(TOKEN), attempt={"workflow_id": "t-1"})
    _seed(state, "clean1", SPEC.format("$HF_TOKEN"), set_values={"lr": "0.1"})  # a reference is no secret
    _seed(state, "old2", SPEC.format("$HF_TOKEN"), set_values={"token": TOKEN})
    common = ["--state-dir", str(state), "--backend", "local"]
    listed = json.loads(CliRunner().invoke(app, ["sessions", "--json", *common]).output)["sessions"]
    assert {r["session"]: r["spec_secrets"] for r in listed} == {
        "old1": ["hf_token"],
        "clean1": [],
        "old2": ["hf_token"],
    }
    shown = CliRunner().invoke(app, ["sessions", *common], terminal_width=200).output
    assert TOKEN not in shown
    assert "warning: session old1 keeps a literal secret (hf_token) in its stored spec" in shown, shown
    assert "(t-1's record and the scheduler hold the same spec): rotate that secret" in shown
    assert "warning: session old2 " in shown and "warning: session clean1" not in shown
