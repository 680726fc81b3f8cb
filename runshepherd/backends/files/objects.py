"""The file object store: what a task wrote to `{{output}}` moves to ``<root>/objects/<id>/<task>/``."""

from __future__ import annotations

import os
import shutil
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlparse

from runshepherd.backends.base import BackendError, OutOfScope
from runshepherd.backends.files.logfiles import TaskLog
from runshepherd.backends.files.records import WorkflowFiles
from runshepherd.names import is_id

MAX_LISTED = 1000


def file_url(path: Path) -> str:
    return path.resolve().as_uri()


def list_urls(folder: Path) -> list[str]:
    """One file:// URL per stored file (the folder's own URL when there are too many to list)."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    if len(files) > MAX_LISTED:
        return [file_url(folder)]
    return [file_url(p) for p in files]


def store_outputs(wf: WorkflowFiles, task: str, log: TaskLog) -> list[str]:
    """Move the task's output dir into the object store (like OSMO's upload) and return the stored URLs."""
    src = wf.output_dir(task)
    dest = wf.object_dir(task)
    dest.parent.mkdir(parents=True, exist_ok=True)
    if not src.is_dir() or not any(src.iterdir()):
        dest.mkdir(exist_ok=True)
        return []
    log.write(f"Uploading outputs from {src} to {file_url(dest)}", control=True)
    if dest.exists():
        for item in src.iterdir():
            shutil.move(str(item), str(dest / item.name))
    else:
        shutil.move(str(src), str(dest))
        src.mkdir()
    drop_escaping_links(dest, log)
    urls = list_urls(dest)
    log.write(f"Uploaded {len(urls)} file(s)", control=True)
    return urls


def scoped_source(url: str, store: Path, *, backend: str) -> Path:
    """The stored path a URL names, only if it is inside the backend's object store ``store``.

    ``backend`` names the backend in the refusal ("the local backend", "the Slurm backend").

    Refused (exit 2, nothing written): other schemes, other hosts, `..` segments, anything resolving outside
    the store (``file:///etc/passwd``, a symlink planted under it).
    """
    parsed = urlparse(url)
    if parsed.scheme != "file":
        named = (  # `orchestrate download train-classifier-1`: a workflow id where its outputs' URL belongs
            f"; to download a workflow's outputs, `orchestrate status {url}` names their URL"
            if not parsed.scheme and is_id(url)  # never for '' or 'my outputs': `orchestrate status ` names nothing
            else ""
        )
        raise OutOfScope(
            f"{url!r}: {backend} downloads only file:// URLs of its own store ({file_url(store)}/…){named}"
        )
    if parsed.netloc not in ("", "localhost"):
        raise OutOfScope(f"{url!r}: a file:// URL of another host ({parsed.netloc}) — only this machine's store")
    raw = PurePosixPath(unquote(parsed.path))
    if ".." in raw.parts:
        raise OutOfScope(f"{url!r}: `..` is not allowed in a download URL — name the stored folder itself")
    root = store.resolve()
    src = Path(raw).resolve()
    if src == root or not src.is_relative_to(root):
        raise OutOfScope(
            f"{url!r} is not an output of this backend — it can download only what its workflows stored under "
            f"{file_url(store)}/<workflow>/…; see `orchestrate status WF` for a workflow's output URLs"
        )
    return src


def _task_root(path: Path, root: Path) -> Path:
    """The task's output folder a stored path belongs to (``<store>/<workflow>/<task>``)."""
    parts = path.relative_to(root).parts
    return root.joinpath(*parts[:2])


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or path.is_relative_to(folder)


def download(url: str, dest: Path, store: Path, *, backend: str) -> list[Path]:
    """Copy a stored file or tree into ``dest`` (a directory, created); return the copied files.

    Nothing is written outside ``dest``, and a symlink in the outputs is copied only when it points inside its
    own task's output folder (a link to ``/etc/shadow`` is skipped, not followed).
    """
    src = scoped_source(url, store, backend=backend)
    if not src.exists():
        raise BackendError(f"{url} does not exist (outputs are stored only when a task finishes)")
    root = store.resolve()
    dest.mkdir(parents=True, exist_ok=True)
    out = dest.resolve()
    target = out / src.name
    if not _inside(target, out):
        raise OutOfScope(f"{url!r} would be written outside {dest}")
    if src.is_file():
        shutil.copy2(src, target)
        return [target]
    copied: list[Path] = []
    for folder, dirs, files in os.walk(src):  # never follows directory links
        here = Path(folder)
        for name in [*dirs, *files]:
            item = here / name
            to = target / item.relative_to(src)
            if item.is_symlink():
                real = item.resolve()
                if not _inside(real, _task_root(item, root)) or not real.is_file():
                    continue  # a link out of the task's output folder (or to a folder): not followed
                to.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(real, to)
                copied.append(to)
            elif item.is_dir():
                to.mkdir(parents=True, exist_ok=True)
            elif item.is_file():
                to.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(item, to)
                copied.append(to)
    return sorted(copied)


def drop_escaping_links(folder: Path, log: TaskLog) -> None:
    """Remove symlinks in a task's stored outputs that point outside its own output folder, saying so."""
    if not folder.is_dir():
        return
    base = folder.resolve()
    for here, dirs, files in os.walk(folder):
        for name in [*dirs, *files]:
            item = Path(here) / name
            if item.is_symlink() and not _inside(item.resolve(), base):
                item.unlink()
                log.write(
                    f"Skipped output {item.relative_to(folder)}: a symlink out of the task's output folder",
                    control=True,
                )
