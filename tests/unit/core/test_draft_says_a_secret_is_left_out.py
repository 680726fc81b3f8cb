"""A secret in a draft request is left out of the drafted spec, and the person is told so and what to do instead.

Before: `orchestrate draft "… HF_TOKEN=hf_… …"` (and the chat's "draft …") wrote a spec without HF_TOKEN and said
nothing: the job would later fail for want of a token nobody knew was dropped."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from runshepherd.cli.context import CliContext
from runshepherd.cli.main import main

TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
REQUEST = f"train a small classifier for 3 epochs with HF_TOKEN={TOKEN}"


def test_draft_says_the_secret_is_left_out_and_how_to_give_it(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", REQUEST, "-o", "d.yaml"]) == 0
    out = capsys.readouterr()
    said = out.out + out.err
    assert "warning: your request holds a secret (hf_token): it is left out of the drafted spec" in said
    assert "export HF_TOKEN in the shell you run orchestrate from" in said and TOKEN not in said
    spec = (here / "d.yaml").read_text()
    assert TOKEN not in spec and "HF_TOKEN" not in spec  # what the warning says happened, happened


def test_draft_json_carries_the_warning(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", REQUEST, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    [warning] = doc["warnings"]
    assert "left out of the drafted spec" in warning and TOKEN not in json.dumps(doc)


def test_a_request_without_a_secret_has_no_warning(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "train a small classifier for 3 epochs", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["warnings"] == []


def test_the_chat_draft_says_so_too(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord

    ctx = CliContext.create(config=None, state_dir=here / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c1"), interactive=False, cadence=0.2)
    convo.handle(f"draft a spec to {REQUEST.removeprefix('train ')}")
    out = capsys.readouterr().out
    assert "drafted " in out and "warning: your request holds a secret (hf_token): it is left out of the drafted" in out
    assert TOKEN not in out and not any(TOKEN in p.read_text() for p in here.glob("*.yaml"))


def test_mcp_start_run_says_so(here: Path) -> None:
    from runshepherd.mcpserver.sessions import Sessions

    ctx = CliContext.create(config=None, state_dir=here / "state", backend="local")
    sessions = Sessions(ctx)
    view = sessions.start(REQUEST)
    assert view.note is not None and "left out of the session" in view.note and TOKEN not in view.model_dump_json()
    deadline = time.monotonic() + 60  # let the background run reach its submit question before tmp_path goes
    while sessions.view(view.session).state == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sessions.view(view.session).state == "waiting"
