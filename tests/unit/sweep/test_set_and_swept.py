"""A key both set and swept is refused before anything exists: the sweep's values silently replaced the --set
one (`--sweep lr=0.1,0.2 --set lr=0.3` ran lr 0.1 and 0.2 and never said 0.3 was dropped), and `--repeat N`
replaced a `--set seed=…`."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main

SPEC = str(Path(__file__).parents[3] / "examples" / "sweep-lr.yaml")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--sweep", "lr=0.1,0.2", "--set", "lr=0.3"], "lr is set by --set and by --sweep lr=…"),
        (["--repeat", "2", "--set", "seed=5"], "seed is set by --set and by --repeat 2, which sets it to 0..1"),
    ],
)
def test_a_value_the_sweep_would_replace_is_refused(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    said: str,
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(tmp_path / "state"))
    assert main(["run", "--spec", SPEC, *args, "--no-input"]) == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "state" / "sweeps").exists()
