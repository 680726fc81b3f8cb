"""The Slurm backend (issue #7): one batch job per task on a real Slurm cluster."""

from runshepherd.backends.slurm.backend import SlurmBackend

__all__ = ["SlurmBackend"]
