"""Download a workflow's outputs into DEST truthfully: each task keeps its folder (DEST/<task>/…), nothing that
is already there is overwritten unless the person said so, and the count reported is the files written.

Backends copy one URL into a folder (``Backend.download``); this module decides the folder per URL, stages the
copies next to DEST and moves them in only when nothing would be clobbered.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlparse

from runshepherd.errors import UsageError


def subfolder(url: str, workflow_id: str | None, common: PurePosixPath | None) -> PurePosixPath:
    """Where one output lands under DEST: the part of its path after the workflow id (``<task>/checkpoints``),
    else its folder relative to the outputs' common folder."""
    path = PurePosixPath(unquote(urlparse(url).path))
    parts = path.parts
    if workflow_id and workflow_id in parts[:-1]:
        idx = len(parts) - 1 - parts[::-1].index(workflow_id)
        return PurePosixPath(*parts[idx + 1 : -1]) if idx + 1 < len(parts) - 1 else PurePosixPath()
    if common is not None and path.parent.is_relative_to(common):
        return path.parent.relative_to(common)
    return PurePosixPath()


def _common(urls: list[str]) -> PurePosixPath | None:
    parents = [str(PurePosixPath(unquote(urlparse(u).path)).parent) for u in urls]
    try:
        return PurePosixPath(os.path.commonpath(parents)) if parents else None
    except ValueError:  # mixed absolute/relative paths
        return None


def fresh_dest(root: Path, name: str) -> Path:
    """``root/name``, or ``root/name-2``, ``-3``… when that folder already holds something or is a symbolic link
    (never reused: a link named like the outputs would take them somewhere the person never chose)."""
    dest = root / name
    n = 1
    while dest.is_symlink() or (dest.exists() and (not dest.is_dir() or any(dest.iterdir()))):
        n += 1
        dest = root / f"{name}-{n}"
    return dest


def fetch(
    backend: Any,
    urls: list[str],
    dest: Path,
    *,
    workflow_id: str | None = None,
    overwrite: bool | Callable[[list[Path]], bool] = False,
) -> list[Path]:
    """Copy every output into ``dest`` keeping the task folders; return the files written (each once).

    ``overwrite``: False refuses (exit 2, nothing written) when a file is already there; a callable is asked
    with the files that would be replaced."""
    # a name the filesystem cannot hold is the person's DEST to fix, not a machine problem (exit 2). Read from the
    # name: Python 3.13's Path.exists() answers False for it (os.path.exists) where 3.11 and 3.12 raise
    if (too_long := _name_too_long(Path(os.path.abspath(dest.expanduser())))) is not None:
        raise UsageError(too_long)
    try:
        dest = dest.expanduser().resolve()
        there = dest
        while not there.exists() and there != there.parent:
            there = there.parent
    except OSError as exc:  # resolved through a link into a name too long
        if exc.errno != errno.ENAMETOOLONG:
            raise
        raise UsageError(_name_too_long(dest, always=True) or "") from None
    if not there.is_dir():  # before staging: nothing is written beside a file the person named by mistake
        raise UsageError(f"{there} is a file, not a folder — downloads go into a folder: give a folder path as DEST")
    near = dest.parent
    while not near.is_dir() and near != near.parent:  # stage on DEST's filesystem without creating DEST yet
        near = near.parent
    common = _common(urls)
    try:
        staging = Path(tempfile.mkdtemp(prefix=".runshepherd-download-", dir=near))
    except OSError as exc:  # /proc, /sys, a read-only mount: before, an internal error or "--state-dir" advice
        raise UsageError(
            f"cannot write in {near} ({exc.strerror or exc}); nothing was written — choose a folder you can write to "
            "as DEST"
        ) from None
    try:
        for url in urls:
            backend.download(url, staging / subfolder(url, workflow_id, common))
        staged = sorted(p for p in staging.rglob("*") if p.is_file() or p.is_symlink())
        finals = [(p, dest / p.relative_to(staging)) for p in staged]
        _refuse_links_below(dest, [f for _, f in finals])
        clash = [f for _, f in finals if f.exists() or f.is_symlink()]
        if clash:
            allowed = overwrite(clash) if callable(overwrite) else overwrite
            if not allowed:
                shown = ", ".join(str(f) for f in clash[:3]) + (f" and {len(clash) - 3} more" if len(clash) > 3 else "")
                raise UsageError(
                    f"{len(clash)} file(s) already in {dest} would be overwritten ({shown}); nothing was written — "
                    "choose an empty folder or pass --overwrite"
                )
        written = []
        dest.mkdir(parents=True, exist_ok=True)
        for src, final in finals:
            final.parent.mkdir(parents=True, exist_ok=True)
            os.replace(src, final)
            written.append(final)
        return written
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _name_too_long(dest: Path, *, always: bool = False) -> str | None:
    """What to say of a DEST the filesystem cannot name (which part is too long, and the limit of the filesystem
    DEST would be on), or None when its names fit (``always``: the system said they do not, so say it anyway)."""
    name_max, path_max = _limit(dest, "PC_NAME_MAX", 255), _limit(dest, "PC_PATH_MAX", 4096)
    size = {part: len(os.fsencode(part)) for part in dest.parts}  # the limits count bytes: "é" is two
    longest = max(dest.parts, key=lambda part: size[part], default="")
    unit = "characters" if size.get(longest, 0) == len(longest) else "bytes"
    shown = str(dest) if len(str(dest)) <= 80 else f"{str(dest)[:60]}…"
    if size.get(longest, 0) > name_max:
        why = f"one folder name in it is {size[longest]} {unit} long, and this filesystem allows at most {name_max}"
    elif len(os.fsencode(dest)) >= path_max or always:  # PATH_MAX counts the terminating NUL
        why = f"the path is {len(os.fsencode(dest))} bytes long, and this system allows at most {path_max - 1}"
    else:
        return None
    return f"DEST {shown}: the folder name is too long ({why}); nothing was written — give a shorter folder as DEST"


def _limit(dest: Path, name: str, default: int) -> int:
    """``os.pathconf``'s ``name`` for the filesystem DEST would be on (its nearest folder that exists)."""
    for there in (dest, *dest.parents):
        try:
            return int(os.pathconf(there, name))
        except (OSError, ValueError):
            continue
    return default


def _refuse_links_below(dest: Path, finals: list[Path]) -> None:
    """A folder under DEST that a file would be written through must not be a symbolic link: the link would take
    the file outside the folder the person chose (``DEST/train -> /elsewhere``). Refused before anything is
    written, naming the link. (A link at a file's own name is a clash: replaced only with --overwrite, never
    written through.)"""
    for final in finals:
        here = dest
        for part in final.relative_to(dest).parts[:-1]:
            here = here / part
            if here.is_symlink():
                raise UsageError(
                    f"{here} is a symbolic link (to {os.readlink(here)}); a download never writes through a link, "
                    "so nothing was written — remove the link or choose another folder as DEST"
                )
            if not here.exists():
                break
