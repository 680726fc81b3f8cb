"""`explain/logs/diagnose SWEEP` say the id is a sweep and where its workflows are, as they do for a session id."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main


@pytest.mark.parametrize("command", ["explain", "logs", "diagnose"])
def test_a_sweep_id_given_as_a_workflow_says_what_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    state = tmp_path / "state"
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(state))
    monkeypatch.setenv("HOME", str(tmp_path))
    (state / "sweeps" / "80672edb").mkdir(parents=True)
    (state / "sweeps" / "80672edb" / "sweep.json").write_text("{}")
    assert main([command, "80672edb"]) == 2
    err = capsys.readouterr().err  # was only "no workflow '80672edb' on the local backend"
    assert "80672edb is a sweep — `orchestrate status 80672edb` lists its points" in err, err
