"""What this host offers: CPUs, memory and GPUs. Injectable so tests can pretend to be a small machine."""

from __future__ import annotations

import shutil
import socket
import subprocess

import psutil
from pydantic import BaseModel, ConfigDict, Field


class MachineInfo(BaseModel):
    """The node the local backend schedules on; totals only (usage comes from the ledger)."""

    model_config = ConfigDict(extra="forbid")

    hostname: str = Field(default_factory=socket.gethostname)
    cpu_count: int = Field(ge=1)
    memory_bytes: int = Field(gt=0)
    gpu_count: int = Field(0, ge=0)
    gpu_names: list[str] = Field(default_factory=list)


def query_gpus(timeout: float = 5.0) -> list[str]:
    """GPU names from `nvidia-smi`; [] when the binary is absent or fails (a GPU-less host is normal)."""
    binary = shutil.which("nvidia-smi")
    if binary is None:
        return []
    try:
        out = subprocess.run(
            [binary, "--query-gpu=index,name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    if out.returncode != 0:
        return []
    names = []
    for line in out.stdout.splitlines():
        parts = [p.strip() for p in line.split(",", 1)]
        if len(parts) == 2 and parts[0].isdigit():
            names.append(parts[1])
    return names


def detect_machine() -> MachineInfo:
    gpus = query_gpus()
    return MachineInfo(
        cpu_count=psutil.cpu_count(logical=True) or 1,
        memory_bytes=psutil.virtual_memory().total,
        gpu_count=len(gpus),
        gpu_names=gpus,
    )
