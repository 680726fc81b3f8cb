"""Turn what a person types (a workflow id, a Slurm job or array id from plain `sbatch`) into a workflow id
the backend can query. Backends that can take over a run they did not start offer ``adopt(identity)``."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from runshepherd.backends.base import WorkflowNotFound


@runtime_checkable
class Adopter(Protocol):
    """Optional capability: follow a job this program did not submit (e.g. `sbatch job.sh`)."""

    def adopt(self, identity: str) -> str: ...


def resolve(backend: Any, identity: str) -> str:
    """The workflow id to watch; raises ``WorkflowNotFound`` with the backend's hint when nothing matches."""
    try:
        backend.query(identity)
        return identity
    except WorkflowNotFound:
        if isinstance(backend, Adopter):
            return backend.adopt(identity)
        raise
