"""Out of memory on the GPU (CUDA, HIP, XLA/TF resource exhaustion)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.fixes import fix_gpu_oom
from runshepherd.diagnosis.rules.base import Context, Signal, pat
from runshepherd.diagnosis.rules.family import FixChoice, family, first_match, words

# What the program needs against what the device has, when the allocator says both: XLA's ``Used 21.90G of
# 7.48G hbm``, PyTorch's ``Tried to allocate 30.00 GiB (GPU 0; 15.78 GiB total capacity``. A need above the whole
# device is not fixed by a smaller batch alone: maintainers point to a device with more memory (or more devices).
_NEED_VS_HAVE = re.compile(
    r"Used (?P<need>[\d.]+)(?P<nu>[KMGT])i?B? of (?P<have>[\d.]+)(?P<hu>[KMGT])i?B? hbm"
    r"|Tried to allocate (?P<need2>[\d.]+) (?P<nu2>[KMGT])iB \(GPU \d+; (?P<have2>[\d.]+) (?P<hu2>[KMGT])iB total capacity"
)
_UNIT = {"K": 1 / 1024**2, "M": 1 / 1024, "G": 1.0, "T": 1024.0}
_BIGGER = (
    "The program needs more memory than the whole device has: run it on GPUs/TPUs with more memory, or shard "
    "it over more devices (model/tensor parallelism, FSDP/ZeRO); a smaller batch alone will not make it fit."
)


# vLLM's profiler found no room for a single KV-cache block; its own remedy is a larger share of the GPU
# (vllm/worker/worker.py raise_if_cache_size_invalid: "Try increasing `gpu_memory_utilization`")
_NO_CACHE_BLOCKS = re.compile(r"No available memory for the cache blocks")
_MORE_SHARE = (
    "vLLM had no GPU memory left for its KV cache: raise `gpu_memory_utilization` (the share of the GPU it may "
    "take), or run on a GPU with more memory; a smaller `max_model_len` or a quantized model also frees room."
)


# PyTorch's OOM message itemises who holds the device (c10/cuda/CUDACachingAllocator.cpp): "GPU 0 has a total capacity
# of 19.60 GiB of which 15.62 MiB is free. Process 3291739 has 18.62 GiB memory in use. Including non-PyTorch memory,
# this process has 972.00 MiB memory in use." Other processes holding most of it while this one holds a small share is a
# GPU another job occupies: a smaller batch does not help, a free GPU does
_CAPACITY = re.compile(r"total capacity of (?P<t>[\d.]+) (?P<tu>[KMGT])iB of which [\d.]+ [KMGT]iB is free")
_THIS = re.compile(r"this process has (?P<n>[\d.]+) (?P<u>[KMGT])iB memory in use")
_OTHER = re.compile(r"\bProcess \d+ has (?P<n>[\d.]+) (?P<u>[KMGT])iB memory in use")
OTHERS_HOLD = 0.5  # the other processes' share of the device, at least
OWN_SHARE = 0.25  # this process's share, at most
_FREE_GPU = (
    "run on a free GPU (ask the scheduler for a whole or exclusive GPU), or wait until the other job ends; a smaller "
    "batch will not help while the GPU is taken."
)
_HELD = (
    "Another process holds most of this GPU's memory (the error lists it), so this job could not get the memory it needs: "
    + _FREE_GPU
)


# PyTorch before 2.1 says it in numbers only (the same allocator's older message): "Tried to allocate 20.00 MiB (GPU 0;
# 22.17 GiB total capacity; 3.47 GiB already allocated; 153.81 MiB free; 4.20 GiB reserved in total by PyTorch)",
# before 1.4 "… free; 3.60 GiB cached)" (cached beside allocated). What is neither free nor PyTorch's is held outside
# this process's allocator, nearly always by another process (a CUDA context takes a few hundred MiB). On dev, of the
# logs where that is at least half the device while PyTorch holds at most a quarter, 18 were fixed by a free GPU and 7
# by a smaller batch; of the rest, 80 and 4.
_OLD_SHARES = re.compile(
    r"\(GPU \d+; (?P<t>[\d.]+) (?P<tu>[KMGT])iB total capacity; (?P<a>[\d.]+) (?P<au>[KMGT])iB already allocated; "
    r"(?P<f>[\d.]+) (?P<fu>[KMGT])iB free; (?:(?P<r>[\d.]+) (?P<ru>[KMGT])iB reserved in total by PyTorch"
    r"|(?P<c>[\d.]+) (?P<cu>[KMGT])iB cached)"
)
_HELD_OUTSIDE = (
    "Most of this GPU's memory was neither free nor held by this program's PyTorch (the error's total capacity, less "
    "what PyTorch reserved and what was free): another process most likely holds it, so this job could not get the "
    "memory it needs. Check `nvidia-smi` on the node; " + _FREE_GPU
)


def _gib(n: str, unit: str) -> float:
    return float(n) * _UNIT[unit]


def _taken(total: float, others: float, mine: float) -> bool:
    """Others hold at least ``OTHERS_HOLD`` of the device while this process holds at most ``OWN_SHARE``."""
    return total > 0 and others >= OTHERS_HOLD * total and mine <= OWN_SHARE * total


def _held_by_others(text: str) -> bool:
    """The newer OOM message's process list (:data:`_CAPACITY`) says the device is taken (:func:`_taken`)."""
    cap = _CAPACITY.search(text)
    own = _THIS.search(text, cap.end()) if cap else None
    if cap is None or own is None:
        return False
    others = sum(_gib(m["n"], m["u"]) for m in _OTHER.finditer(text, cap.end(), own.start()))
    return _taken(_gib(cap["t"], cap["tu"]), others, _gib(own["n"], own["u"]))


