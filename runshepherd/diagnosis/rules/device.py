"""GPU driver/runtime problems, device-side asserts, and native crashes (segfaults)."""

from __future__ import annotations

from runshepherd.diagnosis.rules.base import (
    Context,
    PatternRule,
    Signal,
    codes_of,
    exit_evidence,
    pat,
    register,
    rule,
)

CUDA_DRIVER = register(
    PatternRule(
        name="cuda_driver",
        label="cuda_driver",
        origin="infra",
        fix_kind="fix_driver_or_image",
        explanation="The program could not use the GPU: the GPU driver on the machine and the CUDA version in the "
        "container image do not match, the image was built without GPU support, or the GPU itself faulted.",
        fix_description="Use an image whose CUDA version the node's driver supports (or a CPU-only setup if no "
        "GPU was requested); if the GPU faulted, resubmit and report the node name if it repeats.",
        patterns=(
            pat(
                r"CUDA driver version is insufficient|cudaErrorInsufficientDriver|CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
                0.92,
            ),
            pat(r"NVIDIA driver on your system is too old|Found no NVIDIA driver", 0.9),
            pat(r"no CUDA-capable device is detected|CUDA_ERROR_NO_DEVICE|No CUDA GPUs are available", 0.9),
            pat(r"Unexpected error from cudaGetDeviceCount|cudaGetDeviceCount\(\) returned", 0.88),
            pat(r"libcuda\.so(?:\.\d+)?: cannot open shared object file|libnvidia-ml\.so.*cannot open", 0.9),
            pat(r"nvidia-container-cli: (?:initialization|mount|detection) error", 0.92),
            pat(r"Driver/library version mismatch|Failed to initialize NVML", 0.9),
            pat(r"no kernel image is available for execution on the device", 0.9),
            pat(r"forward compatibility was attempted on non supported HW", 0.9),
            pat(r"GPU has fallen off the bus|NVRM: Xid|\bXid \d+|uncorrectable ECC error", 0.9),
            pat(r"CUDA_ERROR_NOT_INITIALIZED|CUDA driver initialization failed", 0.86),
            pat(r"Unable to initialize backend 'cuda'", 0.86),
            pat(r"Torch not compiled with CUDA enabled", 0.86),
            pat(
                r"Loaded runtime CuDNN library: \S+ but source was compiled with|CUDNN_STATUS_VERSION_MISMATCH|cuDNN version incompatibility",
                0.88,
            ),
            pat(r"CUDA error: (?:unknown error|initialization error)", 0.8),
            pat(r"CUDNN_STATUS_NOT_INITIALIZED|CUBLAS_STATUS_NOT_INITIALIZED", 0.84),
        ),
    )
)

DEVICE_ASSERT = register(
    PatternRule(
        name="device_assert",
        label="device_assert",
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
)

_SEG_EXPL = (
    "The program crashed inside native code (a segmentation fault or abort), not in your Python: "
    "often a library built for a different CUDA/driver version, a broken C extension, or a hardware fault."
)
_SEG_FIX = (
    "Match library versions in the image to the node's driver (or rebuild the image), resubmit once in "
    "case it was transient, and report the node name if it repeats on the same machine."
)

SEGFAULT = register(
    PatternRule(
        name="segfault",
        label="segfault",
        origin="infra",
        fix_kind="fix_driver_or_image",
        explanation=_SEG_EXPL,
        fix_description=_SEG_FIX,
        patterns=(
            pat(r"Segmentation fault|SIGSEGV|signal 11\b|Signal 11 \(SIGSEGV\)", 0.9),
            pat(r"Fatal Python error: (?:Segmentation fault|Aborted|Bus error|Illegal instruction)", 0.9),
            pat(r"is killed by signal: (?:Segmentation fault|Bus error|Aborted)", 0.9),
            pat(r"\bBus error\b|Illegal instruction|core dumped", 0.86),
            pat(
                r"double free or corruption|free\(\): invalid pointer|malloc\(\): corrupted|stack smashing detected",
                0.86,
            ),
            pat(r"terminate called after throwing an instance of", 0.7),
            pat(r"SIGABRT|Signal 6 \(SIGABRT\)", 0.7),
        ),
    )
)


@rule
def segfault_exit(ctx: Context) -> list[Signal]:
    codes = set(codes_of(ctx))
    hit = codes & {139, -11, 134, -6}
    if not hit:
        return []
    ev, order = exit_evidence(ctx, hit)
    return [Signal("segfault", "infra", 0.6, order, ev, _SEG_EXPL, "fix_driver_or_image", _SEG_FIX)]
