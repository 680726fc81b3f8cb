"""Install the fake `osmo` (fake_osmo.py) on a temp PATH and point it at its state and fixture folders."""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FAKE = HERE / "fake_osmo.py"
OWN_FIXTURES = HERE / "fixtures"
EVALS = HERE.parents[1] / "data" / "osmo_evals"  # vendored: NVIDIA/OSMO skills/osmo-user/evals (Apache-2.0)
EVAL_FIXTURES = EVALS / "files" / "fixtures"


def install(tmp: Path, fixture_dirs: list[Path], **knobs: str) -> dict[str, str]:
    """Write ``tmp/bin/osmo`` and return an environment with it first on PATH plus the knobs."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    exe = bin_dir / "osmo"
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n')
    exe.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("FAKE_OSMO_")}
    (tmp / "home").mkdir(parents=True, exist_ok=True)
    env.update(
        HOME=str(tmp / "home"),  # downloads go to ~/…: never the real home of whoever runs the tests
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        FAKE_OSMO_HOME=str(tmp / "osmo-server"),
        FAKE_OSMO_FIXTURES=":".join(str(d) for d in fixture_dirs),
        **knobs,
    )
    return env


def apply(monkeypatch: object, env: dict[str, str]) -> None:
    """Put ``env`` into this test process (the backend runs `osmo` from PATH)."""
    for k, v in env.items():
        if k == "PATH" or k.startswith("FAKE_OSMO_"):
            monkeypatch.setenv(k, v)  # type: ignore[attr-defined]
