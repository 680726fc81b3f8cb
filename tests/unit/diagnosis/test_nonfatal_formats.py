"""formats/nonfatal.py: each form of a line that does not stop its program reads its own quoted example."""

from __future__ import annotations

import re

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.formats import nonfatal

from .families.real import read_by_rules


def test_each_form_reads_its_example() -> None:
    m = re.search(nonfatal.COMMAND_NOT_FOUND, nonfatal.COMMAND_NOT_FOUND_EXAMPLE)
    assert m is not None and m.group("bin") == "SBATCH"
    assert re.search(nonfatal.COMMAND_NOT_FOUND, "-bash: nvitop: command not found").group("bin") == "nvitop"  # type: ignore[union-attr]
    assert re.search(nonfatal.PYTHON_WARNING, nonfatal.PYTHON_WARNING_EXAMPLE)
    assert not re.search(nonfatal.PYTHON_WARNING, "RuntimeError: CUDA error: out of memory")


def test_a_scripts_failed_command_before_a_python_exception_is_history() -> None:
    log = (
        f"{nonfatal.COMMAND_NOT_FOUND_EXAMPLE}\n"
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    open('/data/train.csv')\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/data/train.csv'\n"
    )
    assert diagnose_log_text(log).label == "file_not_found"


def test_tensorflows_gpu_probe_on_a_cpu_node_is_history_when_the_run_then_fails_otherwise() -> None:
    probe = f"{nonfatal.TF_NO_GPU_PROBE_EXAMPLE}\n"
    assert re.search(nonfatal.TF_NO_GPU_PROBE, nonfatal.TF_NO_GPU_PROBE_EXAMPLE)
    # alone, a job that found no GPU: the driver or the placement
    assert diagnose_log_text(probe).label == "cuda_driver"
    # then the program's own exception (TensorFlow ran on on the CPU)
    tb = (
        'Traceback (most recent call last):\n  File "main.py", line 21, in <module>\n'
        "    os.mkdir(f'round_{rnd}')\nFileExistsError: [Errno 17] File exists: 'round_0'\n"
    )
    assert read_by_rules(probe + tb).label == "user_code_error"
    # then the scheduler's memory kill, with no line of output between
    kill = (
        "/var/spool/slurm/job22207649/slurm_script: line 22: 443552 Killed                  python main.py\n"
        "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=22207649.batch. Some of your processes may have "
        "been killed by the cgroup out-of-memory handler.\n"
    )
    assert diagnose_log_text(probe + kill).label == "host_oom"
