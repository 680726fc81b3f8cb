"""Out of memory on the GPU (CUDA, HIP, XLA/TF resource exhaustion)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.fixes import fix_gpu_oom
from runshepherd.diagnosis.rules.base import Context, Signal, pat
from runshepherd.diagnosis.rules.family import FixChoice, family, first_match

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


def _fix_from_evidence(ctx: Context, s: Signal) -> FixChoice | None:
    m = first_match(ctx, s, _NEED_VS_HAVE)
    if m is None:
        return None
    g = m.groupdict()
    need = float(g["need"] or g["need2"]) * _UNIT[g["nu"] or g["nu2"]]
    have = float(g["have"] or g["have2"]) * _UNIT[g["hu"] or g["hu2"]]
    return ("increase_memory", _BIGGER) if need > have else None


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
        # XLA/JAX/TF: the allocator on the device gave up
        pat(r"Resource exhausted: (?:Out of memory|Failed to allocate)|Failed to allocate .{0,60} on device", 0.9),
        pat(r"RESOURCE_EXHAUSTED: .{0,80}(?:allocat|memory)|out of memory on (?:device|GPU)", 0.88),
        pat(r"HIP out of memory", 0.9),
        pat(r"RESOURCE_EXHAUSTED:?\s*Out of memory", 0.9),
        pat(r"Out of memory while trying to allocate", 0.9),
        pat(r"ResourceExhaustedError", 0.88),
        pat(r"OOM when allocating tensor", 0.9),
        pat(r"CUBLAS_STATUS_ALLOC_FAILED|CUDNN_STATUS_ALLOC_FAILED|cudaErrorMemoryAllocation", 0.85),
        pat(r"Tried to allocate \d+(?:\.\d+)? [GMK]iB", 0.8),
        pat(r"ran out of memory trying to allocate", 0.85),
        # an inference server whose KV cache does not fit in the GPU memory it may use (vLLM)
        pat(
            r"larger than the maximum number of tokens that can be stored in KV cache"
            r"|No available memory for the cache blocks|Insufficient memory for (?:the )?KV cache",
            0.88,
        ),
        # cuBLAS could not even create its handle: the workspace allocation failed on a full GPU
        pat(r"CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate", 0.86),
        # CuPy (Chainer) and Caffe's CUDA check
        pat(r"out of memory to allocate \d+ bytes|cudaSuccess \(2 vs\. 0\)\s+out of memory", 0.88),
    ),
    applies=("failed", "running"),
    fixer=fix_gpu_oom,
    fix_from_evidence=_fix_from_evidence,
)
