"""Error-looking lines their emitters document as harmless, after which the run goes on: never failure evidence.

A run that does fail afterwards prints an error of its own (a missing package, a missing file), which a family
reads; these lines only stop a healthy run from being flagged."""

from __future__ import annotations

from runshepherd.diagnosis.formats import Marker

_SLURM_CGROUP = "https://github.com/SchedMD/slurm/blob/master/src/plugins/cgroup/v1/cgroup_v1.c"

MARKERS: tuple[Marker, ...] = (
    # slurmstepd's cgroup housekeeping as a step ends (moving the step's pids back to the root cgroup, unlocking or
    # removing the step's cgroup): the node's bookkeeping, after the job's own processes have exited
    Marker(
        "slurmstepd",
        "benign",
        r"^slurmstepd(?:-\S+)?: error: (?:common_file_write_uint32s: write pid \d+ to \S*cgroup\S*"
        r"|Unable to move pid \d+ to init root cgroup|error unlocking cgroup|Unable to remove cgroup|_?rmdir\(\S*cgroup)",
        "slurmstepd: error: Unable to move pid 1234 to init root cgroup",
        _SLURM_CGROUP,
    ),
    # slurmstepd could not enter the job's working directory and ran the job from /tmp instead
    Marker(
        "slurmstepd",
        "benign",
        r"^slurmstepd(?:-\S+)?: error: couldn't chdir to .*: going to /tmp instead",
        "slurmstepd: error: couldn't chdir to `/home/alice/run': No such file or directory: going to /tmp instead",
        "https://github.com/SchedMD/slurm/blob/master/src/slurmd/slurmstepd/mgr.c",
    ),
    # conda's refusal of ``conda activate`` in a shell ``conda init`` never set up (a batch script): the script goes
    # on in the environment it already has (conda < 23: CommandNotFoundError; conda >= 23: CondaError)
    Marker(
        "conda",
        "benign",
        r"CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'"
        r"|CondaError: Run 'conda init' before 'conda activate'",
        "CondaError: Run 'conda init' before 'conda activate'",
        "https://github.com/conda/conda/blob/main/conda/cli/main_mock_activate.py",
    ),
    # pip's resolver notice after an install that went through: it lists conflicts among what is installed (a run
    # that then breaks on one prints its own ImportError or version error)
    Marker(
        "pip",
        "benign",
        r"^ERROR: pip's dependency resolver does not currently take into account all the packages that are installed",
        "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. "
        "This behaviour is the source of the following dependency conflicts.",
        "https://pip.pypa.io/en/stable/topics/dependency-resolution/",
    ),
)
