"""A conversation on disk: which run sessions it started, the current one, a pending chat confirmation and the
last turns (redacted). Small JSON in `<state_dir>/chats/ID.json`, so `orchestrate chat --session ID` continues."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, Field

from runshepherd.logs import redact

MAX_TURNS = 40


class Confirmation(BaseModel):
    """A question the chat itself asked (cancel, a late download, a late save): what happens on yes."""

    action: str  # cancel | cancel_session | cancel_sweep | download | save_app
    workflow: str
    session: str | None = None
    text: str


class ChatRecord(BaseModel):
    id: str
    runs: list[str] = Field(default_factory=list)
    current: str | None = None
    confirm: Confirmation | None = None
    turns: list[dict[str, str]] = Field(default_factory=list)

    def add_turn(self, role: str, text: str) -> None:
        self.turns = [*self.turns, {"role": role, "text": redact(text)[0][:500]}][-MAX_TURNS:]


def chat_path(state_dir: Path, chat_id: str) -> Path:
    return Path(state_dir) / "chats" / f"{chat_id}.json"


def load(state_dir: Path, chat_id: str) -> ChatRecord | None:
    from pydantic import ValidationError

    from runshepherd.environment import damaged_file

    p = chat_path(state_dir, chat_id)
    if not p.is_file():
        return None
    try:
        return ChatRecord.model_validate_json(p.read_bytes())
    except ValidationError:  # cut short by a full disk, edited by hand: say so, never "a bug in RunShepherd"
        raise damaged_file(p, "a chat record") from None


def save(state_dir: Path, rec: ChatRecord) -> None:
    p = chat_path(state_dir, rec.id)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(".tmp")
    tmp.write_text(json.dumps(rec.model_dump(mode="json"), indent=1), encoding="utf-8")
    tmp.replace(p)
