"""Out of memory on the GPU (CUDA, HIP, XLA/TF resource exhaustion)."""

from __future__ import annotations

from runshepherd.diagnosis.fixes import fix_gpu_oom
from runshepherd.diagnosis.rules.base import pat
from runshepherd.diagnosis.rules.family import family

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
    ),
    applies=("failed", "running"),
    fixer=fix_gpu_oom,
)
