"""Exception classes whose type (and module) says which failure family ended the run, whatever their message says.

One row per documented class: the pattern its qualified name matches (the module part optional where the class is
printed both ways), the family, the exception line as the library prints it, and where the library documents the
class. :class:`runshepherd.diagnosis.rules.family.TracebackRule` reads a traceback's exception through this table as
well as through the family's own name-shape regex (``Family.exceptions``: classes *named* for a connection, a
credential, a missing file in any library). The message's own wording, read by the family's patterns, stays the
stronger signal; the table is what carries when the message is one no pattern knows.

Left out on purpose (the type alone does not tell the family): ``HTTPError`` and ``HfHubHTTPError`` (any status),
TensorFlow's ``NotFoundError`` (a missing file or a missing shared library), ``InternalError``/``UnknownError``,
Ray's ``WorkerCrashedError``/``ActorDiedError`` (any cause), ``TimeoutError`` (a socket's or a user's timeout). A
class whose name does not end the way the error block recognises an exception line (``…Error``, ``…Exception``:
huggingface_hub's ``OfflineModeIsEnabled``, pkg_resources' ``VersionConflict``) is read by its family's patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_PY_EXC = "https://docs.python.org/3/library/exceptions.html"
_TORCH_DIST = "https://pytorch.org/docs/stable/distributed.html#torch.distributed.DistError"
_TORCH_RDZV = "https://pytorch.org/docs/stable/elastic/rendezvous.html#exceptions"
_RAY_EXC = "https://docs.ray.io/en/latest/ray-core/api/exceptions.html"
_HF_ERRORS = "https://huggingface.co/docs/huggingface_hub/package_reference/utilities#huggingface_hub.errors"
_TF_ERRORS = "https://www.tensorflow.org/api_docs/python/tf/errors"


@dataclass(frozen=True)
class ExceptionClass:
    pattern: str  # matched (re.search) against the exception's qualified name as printed
    label: str
    example: str  # an exception line as the library prints it
    source: str


ROWS: tuple[ExceptionClass, ...] = (
    # ------------------------------------------------------------------------------------------------- gpu_oom
    ExceptionClass(
        r"^torch\.(?:cuda\.)?OutOfMemoryError$",
        "gpu_oom",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB.",
        "https://pytorch.org/docs/stable/generated/torch.cuda.OutOfMemoryError.html",
    ),
    ExceptionClass(
        r"^(?:tensorflow\.python\.framework\.errors_impl\.|tf\.errors\.)?ResourceExhaustedError$",
        "gpu_oom",
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[8,512]",
        _TF_ERRORS,
    ),
    # ------------------------------------------------------------------------------------------------ host_oom
    ExceptionClass(r"^(?:builtins\.)?MemoryError$", "host_oom", "MemoryError", _PY_EXC + "#MemoryError"),
    ExceptionClass(
        r"^numpy\.(?:_?core\.)?_exceptions\._ArrayMemoryError$",
        "host_oom",
        "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 3.73 GiB for an array with shape (1000, 1000, 500)"
        " and data type float64",
        "https://github.com/numpy/numpy/blob/main/numpy/_core/_exceptions.py",
    ),
    ExceptionClass(
        r"^ray\.exceptions\.(?:OutOfMemoryError|ObjectStoreFullError)$",
        "host_oom",
        "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.",
        _RAY_EXC,
    ),
    # ----------------------------------------------------------------------------------------------- disk_full
    ExceptionClass(
        r"^ray\.exceptions\.OutOfDiskError$", "disk_full", "ray.exceptions.OutOfDiskError: Local disk is full", _RAY_EXC
    ),
    # ------------------------------------------------------------------------------------------ file_not_found
    ExceptionClass(
        r"^(?:builtins\.)?(?:FileNotFoundError|IsADirectoryError|NotADirectoryError)$",
        "file_not_found",
        "FileNotFoundError: [Errno 2] No such file or directory: 'data/train.json'",
        _PY_EXC + "#FileNotFoundError",
    ),
    ExceptionClass(
        r"^(?:huggingface_hub\.(?:errors|utils\._errors)\.)?(?:EntryNotFoundError|RevisionNotFoundError)$",
        "file_not_found",
        "huggingface_hub.errors.EntryNotFoundError: 404 Client Error. (Request ID: Root=1-6) Entry Not Found for url:"
        " https://huggingface.co/gpt2/resolve/main/missing.bin.",
        _HF_ERRORS,
    ),
    ExceptionClass(
        r"^(?:huggingface_hub\.(?:errors|utils\._errors)\.)?RepositoryNotFoundError$",
        "file_not_found",
        "huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error. (Request ID: Root=1-6) Repository Not Found"
        " for url: https://huggingface.co/api/models/bert-base-uncasd.",
        _HF_ERRORS,
    ),
    ExceptionClass(
        r"(?:^|\.)(?:DataFilesNotFoundError|EmptyDatasetError)$",
        "file_not_found",
        "datasets.data_files.EmptyDatasetError: The directory at /data/train doesn't contain any data files",
        "https://github.com/huggingface/datasets/blob/main/src/datasets/data_files.py",
    ),
    # -------------------------------------------------------------------------------------- permission_or_auth
    ExceptionClass(
        r"^(?:builtins\.)?PermissionError$",
        "permission_or_auth",
        "PermissionError: [Errno 13] Permission denied: '/data/checkpoints'",
        _PY_EXC + "#PermissionError",
    ),
    ExceptionClass(
        r"^(?:huggingface_hub\.(?:errors|utils\._errors)\.)?(?:GatedRepoError|LocalTokenNotFoundError)$",
        "permission_or_auth",
        "huggingface_hub.errors.GatedRepoError: 403 Client Error. (Request ID: Root=1-6) Cannot access gated repo for"
        " url https://huggingface.co/meta-llama/Llama-2-7b-hf/resolve/main/config.json.",
        _HF_ERRORS,
    ),
    # ---------------------------------------------------------------------------------------- network_download
    ExceptionClass(
        r"^(?:huggingface_hub\.(?:errors|utils\._errors)\.)?LocalEntryNotFoundError$",
        "network_download",
        "huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub"
        " and we cannot find the requested files in the local cache.",
        _HF_ERRORS,
    ),
    # ------------------------------------------------------------------------------------- nccl_or_distributed
    ExceptionClass(
        r"^torch\.distributed\.(?:DistError|DistBackendError|DistNetworkError|DistStoreError)$",
        "nccl_or_distributed",
        "torch.distributed.DistNetworkError: The client socket has timed out after 1800000ms while trying to connect"
        " to (10.0.0.1, 29500).",
        _TORCH_DIST,
    ),
    ExceptionClass(
        r"^torch\.distributed\.elastic\.rendezvous\.(?:api\.)?Rendezvous(?:Closed|Timeout|Connection|State)?Error$",
        "nccl_or_distributed",
        "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError",
        _TORCH_RDZV,
    ),
    # ------------------------------------------------------------------------------------------- unschedulable
    ExceptionClass(
        r"^ray\.exceptions\.(?:TaskUnschedulableError|ActorUnschedulableError)$",
        "unschedulable",
        "ray.exceptions.ActorUnschedulableError: The actor is not schedulable: The node specified via"
        " NodeAffinitySchedulingStrategy doesn't exist any more or is infeasible",
        _RAY_EXC,
    ),
    # -------------------------------------------------------------------------------------- missing_dependency
    ExceptionClass(
        r"^(?:builtins\.)?ModuleNotFoundError$",
        "missing_dependency",
        "ModuleNotFoundError: No module named 'flash_attn'",
        _PY_EXC + "#ModuleNotFoundError",
    ),
    ExceptionClass(
        r"^(?:\w+\.)*(?:importlib\.metadata\.|importlib_metadata\.)?PackageNotFoundError$",
        "missing_dependency",
        "importlib.metadata.PackageNotFoundError: No package metadata was found for bitsandbytes",
        "https://docs.python.org/3/library/importlib.metadata.html#importlib.metadata.PackageNotFoundError",
    ),
    ExceptionClass(
        r"^(?:conda\.exceptions\.)?PackagesNotFoundError$",
        "missing_dependency",
        "PackagesNotFoundError: The following packages are not available from current channels:",
        "https://github.com/conda/conda/blob/main/conda/exceptions.py",
    ),
    # the JVM's: a native library a class needs is not on java.library.path
    ExceptionClass(
        r"^(?:java\.lang\.)?UnsatisfiedLinkError$",
        "missing_dependency",
        "java.lang.UnsatisfiedLinkError: no jnind4jcpu in java.library.path",
        "https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/lang/UnsatisfiedLinkError.html",
    ),
)


@lru_cache(maxsize=1)
def _compiled() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(r.pattern), r.label) for r in ROWS)


def family_of(qualified_name: str) -> str | None:
    """The family a documented exception class points to (the first row that matches), else None."""
    for regex, label in _compiled():
        if regex.search(qualified_name):
            return label
    return None
