"""A secret said in words, with no `=` ("my secret is hunter2-…", "the api secret 9f8e…"), is redacted in what
`diagnose --log` shows and left out of a drafted spec, like `secret=…` always was.

Before: `diagnose --log` quoted "RuntimeError: auth failed with secret hunter2-correct-horse" as its evidence and
explanation, and `draft "… my secret is hunter2-…"` kept it with no warning. The word alone ("the secret",
"secrets manager", a Kubernetes secret's quoted name) is ordinary text and stays as written."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main
from runshepherd.logs import redact

SECRET = "hunter2-correct-horse"
HEX = "9f8e7d6c5b4a39281716aabb"
WANDB = "0123456789abcdef0123456789abcdef01234567"  # a W&B API key's shape: 40 hex digits
LOG = (
    "Starting training\n"
    f"secret: {HEX}\n"
    f"the api secret {HEX} was rejected\n"
    'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
    f'    raise RuntimeError("auth failed with secret {SECRET}")\n'
    f"RuntimeError: auth failed with secret {SECRET}\n"
)


def test_diagnose_log_shows_no_secret_said_in_words(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "run.log").write_text(LOG)
    assert main(["diagnose", "--log", "run.log"]) == 0
    shown = capsys.readouterr().out
    assert main(["diagnose", "--log", "run.log", "--json"]) == 0
    shown += capsys.readouterr().out
    assert "user_code_error" in shown and "auth failed with secret [REDACTED:secret]" in shown
    assert SECRET not in shown and HEX not in shown


def test_run_keeps_a_wandb_key_said_in_words_out_of_the_session(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'my wandb key is <40 hex>' was kept in the session's request (sessions.sqlite) with no warning."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", f"train a small classifier, my wandb key is {WANDB}", "--no-input"]) == 3
    said = capsys.readouterr()
    assert "your request holds a secret (api_key)" in said.out + said.err and WANDB not in said.out + said.err
    stored = b"".join(p.read_bytes() for p in (here / "state").rglob("*") if p.is_file())
    assert stored and WANDB.encode() not in stored


def test_draft_leaves_out_a_secret_said_in_words(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", f"train a small classifier for 3 epochs, my secret is {SECRET}", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert SECRET not in json.dumps(doc)
    assert any("your request holds a secret (secret)" in w for w in doc["warnings"])


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        (f"my secret is {SECRET}", "my secret is [REDACTED:secret]"),
        (f"my secret is '{SECRET}'.", "my secret is '[REDACTED:secret]'."),
        (f"Using secret {HEX}", "Using secret [REDACTED:secret]"),
        ("the db password was s3cr3t-pass now", "the db password was [REDACTED:password] now"),
        (f"secret: {HEX}", "secret: [REDACTED:secret]"),
        (f"my wandb key is {WANDB}", "my wandb key is [REDACTED:api_key]"),
        (f"W&B key {WANDB}", "W&B key [REDACTED:api_key]"),
        (f"the hf token is {HEX}", "the hf token is [REDACTED:token]"),
    ],
)
def test_a_secret_in_words_is_redacted(line: str, shown: str) -> None:
    assert redact(line)[0] == shown


@pytest.mark.parametrize(
    "line",
    [
        "the secret",
        "a secret is needed to pull the image",
        "reading credentials from AWS Secrets Manager",
        "secrets manager unavailable, retrying in 5s",
        'Error: secret "db-creds-2" not found',
        "couldn't find key password in Secret default/db-creds2",
        "set the secret HF_TOKEN before submitting",
        "the secret is 8 characters long",
        "token 50256 is the end of text",
        "wandb key is not set, logging offline",
        "hf token missing: run huggingface-cli login",
    ],
)
def test_ordinary_words_about_secrets_stay(line: str) -> None:
    assert redact(line) == (line, {})
