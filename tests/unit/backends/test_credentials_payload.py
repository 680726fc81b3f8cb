"""Credential payloads: secrets only from env or files, reported by source, never by value."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.backends.credentials import build_payload, describe, payload_files
from runshepherd.errors import UsageError


def test_nvcr_takes_the_ngc_key_from_the_environment_and_oauthtoken_as_user() -> None:
    p = build_payload(
        "REGISTRY", from_env=[], from_file=[], values=[], registry="nvcr.io", environ={"NGC_API_KEY": "k1"}
    )
    assert p["auth"].value.get_secret_value() == "k1" and p["auth"].source == "env:NGC_API_KEY"
    shown = describe(p)
    assert shown == {"registry": "nvcr.io", "auth": "from env:NGC_API_KEY", "username": "$oauthtoken"}
    assert "k1" not in repr(p) and "k1" not in str(shown)


def test_a_secret_on_the_command_line_is_refused_without_echoing_it() -> None:
    with pytest.raises(UsageError) as err:
        build_payload("REGISTRY", from_env=[], from_file=[], values=["auth=s3cr3t"], environ={})
    assert "--from-env" in str(err.value) and "s3cr3t" not in str(err.value)


def test_missing_variable_and_missing_required_key_are_clear(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="NOPE is not set"):
        build_payload("GENERIC", from_env=["token=NOPE"], from_file=[], values=[], environ={})
    with pytest.raises(UsageError, match="needs endpoint"):
        build_payload("DATA", from_env=["access_key=K"], from_file=[], values=[], environ={"K": "v"})


def test_file_values_lose_the_trailing_newline_and_travel_in_private_files(tmp_path: Path) -> None:
    (tmp_path / "key").write_text("abc\n")
    p = build_payload("GENERIC", from_env=[], from_file=[f"token={tmp_path / 'key'}"], values=[], environ={})
    with payload_files(p) as files:
        assert files["token"].read_text() == "abc" and files["token"].stat().st_mode & 0o777 == 0o600
        folder = files["token"].parent
    assert not folder.exists()
