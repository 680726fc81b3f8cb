"""The machine's failures read as the machine's: one line naming the path and what to do, exit 1, never "a bug"."""

from __future__ import annotations

import errno
import os
import signal
import time
from pathlib import Path

import pytest
from cli_helpers import gated_spec, json_lines, run, spawn, until_running

from runshepherd.cli import main as cli_main


def _one_line_error(res: object, path: Path) -> None:
    err = res.stderr.strip()  # type: ignore[attr-defined]
    assert res.returncode == 1, err  # type: ignore[attr-defined]
    assert len(err.splitlines()) == 1 and str(path) in err and "This is a bug" not in err


def test_a_damaged_sessions_database_is_named_with_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "state" / "sessions.sqlite"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"not a database " * 100)
    for args in (("sessions",), ("resume", "abc", "--yes")):
        res = run(tmp_path, *args, timeout=60)
        _one_line_error(res, db)
        assert "is damaged" in res.stderr and "mv " in res.stderr


def test_a_truncated_sessions_database_is_not_read_as_no_sessions(tmp_path: Path) -> None:
    db = tmp_path / "state" / "sessions.sqlite"
    db.parent.mkdir(parents=True)
    db.write_bytes(b"")
    old = time.time() - 3600
    os.utime(db, (old, old))
    res = run(tmp_path, "sessions", timeout=60)
    _one_line_error(res, db)
    assert "0 bytes" in res.stderr


@pytest.mark.parametrize(
    ("code", "said"),
    [(errno.ENOSPC, "no space left"), (errno.EROFS, "read-only"), (errno.EACCES, "permission denied")],
)
def test_disk_full_or_read_only_is_one_line_not_a_bug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], code: int, said: str
) -> None:
    where = tmp_path / "state" / "locks" / "s1.lock"

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(code, os.strerror(code), str(where))

    from runshepherd.cli import session

    monkeypatch.setattr(session, "sessions", refuse)
    assert cli_main.main(["sessions", "--state-dir", str(tmp_path / "state")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {where}: ") and said in err and "bug" not in err
    assert not (tmp_path / "state" / "crashes").exists()


def test_a_crash_dump_goes_under_the_state_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from runshepherd.cli import session

    def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(session, "sessions", crash)
    assert cli_main.main(["sessions", "--state-dir", str(tmp_path / "state")]) == 1
    dumps = list((tmp_path / "state" / "crashes").glob("crash-*.txt"))
    assert len(dumps) == 1 and "RuntimeError: boom" in dumps[0].read_text()
    assert str(dumps[0]) in capsys.readouterr().err


def test_sigterm_says_where_to_resume_and_resume_submits_nothing_new(tmp_path: Path) -> None:
    spec = tmp_path / "slow.yaml"
    spec.write_text(gated_spec(tmp_path / "go"))  # runs until the driver is terminated, then finishes at once
    proc = spawn(tmp_path, "run", "--spec", str(spec), "--yes", "--json", "--session", "term1")
    assert proc.stderr is not None
    until_running(proc)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 143
    (tmp_path / "go").touch()
    assert "orchestrate resume term1" in proc.stderr.read()
    res = run(tmp_path, "resume", "term1", "--yes", "--json")
    events = json_lines(res.stdout)
    assert res.returncode == 0 and events[-1]["workflow_ids"] == ["slow-1"], res.stderr
    assert not any(e["event"] == "submitted" and not e.get("reused") for e in events)
