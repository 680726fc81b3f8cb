"""Install the fake `osmo` (fake_osmo.py) on a temp PATH and point it at its state and fixture folders."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OWN_FIXTURES = HERE / "fixtures"
EVALS = HERE.parents[1] / "data" / "osmo_evals"  # vendored: NVIDIA/OSMO skills/osmo-user/evals (Apache-2.0)
EVAL_FIXTURES = EVALS / "files" / "fixtures"


# `osmo` itself: this Python without `site` (-S: no .pth files or editable finders to load) importing fake_osmo as a
# module (its bytecode is cached; run as a script it was compiled again on every call), with the packages this
# process imports from (yaml, jinja2) on its path. A sweep's test makes a few hundred `osmo` calls; each starts on
# ~25 ms of CPU less than `exec python fake_osmo.py` did (~114 -> ~88 ms).
_MAIN = (
    "import sys; sys.path[:0] = [{here!r}]; sys.path += {packages!r}; from fake_osmo import main; main(sys.argv[1:])"
)


def install(tmp: Path, fixture_dirs: list[Path], **knobs: str) -> dict[str, str]:
    """Write ``tmp/bin/osmo`` and return an environment with it first on PATH plus the knobs."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    exe = bin_dir / "osmo"
    main = _MAIN.format(here=str(HERE), packages=[p for p in sys.path if p])
    exe.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -S -c {shlex.quote(main)} "$@"\n')
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
