"""Hostile input through the CLI a person runs: each is refused with exit 2 and one line naming the limit."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from cli_helpers import REPO, run

sys.path.insert(0, str(REPO / "tests" / "unit" / "spec"))
from test_hostile_specs import alias_bomb  # noqa: E402


def test_validate_refuses_a_1kb_alias_bomb_with_exit_2(tmp_path: Path) -> None:
    spec = tmp_path / "bomb.yaml"
    spec.write_text(alias_bomb())
    assert spec.stat().st_size < 1024
    res = run(tmp_path, "validate", str(spec), timeout=60)
    assert res.returncode == 2, res.stderr
    assert "bomb.yaml:" in res.stderr and "expand this document to more than 200,000 values" in res.stderr
    assert "Traceback" not in res.stderr and "This is a bug" not in res.stderr


def test_download_of_a_file_outside_the_store_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("not yours\n")
    for url in (secret.as_uri(), "file:///etc/passwd", "gopher://example.com/x"):
        res = run(tmp_path, "download", url, "dl/b", timeout=60)
        assert res.returncode == 2, (url, res.stderr)
        assert "download" in res.stderr and "This is a bug" not in res.stderr
        assert not (tmp_path / "dl").exists()


def test_ids_are_names_never_paths(tmp_path: Path) -> None:
    spec = REPO / "examples" / "train-classifier.yaml"
    outside = tmp_path / "outside"
    for sid in (f"../../../..{outside}", "$(touch pwned)", "a" * 5000, "x/y"):
        res = run(tmp_path, "run", "--spec", str(spec), "--session", sid, "--no-input", timeout=60)
        assert res.returncode == 2 and "is not a valid id" in res.stderr, (sid[:40], res.stderr)
        res = run(tmp_path, "resume", sid, "--yes", timeout=60)
        assert res.returncode == 2 and "is not a valid id" in res.stderr
    for cmd in ("status", "logs", "cancel", "explain"):
        res = run(tmp_path, cmd, "../../etc", timeout=60)
        assert res.returncode == 2 and "workflow id" in res.stderr, res.stderr
    assert not list(tmp_path.glob("outside*")) and not (tmp_path / "pwned").exists()
    assert not (tmp_path / "state" / "locks").exists() or not any((tmp_path / "state" / "locks").rglob("*/*"))


def test_a_missing_id_names_what_to_pass_and_where_to_find_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from runshepherd.cli.main import main

    where = {
        "status": "orchestrate list",
        "logs": "orchestrate list",
        "explain": "orchestrate list",
        "cancel": "orchestrate sessions",
        "resume": "orchestrate sessions",
        "attach": "orchestrate sessions",
    }
    for cmd, hint in where.items():  # was click's 3-line "Usage: … Error: Missing argument 'workflow'."
        assert main([cmd, "--state-dir", str(tmp_path / "state")]) == 2
        out = capsys.readouterr()
        lines = out.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(("error: say which", "error: say what")), out.err
        assert f"orchestrate {cmd} " in lines[0] and hint in lines[0] and "Usage:" not in out.err, out.err
