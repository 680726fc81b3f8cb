"""Failures of the machine, not of RunShepherd or the job: a full disk, a read-only or unwritable state dir, a
damaged sessions database. Each becomes one line naming the path and what to do (exit 1), never "a bug".
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
from pathlib import Path

from runshepherd.errors import RunShepherdError

_WHAT_TO_DO = {
    errno.ENOSPC: "no space left on the device — free some space, or point --state-dir (RUNSHEPHERD_STATE_DIR) "
    "at another disk, then run the command again",
    errno.EDQUOT: "the disk quota is exhausted — free some space or raise the quota, then run the command again",
    errno.EROFS: "the filesystem is read-only — point --state-dir (RUNSHEPHERD_STATE_DIR) at a writable folder",
    errno.EACCES: "permission denied — make it writable by this user, or point --state-dir at a folder you own",
    errno.EPERM: "operation not permitted — make it writable by this user, or point --state-dir at a folder you own",
    errno.ENAMETOOLONG: "a file name is too long for this filesystem — use a shorter name",
    errno.EIO: "an input/output error from the disk — check the device, then run the command again",
}


class EnvironmentProblem(RunShepherdError):
    """The machine refused (disk, permissions, a damaged file): exit 1, nothing of ours to fix."""

    exit_code = 1


def environment_problem(exc: BaseException) -> EnvironmentProblem | None:
    """The environment failure behind ``exc`` (itself or what caused it), as one actionable line; else None."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, EnvironmentProblem):
            return cur
        if isinstance(cur, OSError) and cur.errno in _WHAT_TO_DO:
            where = cur.filename or "the state dir"
            return EnvironmentProblem(f"{where}: {_WHAT_TO_DO[cur.errno]}")
        cur = cur.__cause__ or cur.__context__
    return None


def database_problem(path: Path, exc: sqlite3.Error) -> EnvironmentProblem:
    """A sessions-database error as the person can act on it."""
    msg = str(exc)
    low = msg.lower()
    if "full" in low or ("i/o" in low and _nearly_full(path)):  # SQLite reports ENOSPC as a disk I/O error
        return EnvironmentProblem(f"{path}: {_WHAT_TO_DO[errno.ENOSPC]}")
    if "readonly" in low or "read-only" in low:
        return EnvironmentProblem(f"{path}: cannot write ({msg}) — {_WHAT_TO_DO[errno.EROFS]}")
    if "unable to open" in low:
        return EnvironmentProblem(
            f"{path}: cannot be opened ({msg}) — check that its folder exists and is writable, or point "
            "--state-dir at another folder"
        )
    if "i/o" in low:
        return EnvironmentProblem(f"{path}: {_WHAT_TO_DO[errno.EIO]}")
    return damaged(path, msg)


def _nearly_full(path: Path) -> bool:
    try:
        return shutil.disk_usage(path.parent).free < 1024 * 1024
    except OSError:
        return False


def damaged(path: Path, why: str) -> EnvironmentProblem:
    return EnvironmentProblem(
        f"{path} is damaged ({why}) — its sessions cannot be read. Move it aside to start with no sessions "
        f"(mv {path} {path}.broken); workflows are kept by the backend (`orchestrate list`)"
    )


def damaged_file(path: Path, what: str) -> EnvironmentProblem:
    """A small state file that no longer parses (cut short by a full disk, edited by hand): name it and the move
    that sets it aside, instead of an internal error."""
    return EnvironmentProblem(
        f"{path} is damaged (not {what}) — move it aside (mv {path} {path}.broken) and run the command again"
    )
