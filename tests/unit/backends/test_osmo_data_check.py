"""`osmo data check` output, in the real CLI's JSON and in the skill fixtures' hand-written text."""

from __future__ import annotations

from pathlib import Path

from runshepherd.backends.osmo.parse import data_check

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "osmo_evals" / "files" / "fixtures" / "default"


def test_real_json_verdicts() -> None:
    assert data_check('{"status": "pass"}') == (True, "access check passed")
    assert data_check('{"status": "fail", "error": "AccessDenied: s3://b"}') == (False, "AccessDenied: s3://b")


def test_fixture_text_and_anything_else() -> None:
    assert data_check((FIXTURE / "data_check_response.txt").read_text())[0] is True
    assert data_check("Traceback: boom") == (False, "Traceback: boom")
    assert data_check("")[0] is False
