"""A background process gets its notify targets through its environment, never its argv: `ps` shows argv to
every user of the machine, and a webhook URL carries its token (Slack, Teams and most hooks do).

Before: `run --detach --notify https://hook?token=…` and `watch ID --detach --notify …` put the URL in argv."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from runshepherd.cli.main import main

HOOK = "http://127.0.0.1:9/hook?token=sekrit123456"


class FakePopen:
    seen: list[dict[str, Any]] = []

    def __init__(self, argv: list[str], **kw: Any) -> None:
        FakePopen.seen.append({"argv": argv, "env": kw.get("env") or dict(os.environ)})
        self.pid = os.getpid()


@pytest.fixture
def spawned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    import runshepherd.cli.detached as detached
    import runshepherd.cli.watch as watch

    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RUNSHEPHERD_NOTIFY", "")  # unset for settings; restored (removed) after the test
    monkeypatch.chdir(tmp_path)
    FakePopen.seen = []
    monkeypatch.setattr(detached.subprocess, "Popen", FakePopen)
    monkeypatch.setattr(watch.subprocess, "Popen", FakePopen)
    return FakePopen.seen


def _check(seen: list[dict[str, Any]]) -> None:
    assert len(seen) == 1
    assert not any("sekrit" in a for a in seen[0]["argv"]), seen[0]["argv"]
    assert "--notify" not in seen[0]["argv"]
    assert json.loads(seen[0]["env"]["RUNSHEPHERD_NOTIFY"]) == [HOOK]  # still delivered, once


def test_run_detach_passes_notify_targets_outside_argv(spawned: list[dict[str, Any]], tmp_path: Path) -> None:
    spec = Path(__file__).parents[3] / "examples" / "train-classifier.yaml"
    assert main(["run", "--spec", str(spec), "--yes", "--detach", "--notify", HOOK]) == 0
    _check(spawned)


def test_watch_detach_passes_notify_targets_outside_argv(spawned: list[dict[str, Any]], tmp_path: Path) -> None:
    from runshepherd.cli.context import CliContext
    from runshepherd.cli.watch import _detach

    ctx = CliContext.create(config=None, state_dir=tmp_path / "state", backend="local")
    _detach(ctx, "train-1", [HOOK], None, None)
    _check(spawned)
