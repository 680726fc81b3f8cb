"""Delivery channels, one per target kind: ``https://…``/``http://…`` webhook (JSON POST; Slack and Discord
bodies when the URL is theirs), ``mailto:ADDR`` through the SMTP settings, ``desktop`` (notify-send) and
``file:PATH`` (JSON lines). Each ``send`` raises on failure; retrying is the dispatcher's job."""

from __future__ import annotations

import json
import os
import re
import shutil
import smtplib
import subprocess
import urllib.request
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol, runtime_checkable
from urllib.parse import urlsplit

from runshepherd.config import SmtpConfig
from runshepherd.errors import ConfigError
from runshepherd.notify.payload import Notification

HTTP_TIMEOUT = 10.0


@runtime_checkable
class Channel(Protocol):
    target: str

    def send(self, note: Notification) -> None: ...


class Webhook:
    def __init__(self, url: str) -> None:
        self.target = url
        self.host = (urlsplit(url).hostname or "").lower()

    def body(self, note: Notification) -> dict[str, object]:
        if self.host == "hooks.slack.com" or self.host.endswith(".slack.com"):
            return {"text": note.text()}
        if self.host in ("discord.com", "discordapp.com") or self.host.endswith(".discord.com"):
            return {"content": note.text()[:2000]}
        return note.model_dump(mode="json")

    def send(self, note: Notification) -> None:
        data = json.dumps(self.body(note)).encode()
        req = urllib.request.Request(
            self.target, data=data, method="POST", headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as resp:  # noqa: S310 (the person's own URL)
            if resp.status >= 300:
                raise OSError(f"webhook answered HTTP {resp.status}")


class Mail:
    def __init__(self, address: str, smtp: SmtpConfig) -> None:
        self.target = f"mailto:{address}"
        self.address = address
        self.smtp = smtp

    def send(self, note: Notification) -> None:
        msg = EmailMessage()
        msg["Subject"] = note.title()
        msg["From"] = self.smtp.sender
        msg["To"] = self.address
        msg.set_content(note.text() + "\n\n" + json.dumps(note.model_dump(mode="json"), indent=2))
        with smtplib.SMTP(self.smtp.host, self.smtp.port, timeout=self.smtp.timeout_seconds) as server:
            if self.smtp.starttls:
                server.starttls()
            if self.smtp.username:
                password = os.environ.get(self.smtp.password_env or "", "")
                server.login(self.smtp.username, password)
            server.send_message(msg)


class Desktop:
    target = "desktop"

    def send(self, note: Notification) -> None:
        exe = shutil.which("notify-send")
        if exe is None:
            raise OSError("notify-send is not installed: no desktop notifications on this machine")
        subprocess.run([exe, note.title(), note.summary or note.status], check=True, timeout=10)


class JsonLines:
    def __init__(self, path: str) -> None:
        self.target = f"file:{path}"
        self.path = Path(path).expanduser()

    def send(self, note: Notification) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(note.model_dump(mode="json")) + "\n")


def shown_target(target: str) -> str:
    """A target as it may be printed: a webhook URL without its user:password and query (where tokens ride),
    the rest redacted (a Slack webhook's path is its secret)."""
    from urllib.parse import urlunsplit

    from runshepherd.logs import redact

    if target.startswith(("http://", "https://")):
        parts = urlsplit(target)
        host = (parts.hostname or "") + (f":{parts.port}" if parts.port else "")
        path = _TOKEN_SEGMENT.sub("…", parts.path)
        target = urlunsplit((parts.scheme, host, path, "…" if parts.query else "", ""))
    return redact(target)[0]


# A path segment that reads as a key rather than a name (16+ characters mixing letters and digits: a Teams or
# generic webhook's token, a GUID); services put it in the path as often as in the query.
_TOKEN_SEGMENT = re.compile(r"(?<=/)(?=[^/]*[A-Za-z])(?=[^/]*\d)[A-Za-z0-9_@.=+-]{16,}(?=/|$)")


def _not_a_notes_file(path: Path) -> str | None:
    """Why an existing file must not take notifications, or None: a file:PATH target appends to what is there, so a
    typo'd or pasted path (``/etc/passwd``, a device, someone's YAML) would be damaged silently. A new file, an empty
    one, or one whose first line is a JSON object (a notification written before) is fine."""
    if not path.exists():
        return None
    if not path.is_file():
        return "is not a regular file"
    with path.open("rb") as fh:
        head = fh.readline(65536)
    if not head.strip():
        return None
    try:
        first = json.loads(head)
    except ValueError:
        first = None
    return None if isinstance(first, dict) else "already holds something other than notifications (JSON lines)"


def channel_for(target: str, smtp: SmtpConfig | None = None) -> Channel:
    """A channel for one target string; a clear error (what is accepted) otherwise."""
    t = target.strip()
    if t.startswith(("https://", "http://")):
        if "@" in urlsplit(t).netloc:  # urllib would take `user:password@host` for the host name and never connect
            raise ConfigError(
                f"notify target {shown_target(t)}: a user:password in a webhook URL is not supported — use the URL "
                "your service gives, with its token in the path or query"
            )
        if not urlsplit(t).hostname:  # was tried 5 times over ~8 s, then "urlopen error no host given"
            raise ConfigError(f"notify target {shown_target(t)!r} names no host — give the webhook's whole URL")
        return Webhook(t)
    if t.startswith("mailto:") and "@" in t:
        return Mail(t.removeprefix("mailto:"), smtp or SmtpConfig())
    if t == "desktop":
        return Desktop()
    if t.startswith("file:") and len(t) > len("file:"):
        path = t.removeprefix("file://") if t.startswith("file://") else t.removeprefix("file:")
        if Path(path).expanduser().is_dir():  # was tried 5 times, then "IsADirectoryError"
            raise ConfigError(
                f"notify target {t!r} is a folder — give a file in it (file:{path.rstrip('/')}/notes.jsonl): "
                "each notification is appended to it as one JSON line"
            )
        not_ours = _not_a_notes_file(Path(path).expanduser())
        if not_ours:
            raise ConfigError(
                f"notify target {t!r} {not_ours}, so notifications would be appended to it — give a new file "
                "(e.g. file:~/runshepherd-notes.jsonl) or one earlier notifications went to"
            )
        return JsonLines(path)
    from runshepherd.logs import redact

    shown = redact(_TOKEN_SEGMENT.sub("…", target))[0]  # a hook typed without https:// keeps its key in the path
    raise ConfigError(
        f"notify target {shown!r} not understood — use https://… (webhook), mailto:you@example.com, desktop "
        "or file:PATH"
    )


def parse_targets(targets: list[str], smtp: SmtpConfig | None = None) -> list[Channel]:
    seen: dict[str, Channel] = {}
    for t in targets:
        ch = channel_for(t, smtp)
        seen.setdefault(ch.target, ch)
    return list(seen.values())
