"""The program could not use the GPU: driver/runtime mismatch, missing GPU, a GPU that faulted."""

from __future__ import annotations

import re

from runshepherd.diagnosis.rules.base import Context, FunctionRule, Signal, pat
from runshepherd.diagnosis.rules.family import family, fixes_by_evidence, words

# Not every GPU failure is a driver/image mismatch: a machine with no NVIDIA GPU or driver at all needs the job
# placed on a GPU node (or run on CPU); a GPU that faulted in hardware (fell off the bus, Xid, ECC) needs the job
# on another node, unchanged.
_NO_GPU_WORDS = (
    r"Found no NVIDIA driver|no CUDA-capable device is detected|No CUDA GPUs are available"
    # a job that needs a GPU, run where the framework sees none, in the frameworks' own wordings: torch.load of
    # tensors saved on a GPU (torch/serialization.py: "Attempting to deserialize object on a CUDA device but
    # torch.cuda.is_available() is False"), TensorFlow's placer for an op pinned to a GPU ("Cannot assign a device
    # for operation x: … explicitly assigned to /device:GPU:0 but available devices are [ …CPU:0 ]", "Could not
    # satisfy explicit device specification '/device:GPU:0' because no devices matching that specification are
    # registered"), vLLM's device detection (vllm/config.py DeviceConfig: "Failed to infer device type")
    r"|torch\.cuda\.is_available\(\) is False"
    r"|explicitly assigned to /(?:job:\w+/replica:\d+/task:\d+/)?device:GPU:\S* but available devices are"
    r"|Could not satisfy explicit device specification '[^']*GPU[^']*' because no (?:supported kernel for GPU "
    r"devices|devices matching that specification)"
    r"|RuntimeError: Failed to infer device type"
    # Lightning's accelerator connector asked for GPUs where none is usable (lightning/fabric/connector.py and
    # pytorch_lightning/trainer/connectors/accelerator_connector.py: "No supported gpu backend found!", "`CUDAAccelerator`
    # can not run on your system since the accelerator is not available"; not Apple's MPS, which is no NVIDIA matter)
    r"|No supported gpu backend found|\b(?:CUDA|GPU)Accelerator`? can not run on your system since the accelerator is not"
    r" available"
)
_NO_GPU = re.compile(_NO_GPU_WORDS)
_HW_FAULT = re.compile(
    r"fallen off the bus|NVRM: Xid|\bXid \d+|uncorrectable ECC error|GPU is lost|Unable to determine the device handle"
)
_NO_GPU_FIX = (
    "The machine the job ran on has no usable NVIDIA GPU: request GPUs for the task (a GPU pool or partition, a "
    "GPU count in its resources), or run on the CPU if no GPU was meant."
)
_HW_FIX = "A GPU on the node failed in hardware: resubmit unchanged (on another node), and report the node name."


