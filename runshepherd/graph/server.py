"""The session graph as LangGraph Server (`langgraph dev`, Studio, the LangGraph SDK) serves it: `langgraph.json`
points here.

A server run cannot hand the graph live objects, so its context is `ServerContext`: plain values (backend name,
state dir, config file, --yes, cadence) that a client sends as the run's `context`. The nodes' `deps_of` turns
it into the same `Deps` the CLI passes (settings loaded the CLI's way, the backend built from them, the session id
from the thread), so there is no module-level configuration. The graph is compiled without a checkpointer: the
server brings its own.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from runshepherd.graph.builder import build_graph
from runshepherd.graph.context import Deps


@dataclass(frozen=True)
class ServerContext:
    """A server run's context (JSON). Unset fields fall back to the config file, RUNSHEPHERD_* and defaults."""

    backend: str | None = None  # local | slurm | osmo
    state_dir: str | None = None
    config: str | None = None  # a config file (YAML)
    auto_yes: bool = False  # answer every question with its default, like --yes
    cadence: float | None = None  # seconds between status polls
    max_fixes: int | None = None


@lru_cache(maxsize=64)
def _deps(key: tuple[Any, ...], thread_id: str) -> Deps:
    from runshepherd.backends import make_backend
    from runshepherd.config import load_settings

    ctx = ServerContext(*key)
    settings = load_settings(
        Path(ctx.config) if ctx.config else None, flags={"state_dir": ctx.state_dir, "backend": ctx.backend}
    )
    state_dir = settings.resolved_state_dir()
    return Deps(
        backend=make_backend(settings),
        settings=settings,
        session_id=thread_id,
        state_dir=state_dir,
        auto_yes=ctx.auto_yes,
        cadence=ctx.cadence,
        max_fixes=ctx.max_fixes,
        cwd=state_dir,
    )


def deps_for(ctx: ServerContext, thread_id: str) -> Deps:
    """The session's Deps for this server context and thread (built once per pair, then reused)."""
    return _deps(astuple(ctx), thread_id)


graph = build_graph(context_schema=ServerContext).compile(name="orchestrate")