def _held_outside(text: str) -> bool:
    """The older OOM numbers (:data:`_OLD_SHARES`) say the device is taken (:func:`_taken`): what is neither free nor
    PyTorch's is the others'."""
    m = _OLD_SHARES.search(text)
    if m is None:
        return False
    total = _gib(m["t"], m["tu"])
    mine = _gib(m["r"], m["ru"]) if m["r"] else _gib(m["c"], m["cu"]) + _gib(m["a"], m["au"])
    return _taken(total, total - mine - _gib(m["f"], m["fu"]), mine)


def _fix_from_evidence(ctx: Context, s: Signal) -> FixChoice | None:
    if any(_NO_CACHE_BLOCKS.search(e) for e in s.evidence):
        return "increase_memory", _MORE_SHARE
    if any(_held_by_others(e) for e in s.evidence) or _held_by_others(ctx.all_text()):
        return "change_resources_or_wait", _HELD
    if any(_held_outside(e) for e in s.evidence):
        return "change_resources_or_wait", _HELD_OUTSIDE
    m = first_match(ctx, s, _NEED_VS_HAVE)
    if m is None:
        return None
    g = m.groupdict()
    need = float(g["need"] or g["need2"]) * _UNIT[g["nu"] or g["nu2"]]
    have = float(g["have"] or g["have2"]) * _UNIT[g["hu"] or g["hu2"]]
    return ("increase_memory", _BIGGER) if need > have else None


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): memory words from the runtimes' own messages
# (strerror(ENOMEM) "Cannot allocate memory", Python's MemoryError, "out of memory", absl/gRPC RESOURCE_EXHAUSTED);
# said of a GPU or other device they are gpu_oom's, otherwise the host's
MEMORY_WORDS = (
    r"\bout of (?:\w+ )?memory\b|\bOOM\b|\b(?:failed|unable|cannot|can't|could not|couldn't) (?:to )?allocate\b"
    r"(?:[^.]|\.\S){0,40}(?:memory|bytes|\d\s*[KMGT]i?B)|\bcannot allocate memory\b|\ballocation (?:failed|failure)\b"
    r"|\b(?:insufficient|not enough) (?:\w+ ){0,2}memory\b|\bmemory (?:exhausted|allocation (?:failed|error))"
    r"|\bresource ?exhausted\b|\bexhausted (?:\w+ )?memory\b|\bMemory ?Error\b|\bENOMEM\b|\bErrno 12\b"
    r"|\bexceeds? (?:the )?(?:\w+ )?memory (?:limit|capacity)\b|\bno (?:available|free) memory\b"
)
ON_A_DEVICE = (
    r"\b(?:cuda\w*|gpu(?:s|_\w+)?|device|vram|hbm|tpus?|xla|cudnn|cublas|hip|rocm|mps|xpu|npu|cuMem\w*|cudaMalloc\w*)\b"
    # (PyTorch's legacy CUDA backend THC names itself in its checks: "THCudaCheck FAIL file=…/THCStorage.cu")
    r"|\bcuda:\d|\bgraphics card\b|\bTHC\w*"
)
ROOT_WORDS = (
    words(MEMORY_WORDS, 0.62, "running out of memory on a GPU or other device", when=ON_A_DEVICE, unless=r"\bquota\b"),
    # TensorFlow's and XLA's allocator words (errors_impl.ResourceExhaustedError, "OOM when allocating tensor"): the
    # device's memory in ML jobs, even when the line names no device; not a quota (gRPC's RESOURCE_EXHAUSTED is also "a
    # per-user quota", https://grpc.io/docs/guides/status-codes/: Google Cloud's "429 Quota exceeded")
    words(
        r"\bresource ?exhausted\b|\bOOM when allocating\b",
        0.62,
        "running out of memory on a GPU or other device",
        unless=r"\bquota\b",
    ),
)