_EXPL = (
    "The program could not use the GPU: the GPU driver on the machine and the CUDA version in the container image "
    "do not match, the image was built without GPU support, or the GPU itself faulted."
)
_FIX = (
    "Use an image whose CUDA version the node's driver supports (or a CPU-only setup if no GPU was requested); if "
    "the GPU faulted, resubmit and report the node name if it repeats."
)
# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): the CUDA driver API and runtime's own error
# names and strings (cuInit, "no CUDA-capable device is detected", "no kernel image is available", "CUDA driver
# version is insufficient for CUDA runtime version", NVML's "Driver/library version mismatch"), and a GPU's compute
# capability (sm_XY) that the build does not support
ROOT_WORDS = (
    words(
        r"\bdriver\b(?:[^.]|\.\S){0,60}\b(?:versions?|too old|insufficient|not (?:found|loaded|supported|compatible)"
        r"|does(?:n't| not) support|mismatch"
        r"|older|newer)\b|\b(?:insufficient|old|outdated|incompatible) (?:\w+ )?driver\b|\bcuInit\b"
        r"|\bno CUDA-capable device\b|\bno kernel image\b|\bcuda (?:driver|runtime) (?:version|api)\b|\bNVML\b"
        r"|\bcompute capability\b|\bsm_\d+\b(?:[^.]|\.\S){0,40}\b(?:not compatible|unsupported|not supported)\b"
        r"|\bCUDA (?:initiali[sz]ation|init)\b|\bforward compatibility\b"
        # the CUDA runtime's and driver's invalid kernel image (cudaGetErrorString(cudaErrorInvalidKernelImage) "device
        # kernel image is invalid", CUDA_ERROR_INVALID_IMAGE; https://docs.nvidia.com/cuda/cuda-runtime-api/
        # group__CUDART__TYPES.html): a binary built for another GPU or driver
        r"|\bkernel image is invalid\b|\bCUDA_ERROR_INVALID_IMAGE\b|\bInvalidKernelImage\b"
        # a CUDA older than a feature needs, said of the version (XLA: "StreamBeginCaptureToGraph is not implemented
        # for CUDA below version 12.3"; "requires CUDA 11.8 or later", "CUDA 12.1 or higher is required")
        r"|\bCUDA (?:versions? )?(?:below|older than|before|lower than|<)\s*(?:version )?\d"
        r"|\brequires? CUDA (?:version )?(?:>=?\s*)?\d+(?:\.\d+)? or (?:later|newer|higher|above)\b"
        r"|\bCUDA (?:version )?(?:>=?\s*)?\d+(?:\.\d+)? or (?:later|newer|higher|above) is required\b",
        0.63,
        "the GPU driver, its version or the GPU's compute capability",
    ),
    words(
        r"\bCUDA (?:is )?not available\b|\bno (?:nvidia )?gpus? (?:were )?(?:found|detected|available)\b"
        # XLA's (JAX) refusal when its CUDA backend sees no device ("FAILED_PRECONDITION: No visible GPU devices.")
        r"|\bno visible (?:gpu|cuda) devices?\b"
        r"|\bfound no (?:nvidia )?(?:driver|gpu)",
        0.56,
        "no usable GPU in the job's container or machine",
    ),
    # the NVIDIA kernel driver's own log lines (NVRM: …), a CUDA backend or the GPU that failed to initialise
    words(
        r"\bNVRM:|\b(?:cuda|gpu|nvidia)\b(?:[^.]|\.\S){0,40}\bfailed to initiali[sz]e\b",
        0.6,
        "the GPU driver, its version or the GPU's compute capability",
    ),
)


# a program's own check that it has a GPU, stated as its last word ("Training requires CUDA.", "This script needs a
# GPU"): it printed the requirement and stopped, on a machine where it found none
_REQUIRES_GPU = re.compile(
    r"\b(?:requires?|needs?) (?:a |an )?(?:CUDA|(?:NVIDIA )?GPU|CUDA[- ]capable (?:device|GPU)|CUDA device)s?\b"
    r"(?:\s+(?:to run|support|device))?\W*$",
    re.IGNORECASE,
)


def _requires_gpu_at_the_end(ctx: Context) -> list[Signal]:
    """The log's last line is the program saying it requires a GPU (:data:`_REQUIRES_GPU`): its own check failed."""
    last = next((ln for ln in reversed(ctx.log.lines) if ln.text.strip()), None)
    if last is None or last.code or _REQUIRES_GPU.search(last.text) is None:
        return []
    return [
        Signal(
            "cuda_driver",
            "infra",
            0.72,
            last.index,
            [last.raw.rstrip()],
            "The program stopped at its own check that it has a GPU: it found none where it ran (no GPU requested "
            "or visible, or a driver the framework cannot use).",
            "fix_driver_or_image",
            "Run it where a GPU is visible to it: request a GPU from the scheduler, check that CUDA_VISIBLE_DEVICES "
            "is not empty and that `nvidia-smi` works in the job, and use an image whose CUDA the driver supports.",
        )
    ]


# CUDA runtime error codes that name the driver or the device, not the program (listed where they are read below)
_DRIVER_CODES = r"(?:3|30|35|38|100|999)"


