"""The root-line reading (rootline.py, the backoff before "unknown"): which line it reads, and which of its words count.

Its wrong families on the historic back-test came from a handful of classes: a line logged at warning level read as
the root error, a vocabulary word that was part of a path or an option, a word inside an "if …" clause, a metric
named "error", a kill someone else sent read as the OOM killer's, and a not-there word said of an output. Each test
below is one class, on a TRAIN case (families/real.py) or a line in the emitter's documented format."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .families.real import read_dev


def _reading(text: str) -> str | None:
    from runshepherd.diagnosis.engine import root_reading
    from runshepherd.diagnosis.rules import Context

    s = root_reading(Context.build(log_lines=text.splitlines()))
    return s.label if s is not None else None


@pytest.mark.parametrize(
    "line",
    [
        # NCCL's debug format (src/debug.cc: "%s:%d:%d [%d] NCCL WARN "; older releases put the source file first)
        "node7:454:484 [0] NCCL WARN Call to connect returned Connection refused, retrying",
        "node7:454:484 [0] include/socket.h:185 WARN Call to connect failed : Connection refused",
        # glog's and TensorFlow's W/I headers, Ray's "[time W pid tid]", Python logging's "WARNING:root:", a
        # pipe-separated "| WARNING |" field, logfmt's level=warn
        "W0530 14:48:43.150000 2622492 convert_frame.py:1233] SystemError: PY_SSIZE_T_CLEAN macro must be defined",
        "2024-01-05 14:04:57.610604: W tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU "
        "libraries, the download of the missing libraries failed",
        "(raylet) [2025-04-21 10:05:37,313 W 959680 959717] object_manager.cc:210: Connection refused by peer",
        "I tensorflow/stream_executor/cuda/cuda_dnn.cc:1382] Unable to load cuDNN DSO",
        "WARNING:root:checkpoint upload timed out, will retry at the end",
        "2024-05-01 10:00:00 | WARNING | trainer | checkpoint upload timed out, will retry at the end",
        'time=2025-01-24T15:54:16.769-08:00 level=WARN source=sched.go:455 msg="connection refused, retrying"',
    ],
)
def test_a_line_logged_below_error_level_is_never_the_root_line(line: str) -> None:
    """A warning or a notice is what the program went on after: its words are not read as the failure."""
    assert _reading(line + "\n") is None


def test_warning_level_lines_of_train_cases_are_not_read() -> None:
    # i-0021: NCCL's WARN before the run's real end (nccl_or_distributed; read before as a download's connection)
    # t-0017 and w-0004: healthy runs whose only alarming lines are a glog W line and an NCCL WARN line
    for case_id in ("i-0021", "t-0017", "w-0004"):
        assert read_dev(case_id) is None, case_id
    # an INFO-level line is no root error either, and a log of such lines is never called healthy for it
    assert read_dev("a-0164") is None
    assert diagnose_log_text(
        "I tensorflow/stream_executor/cuda/cuda_dnn.cc:1382] Unable to load cuDNN DSO\n"
    ).label == ("unknown")


def test_a_kubernetes_events_warning_type_is_no_log_level() -> None:
    """``kubectl get events`` puts the event's type (Normal/Warning) in a column: a Warning event is the failure."""
    assert read_dev("b-0002") is not None and read_dev("b-0002").label == "image_pull"  # type: ignore[union-attr]
    assert read_dev("f-0042") is not None and read_dev("f-0042").label == "host_oom"  # type: ignore[union-attr]


def test_a_grepped_source_line_and_a_programs_usage_text_are_never_the_root_line() -> None:
    # GNU grep -n prints "FILE:LINE:TEXT" (https://www.gnu.org/software/grep/manual/grep.html#Output-Line-Prefix-Control)
    grepped = 'src/client.py:212:        raise RuntimeError("could not connect to the parameter server")\n'
    assert _reading(grepped) is None and diagnose_log_text(grepped).label == "unknown"
    # argparse's --help output: a usage line, then one line per option
    helptext = (
        "usage: train.py [-h] [--lr LR] [--timeout SECONDS] [--oom-retries N]\n"
        "  --timeout SECONDS     stop a step that has timed out after SECONDS\n"
        "  --oom-retries N       retries after the process was killed for running out of memory\n"
    )
    assert _reading(helptext) is None and diagnose_log_text(helptext).label == "unknown"
    # the error argparse prints after the usage line is read
    usage_error = "usage: main.py [-h] [--lr LR]\nmain.py: error: unrecognized arguments: --local-rank=1\n"
    assert _reading(usage_error) == "validation_error"


def test_a_vocabulary_word_inside_a_path_or_an_option_is_a_name_not_the_lines_word() -> None:
    # j-0040: "rank" is part of the option --local-rank, the line says an argument was not recognised
    assert read_dev("j-0040").label == "validation_error"  # type: ignore[union-attr]
    # m-0030: "manifests" and "registry" are folders of the path mkdir was refused; w-0018: a folder of a data path
    assert read_dev("m-0030").label == "permission_or_auth"  # type: ignore[union-attr]
    assert read_dev("w-0018").label == "file_not_found"  # type: ignore[union-attr]
    # a URL's path names the API called (the registry's /v2/<name>/manifests/<tag>), and a source location names the
    # code that speaks (…/c10d/ProcessGroupNCCL.cpp): both are still read
    assert read_dev("u-0005").label == "image_pull"  # type: ignore[union-attr]
    assert read_dev("o-0025").label == "nccl_or_distributed"  # type: ignore[union-attr]
    # prose joined by a slash is prose ("submit/allocate", "accounting/QOS")
    assert read_dev("b-0160").label == "unschedulable"  # type: ignore[union-attr]


