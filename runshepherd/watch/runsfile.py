"""``runs.yaml``: several existing runs to watch together, in the seed's shape (run id, backend, identity).

runs:
  - id: sweep-a            # a name for the run (the artifact is runs/<workflow id>-status.md)
    backend: slurm         # local | slurm | osmo (default: the configured backend)
    job_id: "4711"         # Slurm job or array id; or workflow_id: for local/OSMO workflows
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from runshepherd.errors import UsageError
from runshepherd.watch import RUNS_SHAPE


class RunEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    backend: Literal["local", "slurm", "osmo"] | None = None
    workflow_id: str | None = None
    job_id: str | None = None
    notify: list[str] = []

    @model_validator(mode="after")
    def _identity(self) -> RunEntry:
        if not (self.workflow_id or self.job_id):
            raise ValueError("give the run's identity: workflow_id (local/OSMO) or job_id (Slurm)")
        return self

    @property
    def identity(self) -> str:
        return str(self.job_id or self.workflow_id)


class RunsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    runs: list[RunEntry]


def load_runs(path: Path) -> list[RunEntry]:
    from runshepherd.config import key_line
    from runshepherd.spec.limits import LimitExceeded, load_yaml, read_small_text

    try:
        data = load_yaml(read_small_text(path, "a runs file"))[0]  # bounded: size, nesting, aliases
    except FileNotFoundError:
        raise UsageError(f"{path}: runs file not found") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a folder — give the runs file itself (the shape is {RUNS_SHAPE})") from None
    except LimitExceeded as exc:
        raise UsageError(f"{path}{f':{exc.line}' if exc.line else ''}: {exc}") from None
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise UsageError(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: expected a mapping with a top-level `runs:` list — the shape is {RUNS_SHAPE}")
    try:
        runs = RunsFile.model_validate(data).runs
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        line = key_line(path, tuple(str(x) for x in err["loc"]))  # FILE:LINE, as a config or spec error says
        raise UsageError(
            f"{path}{f':{line}' if line else ''}: {where}: {err['msg']} — the shape is {RUNS_SHAPE}"
        ) from None
    seen: dict[tuple[str | None, str], str] = {}
    for r in runs:  # the same run twice would be watched, reported and notified twice
        key = (r.backend, r.identity)
        if key in seen:
            raise UsageError(
                f"{path}: runs {seen[key]!r} and {r.id!r} are the same run ({r.identity}) — keep one entry "
                "(list every notify target under it)"
            )
        seen[key] = r.id
    if not runs:  # was "say what to watch: orchestrate watch ID, or --runs runs.yaml" to a person who gave one
        line = key_line(path, ("runs",))
        raise UsageError(
            f"{path}{f':{line}' if line else ''}: `runs:` lists no run — add one (the shape is {RUNS_SHAPE})"
        )
    return runs