FAMILY = family(
    "cuda_driver",
    origin="infra",
    fix_kind="fix_driver_or_image",
    explanation=_EXPL,
    fix_description=_FIX,
    patterns=(
        pat(
            r"CUDA driver version is insufficient|cudaErrorInsufficientDriver|CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
            0.92,
        ),
        pat(r"NVIDIA driver on your system is too old|Found no NVIDIA driver", 0.9),
        pat(r"no CUDA-capable device is detected|CUDA_ERROR_NO_DEVICE|No CUDA GPUs are available", 0.9),
        pat(_NO_GPU_WORDS, 0.86),
        # ... or a training script's own check saying so ("AssertionError: Training currently requires at least one
        # GPU.", DiT's train.py; "ValueError: This script requires a CUDA GPU"): no GPU is visible to the job (not
        # "requires a GPU with compute capability >= 8.0": a GPU is there, of another kind; nor accelerate's "fp16
        # mixed precision requires a GPU": a setting asked of a CPU run, validation_error's)
        pat(
            r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): (?:[\w\-]+ ){0,3}?(?:[Tt]raining|[Ss]cript|program|job)\b.{0,30}?"
            r"\brequires? (?:at least one|a|one or more) (?:CUDA[- ]|NVIDIA )?"
            r"GPUs?(?: to (?:run|train))?[.!]?\s*$",
            0.84,
            flags=0,
        ),
        pat(r"Unexpected error from cudaGetDeviceCount|cudaGetDeviceCount\(\) returned", 0.88),
        pat(r"libcuda\.so(?:\.\d+)?: cannot open shared object file|libnvidia-ml\.so.*cannot open", 0.9),
        pat(r"nvidia-container-cli: (?:initialization|mount|detection|requirement|ldcache) error", 0.92),
        # docker has no GPU runtime to hand ``--gpus`` to (the NVIDIA container toolkit is not installed)
        pat(r"could not select device driver \S* with capabilities: \[\[gpu\]\]", 0.9),
        pat(r"Driver/library version mismatch|Failed to initialize NVML", 0.9),
        pat(r"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver", 0.88),
        pat(r"no kernel image is available for execution on the device", 0.9),
        # cudaErrorInvalidDeviceFunction (98, "invalid device function"; CUDA < 9 numbered it 8, as Caffe's "(8 vs. 0)"
        # shows): the binary holds no kernel built for this GPU's architecture (a library or a custom op compiled
        # with another -arch than the card's); a crash that follows it is its echo
        pat(r"\binvalid device function\b", 0.92),
        # the GPU's architecture is newer than the binaries (or the PTX) the library was built with
        pat(r"with CUDA capability sm_\d+ is not compatible with the current PyTorch installation", 0.86),
        pat(
            r"failed to load PTX text|CUDA_ERROR_INVALID_PTX|CUDA_ERROR_UNSUPPORTED_PTX_VERSION"
            r"|PTX was compiled with an unsupported toolchain|CUDA_ERROR_NO_BINARY_FOR_GPU",
            0.9,
        ),
        pat(r"forward compatibility was attempted on non supported HW", 0.9),
        pat(r"fallen off the bus|NVRM: Xid|\bXid \d+|uncorrectable ECC error", 0.9),
        # nvidia-smi on a GPU the driver lost ("Unable to determine the device handle for GPU 0000:3B:00.0: GPU is
        # lost.  Reboot the system to recover this GPU", or "…: Unknown Error")
        pat(r"Unable to determine the device handle for GPU|GPU is lost\.\s+Reboot the system", 0.88),
        # cudaErrorLaunchTimeout: the display driver's watchdog (Windows TDR, an X server's GPU) stopped a kernel that
        # ran too long on a GPU that also drives a screen
        pat(r"the launch timed out and was terminated|cudaErrorLaunchTimeout|CUDA_ERROR_LAUNCH_TIMEOUT", 0.8),
        # the kernel driver's own complaints (dmesg): version skew, a GPU it could not claim
        pat(
            r"NVRM: (?:API mismatch|No NVIDIA (?:graphics adapter|GPU) |.*probe routine (?:was not called|failed)|RmInitAdapter failed)",
            0.88,
        ),
        pat(r"CUDA_ERROR_NOT_INITIALIZED|CUDA driver initialization failed", 0.86),
        pat(r"Unable to initialize backend 'cuda'|(?:CUDA|cuda)'? backend failed to initiali[sz]e", 0.86),
        pat(r"Unable to use CUDA because of the following issues|Outdated cuDNN installation found", 0.86),
        pat(
            r"Loaded runtime CuDNN library: \S+ but source was compiled with|CUDNN_STATUS_VERSION_MISMATCH|cuDNN version incompatibility",
            0.88,
        ),
        pat(r"CUDA error: (?:unknown error|initialization error)", 0.8),
        # cudaErrorLaunchFailure ("unspecified launch failure", 719): the runtime's name for an exception on the device
        # while a kernel ran. A kernel's own bug can raise it, but in a training run of a framework's stock kernels
        # the real threads find the GPU or its driver at fault (a reboot, another card); weaker than the named faults
        pat(r"CUDA error: unspecified launch failure", 0.7),
        # cudaErrorDevicesUnavailable: the GPU is held by another process in exclusive mode, or not usable at all
        pat(r"CUDA-capable device\(s\) is/are busy or unavailable|cudaErrorDevicesUnavailable", 0.8),
        # the same runtime codes in PyTorch's legacy THC wording ("cuda runtime error (%d) : %s at %s:%d") and in
        # Caffe's glog check ("Check failed: error == cudaSuccess (%d vs. 0)"): cudaErrorInitializationError 3,
        # cudaErrorInsufficientDriver 35, cudaErrorNoDevice 100 (38 before CUDA 10.1), cudaErrorUnknown 999 (30
        # before CUDA 10.1: the code a GPU left unusable by a suspend or a driver update without a reboot gives)
        pat(
            rf"cuda runtime error \({_DRIVER_CODES}\) : |Check failed: error == cudaSuccess \({_DRIVER_CODES} vs\. 0\)",
            0.8,
        ),
        # PyTorch's wording of a CUDA initialisation that failed for no reason it can name, and a node whose fabric
        # manager has not brought the GPUs up (cudaErrorSystemNotReady, "system not yet initialized"). TensorFlow's
        # ``failed call to cuInit`` is left out: CPU-only runs log it and carry on.
        pat(r"CUDA unknown error - this may be due to an incorrectly set up environment", 0.82),
        # nccl-tests' CUDACHECK on the runtime's cudaErrorUnknown ("Test CUDA failure common.cu:1045 'unknown
        # error'"): CUDA itself could not start on the node (a kernel module not loaded, a container's device setup)
        pat(r"\bTest CUDA failure \S+ 'unknown error'", 0.82),
        pat(r"CUDA_ERROR_SYSTEM_NOT_READY|cudaErrorSystemNotReady|CUDA error: system not yet initialized", 0.88),
        # ROCm/HIP's counterparts: no AMD GPU visible, or no code object built for this GPU's gfx architecture
        pat(r"no ROCm-capable device is detected|hipErrorNoDevice", 0.9),
        pat(
            r"hipErrorNoBinaryForGpu|Unable to find code object for all current devices|HIP error: invalid device function",
            0.88,
        ),
        pat(
            r"CUDNN_STATUS_NOT_INITIALIZED|Failed to get convolution algorithm\. This is probably because cuDNN failed to"
            r" initialize"
            r"|(?<!failed to create cublas handle: )CUBLAS_STATUS_NOT_INITIALIZED(?! when calling `cublasCreate)",
            0.84,
        ),
        # cuDNN's own statuses for a failure inside the library or on the GPU (cudnnStatus_t: INTERNAL_ERROR "an
        # internal cuDNN operation failed", MAPPING_ERROR "access to GPU memory space failed", EXECUTION_FAILED "the GPU
        # program failed to execute"), not a wrong call of the user's (BAD_PARAM, NOT_SUPPORTED) and not memory
        # (ALLOC_FAILED is gpu_oom's); weaker than the named driver faults: a stale library or a GPU that faulted
        pat(r"CUDNN_STATUS_(?:INTERNAL_ERROR|MAPPING_ERROR|EXECUTION_FAILED)\b", 0.7, flags=0),
        # cuFFT's failure inside the library (cufftResult CUFFT_INTERNAL_ERROR), which torch.stft/fft raise as
        # "cuFFT error: CUFFT_INTERNAL_ERROR": the CUDA build's cuFFT does not support this GPU (torch's CUDA 11.7
        # wheels on Ada cards), fixed by a build for a newer CUDA; not a wrong call (CUFFT_INVALID_*)
        pat(r"cuFFT error: CUFFT_INTERNAL_ERROR\b", 0.76, flags=0),
        # TensorRT's wording of a CUDA runtime that would not initialise ("CUDA initialization failure with error:
        # 35. Please check your CUDA installation"; 35 = cudaErrorInsufficientDriver, 100 = no device)
        pat(r"CUDA initialization failure with error:? \d+", 0.86),
        # XLA's status for the same cuDNN handle that could not be created (JAX, TensorFlow)
        pat(r"DNN library initialization failed", 0.8),
        # The CUDA error codes that say the GPU, its driver or the binaries' build do not fit the machine, by their
        # enum names in the runtime API (cudaError_t) and the driver API (CUresult), and the runtime's own strings
        # for the ones not matched above (cudaGetErrorString): no device or one busy in exclusive mode (100, 46),
        # driver and runtime that do not fit (35, 803, 804, 34 = a stub libcuda), no binary or PTX for this GPU
        # (200 "device kernel image is invalid", 209, 218, 221, 222), hardware faults (214, 220). Sources: cudaError in
        # https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html and CUresult in
        # https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html. Left out: the codes a kernel's own
        # bug produces (illegal address 700, invalid value 1, invalid device ordinal 101; launch failure 719 is above).
        pat(
            r"\bcudaError(?:InsufficientDriver|NoDevice|DevicesUnavailable|InitializationError|SystemDriverMismatch"
            r"|CompatNotSupportedOnDevice|SystemNotReady|NoKernelImageForDevice|InvalidKernelImage|InvalidPtx"
            r"|UnsupportedPtxVersion|JitCompilerNotFound|StubLibrary|ECCUncorrectable|NvlinkUncorrectable)\b"
            r"|\bCUDA_ERROR_(?:DEVICE_UNAVAILABLE|DEINITIALIZED|SYSTEM_DRIVER_MISMATCH|COMPAT_NOT_SUPPORTED_ON_DEVICE"
            r"|INVALID_IMAGE|JIT_COMPILER_NOT_FOUND|STUB_LIBRARY|ECC_UNCORRECTABLE|NVLINK_UNCORRECTABLE)\b",
            0.86,
            flags=0,
        ),
        pat(
            r"all CUDA-capable devices are busy or unavailable|system has unsupported display driver / cuda driver"
            r" combination|PTX JIT compiler library not found|CUDA driver is a stub library|device kernel image is invalid"
            r"|uncorrectable NVLink error was detected",
            0.84,
        ),
    ),
    applies=("failed", "running"),
    # PyTorch reports a CUDA initialisation that failed as a UserWarning and carries on on the CPU (or fails
    # later): the warning is the only trace of the cause
    warning_patterns=(
        # NVML refusing the loaded kernel module, as NCCL reports it at its only level ("NCCL WARN nvmlInit() failed:
        # Driver/library version mismatch")
        pat(r"\bWARN\b.*\bDriver/library version mismatch", 0.84),
        pat(
            r"CUDA initialization: (?:Found no NVIDIA driver|The NVIDIA driver on your system is too old"
            r"|CUDA driver initialization failed|Unexpected error from cudaGetDeviceCount"
            r"|CUDA unknown error - this may be due to an incorrectly set up environment)",
            0.8,
        ),
        # torch/cuda/__init__.py's capability checks, also UserWarnings: a GPU newer than the binaries were built for,
        # or one older than the build supports
        pat(
            r"with CUDA capability sm_\d+ is not compatible with the current PyTorch installation"
            r"|PyTorch no longer supports this GPU because it is too old",
            0.8,
        ),
    ),
    fix_from_evidence=fixes_by_evidence(
        (_HW_FAULT, "resubmit", _HW_FIX), (_NO_GPU, "change_resources_or_wait", _NO_GPU_FIX)
    ),
    root_words=ROOT_WORDS,
    rules=(FunctionRule("requires_a_gpu_at_the_end", _requires_gpu_at_the_end),),
)
