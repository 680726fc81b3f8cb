"""Admission against this machine, the way Kubernetes does it: requests are reserved, not measured.

Each supervisor keeps ``state_dir/ledger/<workflow_id>.json`` with what its running tasks reserved; a group is
admitted under ``state_dir/ledger.lock`` only if its total request fits what the machine minus every live
ledger leaves free. Entries of dead supervisors are ignored and removed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from filelock import FileLock
from pydantic import BaseModel, ConfigDict, Field

from runshepherd.backends.files.records import write_json_atomic
from runshepherd.backends.local.machine import MachineInfo
from runshepherd.backends.local.store import ProcessRef
from runshepherd.spec.model import ResourceSpec

_MI = 1024**2
_GI = 1024**3


class Request(BaseModel):
    """One task's reservation."""

    model_config = ConfigDict(extra="forbid")

    cpu: float = 0.0
    memory: int = 0
    gpu: int = 0

    @classmethod
    def of(cls, spec: ResourceSpec) -> Request:
        return cls(cpu=spec.cpu or 0.0, memory=spec.memory_bytes or 0, gpu=spec.gpu or 0)

    def __add__(self, other: Request) -> Request:
        return Request(cpu=self.cpu + other.cpu, memory=self.memory + other.memory, gpu=self.gpu + other.gpu)


class LedgerEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    owner: ProcessRef
    tasks: dict[str, Request] = Field(default_factory=dict)
    gpus: dict[str, list[int]] = Field(default_factory=dict, description="task → GPU indices it holds")


class Usage(BaseModel):
    cpu: float = 0.0
    memory: int = 0
    gpus: set[int] = Field(default_factory=set)


def human_bytes(n: float) -> str:
    if n >= _GI and n % _GI == 0 or n >= 10 * _GI:
        return f"{n / _GI:.0f}Gi" if n % _GI == 0 else f"{n / _GI:.1f}Gi"
    return f"{max(0, round(n / _MI))}Mi"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def insufficient(request: Request, machine: MachineInfo, usage: Usage) -> list[str]:
    """Kubernetes' reasons, e.g. `Insufficient nvidia.com/gpu (requested 2, node has 0)`; [] = it fits."""
    reasons = []
    rows = [
        ("cpu", request.cpu, machine.cpu_count, machine.cpu_count - usage.cpu, _num),
        ("memory", request.memory, machine.memory_bytes, machine.memory_bytes - usage.memory, human_bytes),
        ("nvidia.com/gpu", request.gpu, machine.gpu_count, machine.gpu_count - len(usage.gpus), _num),
    ]
    for resource, asked, total, free, fmt in rows:
        if asked > free + 1e-9:
            has = fmt(total) if free >= total else f"{fmt(max(free, 0))} free of {fmt(total)}"
            reasons.append(f"Insufficient {resource} (requested {fmt(asked)}, node has {has})")
    return reasons


def unschedulable_message(reasons: list[str]) -> str:
    return "0/1 nodes are available: " + ", ".join(f"1 {r}" for r in reasons) + "."


class Ledger:
    """The shared reservation book of all local workflows under one state dir."""

    def __init__(self, state_dir: Path, workflow_id: str, owner: ProcessRef) -> None:
        self.dir = state_dir / "ledger"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.lock = FileLock(str(state_dir / "ledger.lock"), timeout=30)
        self.path = self.dir / f"{workflow_id}.json"
        self.entry = LedgerEntry(owner=owner)
        self._deferred = False  # inside `admitting`/`releasing`: the entry is written once, at the end
        self._unsaved = False

    def _save(self) -> None:
        if self._deferred:
            self._unsaved = True
            return
        write_json_atomic(self.path, self.entry)
        self._unsaved = False

    @contextmanager
    def _deferring(self) -> Iterator[None]:
        """Writes asked for inside become one write at the end (taking the lock, re-entrant if already held)."""
        self._deferred = True
        try:
            yield
        finally:
            self._deferred = False
            if self._unsaved:
                with self.lock:
                    self._save()

    @contextmanager
    def admitting(self) -> Iterator[None]:
        """Every admission of one scheduling pass under one hold of the lock and one write of this workflow's
        entry (each write is fsynced: a 1000-task workflow spent ~24 s on 2000 of them). The lock is held until the
        entry is written, so no other workflow is admitted against a book missing these reservations."""
        with self.lock, self._deferring():
            yield

    def releasing(self) -> AbstractContextManager[None]:
        """Releases of one pass written once at its end. The lock is not held meanwhile (outputs are stored
        between releases): until the write, others see these reservations still held, never fewer than real."""
        return self._deferring()

    @staticmethod
    def usage_of(state_dir: Path, exclude: Path | None = None) -> Usage:
        usage = Usage()
        ledger_dir = state_dir / "ledger"
        if not ledger_dir.is_dir():
            return usage
        for path in ledger_dir.glob("*.json"):
            if path == exclude:
                continue
            try:
                entry = LedgerEntry.model_validate(json.loads(path.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                continue
            if not entry.owner.alive():
                path.unlink(missing_ok=True)
                continue
            for req in entry.tasks.values():
                usage.cpu += req.cpu
                usage.memory += req.memory
            for held in entry.gpus.values():
                usage.gpus.update(held)
        return usage

    def _own_usage(self) -> Usage:
        # Summed before the model is built: one pydantic assignment per field, not per task (a 1000-task
        # workflow admits 1000 groups against its own up-to-1000 reservations).
        tasks = self.entry.tasks.values()
        return Usage(
            cpu=sum(req.cpu for req in tasks),
            memory=sum(req.memory for req in tasks),
            gpus=set().union(*self.entry.gpus.values()),
        )

    def try_admit(self, machine: MachineInfo, requests: dict[str, Request]) -> tuple[dict[str, list[int]], list[str]]:
        """Reserve all of ``requests`` at once (a group starts together) → (GPU indices per task, reasons)."""
        with self.lock:
            usage = self.usage_of(self.path.parent.parent, exclude=self.path)
            own = self._own_usage()
            usage.cpu += own.cpu
            usage.memory += own.memory
            usage.gpus |= own.gpus
            total = Request()
            for req in requests.values():
                total = total + req
            reasons = insufficient(total, machine, usage)
            if reasons:
                return {}, reasons
            free_gpus = [i for i in range(machine.gpu_count) if i not in usage.gpus]
            assigned: dict[str, list[int]] = {}
            for task, req in requests.items():
                assigned[task], free_gpus = free_gpus[: req.gpu], free_gpus[req.gpu :]
                self.entry.tasks[task] = req
                self.entry.gpus[task] = assigned[task]
            self._save()
            return assigned, []

    def release(self, task: str) -> None:
        if task not in self.entry.tasks:
            return
        with self.lock:
            self.entry.tasks.pop(task, None)
            self.entry.gpus.pop(task, None)
            self._save()

    def close(self) -> None:
        with self.lock:
            self.path.unlink(missing_ok=True)
