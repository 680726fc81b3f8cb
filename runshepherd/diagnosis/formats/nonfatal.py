"""Lines that do not stop the program that printed them: one place for each form, with its source.

The engine reads a family's signal on such a line as history when the program ran on after it (a Python traceback
later is what stopped the run), and bash's word for a command it could not find as the person's own when they typed
that command at a prompt after the run's output.
"""

from __future__ import annotations

# bash's report of a command it could not find (execute_cmd.c, "%s: command not found"), after the shell's or the
# script's name and the line (https://git.savannah.gnu.org/cgit/bash.git/tree/execute_cmd.c): "-bash: nvitop:
# command not found", "/var/spool/slurmd/job1/slurm_script: line 9: SBATCH: command not found". A script goes on to
# its next line unless ``set -e``.
COMMAND_NOT_FOUND = r"(?:^|: )(?:line \d+: )?(?P<bin>[\w./+-]+): command not found\b"
COMMAND_NOT_FOUND_EXAMPLE = "/var/spool/slurmd/job1/slurm_script: line 9: SBATCH: command not found"
# a Python warning as warnings.formatwarning prints it, "filename:lineno: category: message"
# (https://docs.python.org/3/library/warnings.html#warnings.formatwarning): the program goes on
PYTHON_WARNING = r"^\S+\.py:\d+: \w*Warning: "
PYTHON_WARNING_EXAMPLE = (
    "/opt/venv/lib/python3.10/site-packages/torch/cuda/__init__.py:141: UserWarning: CUDA initialization"
)
# TensorFlow's probe for a GPU on a machine with none (stream_executor/cuda/cuda_driver.cc logs "failed call to cuInit:
# CUDA_ERROR_NO_DEVICE" at ERROR level, then cuda_diagnostics.cc "kernel driver does not appear to be running on this
# host"): TensorFlow places every op on the CPU and the program goes on, so a later traceback or kill is what ended it
TF_NO_GPU_PROBE = r"\bfailed call to cuInit: CUDA_ERROR_NO_DEVICE\b"
TF_NO_GPU_PROBE_EXAMPLE = (
    "2023-05-10 12:03:17.602190: E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: "
    "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected"
)