FAMILY = family(
    "gpu_oom",
    origin="user",
    fix_kind="reduce_memory",
    explanation="The model ran out of GPU memory: one step needed more memory on the graphics card than it has.",
    fix_description="Halve the batch size (keep the effective batch with gradient accumulation), or use GPUs "
    "with more memory, activation checkpointing or mixed precision.",
    patterns=(
        pat(r"CUDA out of memory", 0.9),
        pat(r"OutOfMemoryError\b.*\b(?:CUDA|GPU|HIP)", 0.9),
        pat(r"torch\.(?:cuda\.)?OutOfMemoryError", 0.9),
        pat(r"CUDA error: out of memory|CUDA_ERROR_OUT_OF_MEMORY|cudaErrorMemoryAllocation", 0.9),
        # Apple's Metal (MLX, and anything else on an Apple GPU): a command buffer the GPU could not run for lack of
        # memory, kIOGPUCommandBufferCallbackErrorOutOfMemory in IOKit's GPU error codes; MLX prints it as
        # "[METAL] Command buffer execution failed: Insufficient Memory (00000008:kIOGPU…OutOfMemory)"
        pat(
            r"kIOGPUCommandBufferCallbackErrorOutOfMemory|\[METAL\] Command buffer execution failed: Insufficient Memory",
            0.9,
        ),
        # XLA/JAX/TF: the allocator on the device gave up
        pat(r"Resource exhausted: (?:Out of memory|Failed to allocate)|Failed to allocate .{0,60} on device", 0.9),
        pat(r"RESOURCE_EXHAUSTED: .{0,80}(?:allocat|memory)|out of memory on (?:device|GPU)", 0.88),
        pat(r"HIP out of memory", 0.9),
        # TensorFlow copying an input to a GPU that has no room left for it (its copy's destination was never
        # allocated): "Failed copying input tensor from …/device:CPU:0 to …/device:GPU:0 … Dst tensor is not initialized."
        pat(r"Dst tensor is not initialized", 0.8),
        # PyTorch's legacy THC check of a CUDA call (cudaErrorMemoryAllocation = 2), often glued to a progress bar
        pat(r"THCudaCheck FAIL file=\S+ line=\d+ error=2 : out of memory", 0.88),
        # torch-directml (AMD/Intel GPUs on Windows): its allocator's refusal
        pat(r"There is not enough GPU video memory available|DML allocator out of memory", 0.9),
        # TensorFlow's stream executor when the device allocator refuses a block, whatever the driver's error code
        # (CUDA or ROCm): "failed to allocate %s (%llu bytes) from device: %s" (stream_executor cuda/rocm_driver.cc)
        pat(r"failed to allocate \S+ \(\d+ bytes\) from device", 0.86),
        pat(r"RESOURCE_EXHAUSTED:?\s*Out of memory", 0.9),
        pat(r"Out of memory while trying to allocate", 0.9),
        pat(r"ResourceExhaustedError", 0.88),
        pat(r"OOM when allocating tensor", 0.9),
        pat(
            r"CUBLAS_STATUS_ALLOC_FAILED|CUDNN_STATUS_ALLOC_FAILED|cudaErrorMemoryAllocation|CUFFT_ALLOC_FAILED"
            r"|CURAND_STATUS_ALLOCATION_FAILED|CUSOLVER_STATUS_ALLOC_FAILED|CUSPARSE_STATUS_ALLOC_FAILED",
            0.85,
        ),
        pat(r"Tried to allocate \d+(?:\.\d+)? [GMK]iB", 0.8),
        pat(r"ran out of memory trying to allocate", 0.85),
        # an inference server whose KV cache does not fit in the GPU memory it may use (vLLM)
        pat(
            r"larger than the maximum number of tokens that can be stored in KV cache"
            r"|No available memory for the cache blocks|Insufficient memory for (?:the )?KV cache",
            0.88,
        ),
        # RAPIDS' memory manager (RMM, under XGBoost's, cuDF's and cuML's GPU code) refusing a device allocation
        # ("std::bad_alloc: out_of_memory: CUDA error at: …/rmm/mr/device/cuda_memory_resource.hpp"), and
        # text-generation-inference's warm-up finding the GPU too small for its prefill budget ("Not enough memory to
        # handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`")
        pat(
            r"\bout_of_memory: CUDA error\b|\brmm::out_of_memory\b"
            r"|Not enough memory to handle \d+ (?:prefill|total) tokens",
            0.88,
        ),
        # cuBLAS could not even create its handle: the workspace allocation failed on a full GPU
        pat(r"CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate", 0.86),
        # the same handle creation failing in TensorFlow/JAX's stream executor (cuda_blas.cc: "failed to create cublas
        # handle: CUBLAS_STATUS_NOT_INITIALIZED"): cuBLAS could not allocate its workspace on a GPU the process (TF
        # preallocates most of it) or another one had already filled
        pat(r"failed to create cublas handle: CUBLAS_STATUS_NOT_INITIALIZED", 0.84),
        # CuPy (Chainer) and Caffe's CUDA check
        pat(r"out of memory to allocate \d+ bytes|cudaSuccess \(2 vs\. 0\)\s+out of memory", 0.88),
        # any runtime's own "out of memory" said of a device (the CUDA runtime's string for cudaErrorMemoryAllocation
        # is "out of memory", and callers prefix it with the API or device: old PyTorch's ``cuda runtime error (2) :
        # out of memory``, ggml/MXNet ``cudaMalloc failed: out of memory``, TensorRT ``Cuda Runtime (out of memory)``,
        # PyTorch's ``MPS backend out of memory`` / ``XPU out of memory``, Paddle's ``Out of memory error on GPU 0``);
        # not a library's advice about what to do if it ever happens (vLLM at INFO: "CUDA graphs can take additional
        # 1~3 GiB memory per GPU. If you are running out of memory, consider decreasing `gpu_memory_utilization`")
        pat(
            r"\b(?:cuda|gpu|hip|mps|xpu|npu|cudaMalloc\w*|cuMemAlloc\w*|device)\b"
            r"(?:(?!\b(?:if|avoid|prevent|may|might|could)\b)[^\n]){0,40}\bout of memory\b"
            r"|\bout of memory (?:error )?on (?:GPU|device)\b",
            0.86,
        ),
        # TensorRT's allocator (``Error Code 2: OutOfMemory``), ONNX Runtime's arena (bfc_arena.cc)
        pat(
            r"Error Code \d+: OutOfMemory\b|Requested amount of GPU memory \(\d+ bytes\) could not be allocated"
            r"|Failed to allocate memory for requested buffer of size \d+",
            0.86,
        ),
        # XLA:TPU, whatever memory space ran out (hbm, vmem, smem)
        pat(r"Ran out of memory in memory space \w+|Exceeded hbm capacity by", 0.9),
        # vLLM: the KV cache does not fit next to the weights (V1 engine), the GPU is already taken at start-up,
        # and the profiler's verdict that no KV-cache block fits (``# GPU blocks: 0``, logged before it raises)
        pat(
            r"KV cache is needed, which is larger than the available KV cache memory"
            r"|Free memory on device .{0,60} is less than desired GPU memory utilization",
            0.9,
        ),
        pat(r"# (?:GPU|cuda|NPU|XPU) blocks: 0\b|memory reserved for KV Cache is -\d", 0.84),
        # transformers: a quantized model that does not fit on the GPU(s) was being dispatched to the CPU or disk
        pat(r"Some modules are dispatched on the CPU or the disk\. Make sure you have enough GPU RAM", 0.88),
        # accelerate's find_executable_batch_size halved the batch on every OOM until nothing was left
        pat(r"No executable batch size found, reached zero", 0.88),
        # NCCL's own buffer allocation on the device failed (its ncclUnhandledCudaError "Last error: Failed to CUDA
        # calloc N bytes", the cudaMalloc of ncclCudaCalloc in src/include/alloc.h): the GPU's memory was full when
        # the collective needed its buffers
        pat(r"\bFailed to CUDA calloc \d+ bytes", 0.86),
    ),
    # NCCL reports a failed allocation inside a collective as a WARN line (its ``Cuda failure 'out of memory'``)
    warning_patterns=(
        pat(r"NCCL WARN .*Cuda failure '?out of memory", 0.84),
        # PyTorch's OutOfMemoryError message logged by the program at warning level (a training loop that catches
        # it per batch: "WARNING - Training batch error: CUDA out of memory. Tried to allocate 4.00 GiB"): a run that
        # then steps on is read as going on past it; one that does not is failing on it
        pat(r"\bCUDA out of memory\. Tried to allocate [\d.]+ [GMK]i?B\b", 0.8),
    ),
    applies=("failed", "running"),
    fixer=fix_gpu_oom,
    fix_from_evidence=_fix_from_evidence,
    root_words=ROOT_WORDS,
)
