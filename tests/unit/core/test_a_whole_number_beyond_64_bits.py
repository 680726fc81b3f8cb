"""`--set epochs=99999999999999999999` is refused as bad input (exit 2, the file, line and key), never a crash.

Before: the session was created, then 'internal error: TypeError: Integer exceeds 64-bit range' (the session's
checkpoint keeps values in msgpack's 64 bits), exit 1, a crash file — for a value the person had mistyped."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from runshepherd.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.mark.parametrize(
    "args",
    [
        ["--spec", "templated.yaml", "--set", "epochs=99999999999999999999"],
        ["--spec", "templated.yaml", "--set", "epochs=-99999999999999999999"],
    ],
)
def test_a_whole_number_too_large_to_keep_is_refused(
    here: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    shutil.copy(EXAMPLES / "templated.yaml", here / "templated.yaml")
    assert main(["run", *args, "--no-input"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "internal error" not in err, err
    assert "templated.yaml:33 default-values.epochs: --set epochs expects a whole number within 64 bits" in err, err
    assert not (here / "state" / "crashes").exists()
