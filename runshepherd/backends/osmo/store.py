"""What OSMO cannot remember for us, kept under ``state_dir/osmo/``.

* ``keys.json`` — idempotency key → workflow id (OSMO has no such field). A key is written as "submitting"
  (with the spec name and time) *before* the submit call and replaced by the id after it, so a crash in between
  can still be resolved by looking for a workflow of that name submitted since then.
* ``outputs.json`` — workflow id → {task: [declared output URLs]}, because query JSON does not carry them.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from filelock import FileLock
from pydantic import BaseModel, Field

from runshepherd.backends.files.records import write_json_atomic


class PendingKey(BaseModel):
    spec_name: str
    since: datetime
    workflow_id: str | None = None


class KeyBook(BaseModel):
    keys: dict[str, PendingKey] = Field(default_factory=dict)


class OsmoStore:
    def __init__(self, state_dir: Path) -> None:
        self.root = Path(state_dir).expanduser() / "osmo"

    @property
    def tmp_dir(self) -> Path:
        path = self.root / "tmp"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def _lock(self) -> FileLock:
        self.root.mkdir(parents=True, exist_ok=True)
        return FileLock(str(self.root / "store.lock"), timeout=30)

    # ------------------------------------------------------------------------------------------- keys
    def key(self, key: str) -> PendingKey | None:
        return self._keys().keys.get(key)

    def mark_submitting(self, key: str, spec_name: str, since: datetime) -> None:
        with self._lock():
            book = self._keys()
            book.keys[key] = PendingKey(spec_name=spec_name, since=since)
            self._write("keys.json", book.model_dump(mode="json"))

    def record_key(self, key: str, workflow_id: str) -> None:
        with self._lock():
            book = self._keys()
            entry = book.keys.get(key)
            book.keys[key] = PendingKey(
                spec_name=entry.spec_name if entry else workflow_id.rsplit("-", 1)[0],
                since=entry.since if entry else datetime.now().astimezone(),
                workflow_id=workflow_id,
            )
            self._write("keys.json", book.model_dump(mode="json"))

    def forget_key(self, key: str) -> None:
        with self._lock():
            book = self._keys()
            if book.keys.pop(key, None) is not None:
                self._write("keys.json", book.model_dump(mode="json"))

    def _keys(self) -> KeyBook:
        data = self._read("keys.json")
        return KeyBook.model_validate(data) if data else KeyBook()

    # ------------------------------------------------------------------------------------------- outputs
    def outputs(self, workflow_id: str) -> dict[str, list[str]] | None:
        data = self._read("outputs.json") or {}
        got = data.get(workflow_id)
        return {str(k): [str(u) for u in v] for k, v in got.items()} if isinstance(got, dict) else None

    def record_outputs(self, workflow_id: str, per_task: dict[str, list[str]]) -> None:
        with self._lock():
            data = self._read("outputs.json") or {}
            data[workflow_id] = per_task
            self._write("outputs.json", data)

    # ------------------------------------------------------------------------------------------- files
    def _read(self, name: str) -> Any:
        path = self.root / name
        if not path.exists():
            return None
        text = path.read_text(encoding="utf-8")
        return json.loads(text) if text.strip() else None

    def _write(self, name: str, data: dict[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        write_json_atomic(self.root / name, data)
