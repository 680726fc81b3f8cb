"""Facts about a finished command that both the local supervisor and the in-job Slurm runner record."""

from __future__ import annotations


def exit_code_of(returncode: int) -> int:
    """Popen's -N (killed by signal N) → the shell's 128+N, the code a person sees in a terminal."""
    return returncode if returncode >= 0 else 128 - returncode
