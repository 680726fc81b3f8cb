"""--config/--state-dir/--backend are declared once (cli/options.py) and every command still takes them."""

from __future__ import annotations

from typing import Any

import typer.main

from runshepherd.cli.main import app


def _commands(group: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, cmd in group.commands.items():
        if hasattr(cmd, "commands"):  # a sub-group (app, credential, data, recipe)
            out |= _commands(cmd, f"{prefix}{name} ")
        else:
            out[f"{prefix}{name}"] = cmd
    return out


def test_every_command_with_a_backend_takes_the_three_common_options() -> None:
    commands = _commands(typer.main.get_group(app))
    with_backend = {n: c for n, c in commands.items() if any("--backend" in p.opts for p in c.params)}
    assert len(with_backend) >= 20  # run, resume, status, logs, … (recipes and migrate-sessions need no backend)
    for name, cmd in with_backend.items():
        opts = {o for p in cmd.params for o in p.opts}
        assert {"--config", "--state-dir", "--backend"} <= opts, name
        state_dir = next(p for p in cmd.params if "--state-dir" in p.opts)
        assert state_dir.envvar == "RUNSHEPHERD_STATE_DIR", name
