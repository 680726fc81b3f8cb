"""What every command needs: settings, the backend, the output consoles. Built once per invocation."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runshepherd.config import Settings, load_settings

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from runshepherd.backends.base import Backend
    from runshepherd.graph.runner import SessionRunner


@dataclass
class CliContext:
    settings: Settings
    _backend: Backend | None = field(default=None, repr=False)

    @classmethod
    def create(
        cls, *, config: Path | None, state_dir: Path | None, backend: str | None, checkpointer: str | None = None
    ) -> CliContext:
        flags: dict[str, Any] = {
            "state_dir": str(state_dir) if state_dir else None,
            "backend": backend,
            "checkpointer": checkpointer,
        }
        return cls(settings=load_settings(config, flags=flags))

    @property
    def state_dir(self) -> Path:
        return self.settings.resolved_state_dir()

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            from runshepherd.backends import make_backend

            self._backend = make_backend(self.settings)
        return self._backend

    def check_pool(self, pool: str | None, where: str) -> None:
        """A pool the backend does not have is bad input (exit 2), said before anything is listed, a session exists
        or anything is submitted."""
        from runshepherd.backends.pool_choice import parse_auto
        from runshepherd.errors import UsageError

        if not pool or parse_auto(pool)[0]:  # auto[:GPU_TYPE] is chosen from the pools when the spec is known
            return
        names = [p.name for p in self.backend.pools()]
        if names and pool not in names:
            import difflib

            near = difflib.get_close_matches(pool, names, n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            raise UsageError(
                f"{where}: no pool {pool!r} on the {self.backend.name} backend; {hint}its pools: {', '.join(names)} "
                "(`orchestrate pools` lists them)"
            )

    @cached_property
    def out(self) -> Console:
        from runshepherd.render.safe import SafeConsole

        return SafeConsole(highlight=False, soft_wrap=True)

    @cached_property
    def err(self) -> Console:
        from runshepherd.render.safe import SafeConsole

        return SafeConsole(stderr=True, highlight=False)

    def runner(self, session: str, deps: Any = None) -> SessionRunner:
        """The session's runner over this invocation's checkpointer (SQLite in the state dir, or PostgreSQL)."""
        from runshepherd.graph.runner import SessionRunner

        return SessionRunner(
            self.state_dir,
            session,
            deps,
            max_concurrency=self.settings.logs.max_concurrency,
            checkpointer=self.settings.checkpointer,
        )

    def print_json(self, obj: Any) -> None:
        try:
            sys.stdout.write(json.dumps(obj, default=str) + "\n")
            sys.stdout.flush()
        except BrokenPipeError:  # `… --json | head -1`: the reader has what it wanted
            from runshepherd.render.safe import closed_pipe

            closed_pipe()
