"""The options every command takes (--config, --state-dir, --backend), declared once.

`@common_options` gives a command these three options and hands it one `Common` value (``opts``) instead of three
parameters; `opts.ctx()` builds the CliContext. Typer sees the options in the command's signature, so they stay
where a person types them (`orchestrate status W --state-dir X`) and appear in each command's --help.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:
    from runshepherd.cli.context import CliContext

ConfigOpt = Annotated[Path | None, typer.Option("--config", help="Config file (YAML).", show_default=False)]
StateDirOpt = Annotated[
    Path | None, typer.Option("--state-dir", envvar="RUNSHEPHERD_STATE_DIR", help="Where sessions and runs live.")
]
BackendOpt = Annotated[str | None, typer.Option("--backend", envvar="RUNSHEPHERD_BACKEND", help="local | slurm | osmo")]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Common:
    config: Path | None = None
    state_dir: Path | None = None
    backend: str | None = None

    def ctx(self, checkpointer: str | None = None, *, with_backend: bool = True) -> CliContext:
        from runshepherd.cli.context import CliContext

        return CliContext.create(
            config=self.config,
            state_dir=self.state_dir,
            backend=self.backend if with_backend else None,
            checkpointer=checkpointer,
        )


COMMON = Common()
_NAMES = ("config", "state_dir", "backend")


def common_options(fn: F) -> F:
    """Replace the command's ``opts: Common`` parameter by the three common options (in its signature)."""
    sig = inspect.signature(fn, eval_str=True)
    if "opts" not in sig.parameters:
        raise TypeError(f"{fn.__name__}: @common_options needs an `opts: Common` parameter")
    kept = [p for p in sig.parameters.values() if p.name != "opts"]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=ann)
        for name, ann in zip(_NAMES, (ConfigOpt, StateDirOpt, BackendOpt), strict=True)
    ]

    @functools.wraps(fn)
    def command(*args: Any, **kwargs: Any) -> Any:
        opts = Common(**{name: kwargs.pop(name, None) for name in _NAMES})
        return fn(*args, opts=opts, **kwargs)

    command.__signature__ = sig.replace(parameters=[*kept, *added])  # type: ignore[attr-defined]  # read by typer
    return command  # type: ignore[return-value]  # same call shape for typer; `opts` is supplied here
