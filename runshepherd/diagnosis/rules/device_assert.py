"""A check inside a GPU kernel failed (device-side assert, illegal memory access): almost always bad indices."""

from __future__ import annotations

from runshepherd.diagnosis.rules.base import pat
from runshepherd.diagnosis.rules.family import family

FAMILY = family(
    "device_assert",
    origin="user",
    fix_kind="fix_code",
    explanation="A check inside a GPU computation failed, almost always an index out of range (for example a "
    "class label larger than the number of classes, or a token id beyond the vocabulary).",
    fix_description="Re-run with CUDA_LAUNCH_BLOCKING=1 (or on CPU) to see the exact line, then check label "
    "ranges, vocabulary size and embedding sizes against the data.",
    patterns=(
        pat(r"device-side assert(?:ion)? triggered", 0.92),
        pat(r"Assertion `.*` failed", 0.88),
        pat(r"an illegal memory access was encountered|cudaErrorIllegalAddress|CUDA_ERROR_ILLEGAL_ADDRESS", 0.86),
        pat(r"misaligned address|CUDA_ERROR_MISALIGNED_ADDRESS", 0.85),
        pat(r"CUBLAS_STATUS_EXECUTION_FAILED|CUDA error: invalid argument", 0.7),
    ),
)
