"""Programs that start a run, as a command line names them: the launchers and the scripts they run.

The diagnosis reads a shell's "command not found" for a command typed at a prompt after the run's output as not
the run's failure, unless the command line starts a run (`engine._typed_after_the_run`). Adding a launcher is
adding a row.
"""

from __future__ import annotations

import re

LAUNCHERS: tuple[str, ...] = (
    r"python[\d.]*",  # python, python3, python3.11
    "torchrun",
    "accelerate",  # accelerate launch
    "deepspeed",
    "srun",
    "sbatch",
    "mpirun",
    "horovodrun",
    "ray",  # ray job submit
    r"[\w./-]+\.(?:py|sh)",  # a script named directly
)

# a command line that starts a run: one of the launchers as a word of it
LAUNCH = re.compile(r"(?:^|[\s;&|/])(?:" + "|".join(LAUNCHERS) + r")(?=\s|$)")