def test_words_inside_an_if_clause_say_what_would_happen_not_what_did() -> None:
    # j-0011: Ray's disk monitor warns "Object creation will fail if spilling is required": nothing was required
    s = read_dev("j-0011")
    assert s is None or s.label != "validation_error"
    assert _reading("ERROR: object creation will fail if the node runs out of memory\n") is None
    assert _reading("ERROR: object creation failed: the node ran out of memory\n") == "host_oom"


def test_a_metric_named_error_is_a_value_not_an_error() -> None:
    # j-0014: "mean ar error (without repeats): nan" is a printed statistic; before, it was read as a NaN loss
    assert read_dev("j-0014") is None
    assert _reading("mean abs error (val): nan\n") is None
    assert _reading("RuntimeError: loss became nan at step 10\n") == "nan_loss"


def test_a_kill_someone_else_sent_is_not_the_oom_killers() -> None:
    """LSF's TERM_OWNER ("job killed by owner") is a person's own cancel; TERM_ADMIN ("job killed by root or an
    administrator") the administrator's; "killed by signal: Aborted" an abort. None is an out-of-memory kill
    (https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_admin/termination_reasons_lsf.html)."""
    owner = (
        "Job <4242> was submitted from host <login1>\nTERM_OWNER: job killed by owner.\nExited with exit code 130.\n"
    )
    d = diagnose_log_text(owner)
    assert d.label == "unknown" and d.evidence[0] == "TERM_OWNER: job killed by owner."
    assert "killed by its owner" in d.explanation and "memory" not in d.explanation
    assert _reading("TERM_ADMIN: job killed by root or an administrator.\n") != "host_oom"
    assert read_dev("w-0027") is None or read_dev("w-0027").label != "host_oom"  # type: ignore[union-attr]
    # a limit that is not memory (TERM_PROCESSLIMIT, TERM_THREADLIMIT) is no memory kill; the owner's bkill -b
    # (TERM_BUCKET_KILL) and kill-and-requeue (TERM_REQUEUE_OWNER) are the owner's act, not a preemption
    assert _reading("TERM_PROCESSLIMIT: job killed after reaching LSF process limit.\n") is None
    assert _reading("TERM_THREADLIMIT: job killed after reaching LSF thread limit.\n") is None
    for line in (
        "TERM_BUCKET_KILL: job killed with bkill -b.",
        "TERM_REQUEUE_OWNER: job killed and requeued by owner.",
    ):
        d = diagnose_log_text(line + "\n")
        assert d.label == "unknown" and "killed by its owner" in d.explanation, line
    # a memory or swap limit, the kernel's kill and a bare "Killed" still read as memory
    assert _reading("TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.\n") == "host_oom"
    assert _reading("RuntimeError: DataLoader worker (pid 7) is killed by signal: Killed.\n") == "host_oom"
    assert _reading("Out of memory: Killed process 1234 (python)\n") == "host_oom"
    assert _reading("/var/spool/slurmd/job123/slurm_script: line 9: 4242 Killed  python train.py\n") == "host_oom"


def test_not_there_words_said_of_an_output_are_output_missing() -> None:
    # k-0031: DVC's "failed to reproduce 'stage': output 'artifacts\\stage' does not exist" after the stage ran
    assert read_dev("k-0031").label == "output_missing"  # type: ignore[union-attr]
    assert _reading("ERROR: input file '/data/train.csv' does not exist\n") == "file_not_found"


def test_a_word_two_families_use_is_read_by_what_it_qualifies() -> None:
    """ "image" is a container's to image_pull and a compiled GPU binary's to CUDA (cudaGetErrorString of
    cudaErrorInvalidKernelImage: "device kernel image is invalid",
    https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html); y-0008 is Triton's report of it."""
    assert read_dev("y-0008").label == "cuda_driver"  # type: ignore[union-attr]
    assert _reading("RuntimeError: CUDA error: device kernel image is invalid\n") == "cuda_driver"
    assert _reading('Error: failed to pull image "registry.local/train:1": not found\n') == "image_pull"
    # "out of memory" in a check of PyTorch's legacy CUDA backend (THC) is the device's memory (za-0012)
    assert read_dev("za-0012").label == "gpu_oom"  # type: ignore[union-attr]


def test_a_container_engines_401_is_the_registrys() -> None:
    """Docker's daemon ("Error response from daemon: …") and BuildKit ("failed to solve: … failed to fetch anonymous
    token: unexpected status: 401 Unauthorized") refused with 401/unauthorized were refused by a registry: an image
    pull, not the job's own credentials (b-0140, q-0016, u-0006). A local permission error the daemon reports stays
    permission_or_auth's."""
    for case_id in ("b-0140", "q-0016", "u-0006"):
        assert read_dev(case_id).label == "image_pull", case_id  # type: ignore[union-attr]
    mount = "docker: Error response from daemon: error while creating mount source path '/data': mkdir /data: permission denied.\n"
    assert _reading(mount) == "permission_or_auth"
    assert read_dev("b-0033").label == "permission_or_auth"  # type: ignore[union-attr]  # pyxis: mkdir … Permission denied
