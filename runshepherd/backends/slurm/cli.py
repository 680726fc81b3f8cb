"""Running Slurm's client commands: one place that knows SLURM_CONF, time limits and how failures look.

Every call is counted (``calls``) so tests and the benchmark can state what one poll costs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from runshepherd.backends.base import BackendError, BackendUnavailable

WELL_KNOWN_CONFS = (Path("/tmp/runshepherd-slurm/slurm.conf"), Path("/etc/slurm/slurm.conf"))
COMMAND_TIMEOUT = 30.0
_UNREACHABLE = (
    "Unable to contact slurm controller",
    "Socket timed out",
    "Connection refused",
    "Invalid authentication credential",
    "Zero Bytes were transmitted",
    "Unable to process configuration file",
    "cannot stat file",
)


def find_slurm_conf(explicit: str | None = None) -> Path | None:
    """The config the clients should read: option, then $SLURM_CONF, then the places scripts/slurm-up.sh uses.

    A config the person named that does not exist is an error (exit 4), never quietly swapped for another."""
    for named, where in ((explicit, "the backend option slurm_conf"), (os.environ.get("SLURM_CONF"), "SLURM_CONF")):
        if named and not Path(named).is_file():
            raise BackendUnavailable(
                f"Slurm is not set up here: {where} points at {named}, which does not exist — point it at your "
                "cluster's slurm.conf (scripts/slurm-up.sh writes /tmp/runshepherd-slurm/slurm.conf)"
            )
    for candidate in (explicit, os.environ.get("SLURM_CONF"), *map(str, WELL_KNOWN_CONFS)):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def _one_line(stderr: str) -> str:
    """The line that says what is wrong (the fatal one when there is one), not four raw `error:` lines."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    fatal = [ln for ln in lines if ": fatal:" in ln]
    return (fatal or lines or ["no output"])[-1 if fatal else 0]


class SlurmCli:
    def __init__(self, slurm_conf: Path | None, bin_dir: str | None = None) -> None:
        self.slurm_conf = slurm_conf
        self.bin_dir = bin_dir
        self.calls = 0

    def _exe(self, name: str) -> str:
        if self.bin_dir:
            return str(Path(self.bin_dir) / name)
        found = shutil.which(name) or shutil.which(name, path="/usr/bin:/usr/sbin:/usr/local/bin")
        if found is None:
            raise BackendUnavailable(
                f"`{name}` is not installed — install Slurm's client tools "
                "(scripts/slurm-up.sh does it on Debian) or pick another backend"
            )
        return found

    def run(self, name: str, args: Sequence[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ)
        if self.slurm_conf is not None:
            env["SLURM_CONF"] = str(self.slurm_conf)
        self.calls += 1
        try:
            proc = subprocess.run(
                [self._exe(name), *args],
                env=env,
                capture_output=True,
                text=True,
                timeout=COMMAND_TIMEOUT,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            raise BackendUnavailable(
                f"`{name}` did not answer within {COMMAND_TIMEOUT:.0f}s — is slurmctld up?"
            ) from None
        if proc.returncode != 0 and any(s in proc.stderr for s in _UNREACHABLE):
            raise BackendUnavailable(f"the Slurm controller is not reachable: {_one_line(proc.stderr)}")
        if check and proc.returncode != 0:
            raise BackendError(f"`{name} {' '.join(args)}` failed: {proc.stderr.strip() or proc.stdout.strip()}")
        return proc
