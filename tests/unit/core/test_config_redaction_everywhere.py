"""The config's `logs.redaction_patterns` apply wherever RunShepherd redacts, not only where it was handed them.

Before: `orchestrate run "… corp-0123456789ab"` kept the custom secret in the session (the request's redaction used
the built-in patterns only), the chat kept it in its record (`chats/*.json`), and a spec line holding one was taken."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from runshepherd.cli.main import main
from runshepherd.logs.redact import use_patterns

KEY = "corp-" + "0123456789ab"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cfg.yaml").write_text('logs:\n  redaction_patterns: ["corp-[0-9a-f]{12}"]\n')
    yield tmp_path
    use_patterns([])  # this process's redaction goes back to the built-in patterns for the next test


def _kept(state: Path) -> list[str]:
    return [str(p) for p in state.rglob("*") if p.is_file() and KEY.encode() in p.read_bytes()]


def test_a_custom_secret_in_a_request_is_said_and_kept_nowhere(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", f"train a small classifier with key {KEY}", "--no-input", "--config", "cfg.yaml"]) == 3
    out = capsys.readouterr()
    assert "warning: your request holds a secret (custom): it is left out of the session" in out.out
    assert KEY not in out.out + out.err and _kept(here / "state") == []


def test_the_chat_record_holds_no_custom_secret(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord
    from runshepherd.cli.context import CliContext

    ctx = CliContext.create(config=here / "cfg.yaml", state_dir=here / "state", backend="local")
    convo = ChatSession(ctx, ChatRecord(id="c1"), interactive=False, cadence=0.2)
    convo.handle(f"what is the status of my key {KEY}")
    convo.persist()
    assert KEY not in capsys.readouterr().out
    record = (here / "state" / "chats" / "c1.json").read_text()
    assert "[REDACTED:custom]" in record and _kept(here / "state") == []


def test_a_spec_holding_a_custom_secret_is_refused(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = "workflow:\n  name: w\n  tasks:\n  - name: t\n    image: x\n    command: [echo]\n"
    (here / "s.yaml").write_text(spec + f"    environment: {{BUCKET_KEY: {KEY}}}\n")
    assert main(["validate", "s.yaml", "--config", "cfg.yaml"]) == 2
    err = capsys.readouterr().err
    assert "s.yaml:7 workflow.tasks[0].environment.BUCKET_KEY value: holds a literal secret (custom)" in err
    assert KEY not in err


def test_a_pattern_that_is_not_a_regex_is_a_config_error(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (here / "bad.yaml").write_text('logs:\n  redaction_patterns: ["corp-[0-9"]\n')
    assert main(["list", "--config", "bad.yaml"]) == 2
    err = capsys.readouterr().err
    assert "setting 'logs.redaction_patterns'" in err and "is not a regular expression" in err
