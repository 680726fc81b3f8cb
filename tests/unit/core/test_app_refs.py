"""`app submit NAME:VERSION` with a version that is not a number is exit 2 saying the shape — before: an
"internal error: ValueError: invalid literal for int()" for `NAME:abc` and `NAME:1:2`."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.apps.registry import AppError, AppRegistry


@pytest.mark.parametrize("ver", ["abc", "1:2", "-1", " 1", "v1", "", "\u0661"])  # was: "" the latest, U+0661 version 1
def test_a_version_that_is_not_a_number_is_said_with_the_latest(tmp_path: Path, ver: str) -> None:
    reg = AppRegistry(tmp_path)
    reg.save("trainer", "Trains.", "workflow: {}\n")
    with pytest.raises(AppError, match=r"the version after ':' is a number, e\.g\. trainer:1 \(latest is 1\)"):
        reg.spec(f"trainer:{ver}")
    assert reg.spec("trainer:1") == "workflow: {}\n"


def test_app_show_never_prints_a_secret_written_in_the_spec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: `app show` printed the saved spec as it is, `HF_TOKEN: hf_…` included (`explain` redacts)."""
    from runshepherd.cli.main import main

    token = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    spec = f"workflow:\n  name: tok\n  tasks:\n  - name: t\n    image: x\n    environment:\n      HF_TOKEN: {token}\n"
    AppRegistry(tmp_path / "state" / "apps").save("tok", "Uses a token.", spec)
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path))
    for argv in (["app", "show", "tok"], ["app", "show", "tok", "--json"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "HF_TOKEN" in out and "[REDACTED:hf_token]" in out and token not in out
    assert token in AppRegistry(tmp_path / "state" / "apps").spec("tok")  # kept: a submit needs it
