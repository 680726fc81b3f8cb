"""The local object store: what a task wrote to `{{output}}` moves to ``state_dir/objects/<id>/<task>/``."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

from runshepherd.backends.base import BackendError
from runshepherd.backends.local.logfiles import TaskLog
from runshepherd.backends.local.store import WorkflowDir

MAX_LISTED = 1000


def file_url(path: Path) -> str:
    return path.resolve().as_uri()


def list_urls(folder: Path) -> list[str]:
    """One file:// URL per stored file (the folder's own URL when there are too many to list)."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    if len(files) > MAX_LISTED:
        return [file_url(folder)]
    return [file_url(p) for p in files]


def store_outputs(wf: WorkflowDir, task: str, log: TaskLog) -> list[str]:
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
    urls = list_urls(dest)
    log.write(f"Uploaded {len(urls)} file(s)", control=True)
    return urls


def download(url: str, dest: Path) -> list[Path]:
    """Copy a file:// file or tree into ``dest`` (a directory); return the copied files."""
    parsed = urlparse(url)
    if parsed.scheme != "file":
        raise BackendError(f"the local backend can download only file:// URLs, not {url!r}")
    src = Path(unquote(parsed.path))
    if not src.exists():
        raise BackendError(f"{url} does not exist (outputs are stored only when a task finishes)")
    dest.mkdir(parents=True, exist_ok=True)
    if src.is_file():
        target = dest / src.name
        shutil.copy2(src, target)
        return [target]
    target = dest / src.name
    shutil.copytree(src, target, dirs_exist_ok=True)
    return sorted(p for p in target.rglob("*") if p.is_file())
