"""A check inside a GPU kernel failed (device-side assert, illegal memory access): almost always bad indices."""

from __future__ import annotations

import re

from runshepherd.diagnosis.rules.base import pat
from runshepherd.diagnosis.rules.family import family, fixes_by_evidence, words

# An assertion inside a loss kernel checks the loss' inputs: class targets outside [0, n_classes) (bad labels in
# the data) or probabilities outside [0, 1] (predictions gone NaN). Maintainers answer with the data or the
# learning rate, not the model code.
_LOSS_KERNEL = re.compile(r"\b(?:Loss|NLLLoss\w*|\w*ClassNLLCriterion|BCECriterion|\w*CrossEntropy\w*)\.cu:\d+")
_DATA_FIX = (
    "Check the loss' inputs: every target label must lie in [0, number of classes) (masks often carry 255 or "
    "an extra class), and predictions fed to BCE must lie in [0, 1]; if they became NaN, lower the learning rate "
    "or clip gradients. Re-run with CUDA_LAUNCH_BLOCKING=1 to see the exact line."
)


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): CUDA's device-side assertion
ROOT_WORDS = (
    words(
        # the CUDA runtime's report of a failed assert() in a kernel: "<file>.cu:<line>: <function>: block: [x,y,z],
        # thread: [x,y,z] Assertion `<condition>` failed."
        r"\bdevice-side assert\w*|\bblock: \[\d+,\d+,\d+\], thread: \[\d+,\d+,\d+\]|\.cu:\d+:.*\bAssertion\b",
        0.64,
        "an assertion that failed inside a GPU kernel",
    ),
)


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
        # (not an assert() in host C++ code, a .cpp/.cc source: "torch/csrc/autograd/input_buffer.cpp:14: add:
        # Assertion `pos >= 0 && pos < buffer.size()` failed" is the library's own CPU-side check, not a kernel's)
        pat(r"^(?!.*\.(?:cpp|cc|cxx|c|h|hpp):\d+: ).*Assertion `.*` failed", 0.88),
        pat(r"an illegal memory access was encountered|cudaErrorIllegalAddress|CUDA_ERROR_ILLEGAL_ADDRESS", 0.86),
        pat(r"misaligned address|CUDA_ERROR_MISALIGNED_ADDRESS", 0.85),
        pat(r"CUBLAS_STATUS_EXECUTION_FAILED|CUDA error: invalid argument", 0.7),
    ),
    # a program that catches the error and logs it as a warning has not got past it: after a device-side assert the
    # CUDA context is unusable, every later call on the GPU fails the same way (CUDA's "sticky" errors)
    warning_patterns=(pat(r"device-side assert(?:ion)? triggered", 0.86),),
    fix_from_evidence=fixes_by_evidence((_LOSS_KERNEL, "lower_lr_or_fix_data", _DATA_FIX)),
    root_words=ROOT_WORDS,
)
