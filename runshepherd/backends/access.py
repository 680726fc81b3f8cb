"""Can I read (or write) this location? An optional backend capability: OSMO asks `osmo data check`; local and Slurm
look at the filesystem path (on Slurm, as this machine sees the shared filesystem).

A check reports what was actually checked: ``ok`` is True/False from the check, never inferred.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable
from urllib.parse import unquote, urlparse

from pydantic import BaseModel

from runshepherd.backends.base import OutOfScope
from runshepherd.spec.raw_tasks import raw_tasks

Access = Literal["read", "write"]


class AccessCheck(BaseModel):
    uri: str
    access: Access
    ok: bool
    detail: str  # what was checked and what it said, in plain words
    checked_by: str  # the command or call that answered, e.g. "osmo data check … --access-type READ"


@runtime_checkable
class AccessChecker(Protocol):
    def check_access(self, uri: str, access: Access) -> AccessCheck: ...


def local_path(uri: str) -> Path:
    """A plain path or a file:// URL (no host); anything else is not a filesystem location."""
    if "://" not in uri:
        return Path(uri).expanduser()
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        raise OutOfScope(f"{uri!r}: this backend checks filesystem paths (or file:// URLs) only")
    return Path(unquote(parsed.path))


def check_path(uri: str, access: Access, *, who: str = "this machine") -> AccessCheck:
    """Read: the path exists and can be read (a folder also listed). Write: the path (or the nearest existing
    parent, where it would be created) is writable."""
    path = local_path(uri)
    call = f"filesystem check on {who} (os.access)"
    if access == "read":
        if not path.exists():
            return AccessCheck(uri=uri, access=access, ok=False, detail=f"{path} does not exist", checked_by=call)
        mode = os.R_OK | (os.X_OK if path.is_dir() else 0)
        ok = os.access(path, mode)
        what = "folder can be listed and read" if path.is_dir() else "file can be read"
        detail = f"{path}: {what}" if ok else f"{path}: permission denied for reading"
        return AccessCheck(uri=uri, access=access, ok=ok, detail=detail, checked_by=call)
    target = path
    while not target.exists() and target != target.parent:
        target = target.parent
    ok = os.access(target, os.W_OK | (os.X_OK if target.is_dir() else 0))
    where = "" if target == path else f" (does not exist yet; checked {target}, where it would be created)"
    detail = f"{path}: {'writable' if ok else 'permission denied for writing'}{where}"
    return AccessCheck(uri=uri, access=access, ok=ok, detail=detail, checked_by=call)


def storage_locations(spec_text: str, task: str | None, *, limit: int = 4) -> list[tuple[str, Access]]:
    """The storage URLs a task reads (inputs → read) and writes (outputs → write), from the rendered spec; all
    tasks when ``task`` is None. At most ``limit``, inputs first."""
    import yaml

    try:
        wf = (yaml.safe_load(spec_text) or {}).get("workflow") or {}
    except yaml.YAMLError:
        return []
    tasks = raw_tasks(wf)
    found: list[tuple[str, Access]] = []
    for t in tasks:
        if not isinstance(t, dict) or (task is not None and t.get("name") != task):
            continue
        pairs: tuple[tuple[str, Access], ...] = (("inputs", "read"), ("outputs", "write"))
        for key, access in pairs:
            for item in t.get(key) or []:
                url = item.get("url") if isinstance(item, dict) else None
                if isinstance(url, str) and "://" in url and (url, access) not in found:
                    found.append((url, access))
    found.sort(key=lambda ua: ua[1] != "read")
    return found[:limit]


def confirm_access(backend: object, spec_text: str, task: str | None) -> list[AccessCheck]:
    """For a permission failure: check the task's own storage locations, so the diagnosis can say whether
    storage access is the cause (a check that says no) or is ruled out (every check passes)."""
    if not isinstance(backend, AccessChecker):
        return []
    from runshepherd.backends.base import BackendError

    out = []
    for url, access in storage_locations(spec_text, task):
        try:
            out.append(backend.check_access(url, access))
        except BackendError:
            continue  # a location this backend cannot check (another scheme): nothing is claimed about it
    return out
