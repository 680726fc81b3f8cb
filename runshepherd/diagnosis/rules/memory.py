"""Out-of-memory on the GPU and on the host (RAM), including exit 137 which is *not* proof of OOM alone."""

from __future__ import annotations

from runshepherd.diagnosis.rules.base import Context, PatternRule, Signal, codes_of, exit_evidence, pat, register, rule

GPU_OOM = register(
    PatternRule(
        name="gpu_oom",
        label="gpu_oom",
        origin="user",
        fix_kind="reduce_memory",
        explanation="The model ran out of GPU memory: one step needed more memory on the graphics card than it has.",
        fix_description="Halve the batch size (keep the effective batch with gradient accumulation), or use GPUs "
        "with more memory, activation checkpointing or mixed precision.",
        patterns=(
            pat(r"CUDA out of memory", 0.9),
            pat(r"OutOfMemoryError\b.*\b(?:CUDA|GPU|HIP)", 0.9),
            pat(r"torch\.(?:cuda\.)?OutOfMemoryError", 0.9),
            pat(r"CUDA error: out of memory", 0.9),
            pat(r"HIP out of memory", 0.9),
            pat(r"RESOURCE_EXHAUSTED:?\s*Out of memory", 0.9),
            pat(r"Out of memory while trying to allocate", 0.9),
            pat(r"ResourceExhaustedError", 0.88),
            pat(r"OOM when allocating tensor", 0.9),
            pat(r"CUBLAS_STATUS_ALLOC_FAILED|CUDNN_STATUS_ALLOC_FAILED|cudaErrorMemoryAllocation", 0.85),
            pat(r"Tried to allocate \d+(?:\.\d+)? [GMK]iB", 0.8),
            pat(r"ran out of memory trying to allocate", 0.85),
        ),
    )
)

_HOST_EXPL = "The task used more memory (RAM) than it was given, so the machine stopped it."
_HOST_FIX = (
    "Give the task more memory (double `memory` in its resources, capped by the largest node); if it is "
    "already at the node's limit, lower the batch size, data-loader workers or chunk size."
)
_CONFIRM_137 = (
    "Exit 137 means the process was killed from outside (SIGKILL). An out-of-memory kill is the usual cause, but "
    "an eviction, a time limit or a cancellation look the same. It is confirmed by an 'OOMKilled' / 'oom-kill' "
    "event, a 'Killed process … anon-rss' kernel line, or memory use at the limit on the dashboard just before "
    "the end."
)

HOST_OOM = register(
    PatternRule(
        name="host_oom",
        label="host_oom",
        origin="config",
        fix_kind="increase_memory",
        explanation=_HOST_EXPL,
        fix_description=_HOST_FIX,
        patterns=(
            pat(r"OOMKill(?:ed|ing)", 0.96, flags=0),
            pat(r"oom[-_ ]kill event", 0.96),
            pat(r"Out of memory: Kill(?:ed)? process", 0.96),
            pat(r"Memory cgroup out of memory", 0.96),
            pat(r"\bOUT_OF_MEMORY\b|Reason=OutOfMemory|JobState=OUT_OF_MEMORY", 0.96, flags=0),
            pat(r"exceeded (?:job )?memory limit", 0.95),
            pat(r"task \d+: Out Of Memory", 0.95),
            pat(r"low on resource: memory", 0.96),
            # Ray's memory monitor kills tasks when the node's RAM passes its threshold
            pat(r"killed due to the node running low on memory|exceeds the memory usage threshold", 0.95),
            pat(r"out of shared memory|shared memory \(shm\) limit|insufficient shared memory", 0.92),
            pat(r"is killed by signal: Killed", 0.9),
            pat(r"^(?:\w+\.)*MemoryError\b", 0.88, flags=0),
            pat(r"std::bad_alloc", 0.88),
            pat(r"Cannot allocate memory|\[Errno 12\]", 0.85),
            pat(r"Unable to allocate [\d.]+ [GMKT]iB for an array", 0.88),
            pat(r"(?:line \d+:\s+\d+ Killed|^Killed$|^Killed\s+python)", 0.7),
        ),
    )
)


@rule
def memory_from_exit_code(ctx: Context) -> list[Signal]:
    """Exit 137 / SIGKILL with nothing else: say it *may* be memory, and what would confirm it."""
    codes = codes_of(ctx)
    killed = {137, -9, 265} & set(codes)
    evicted = ctx.status == "FAILED_EVICTED" or 3004 in codes
    if not killed and not evicted:
        return []
    ev, order = exit_evidence(ctx, {137, -9, 265, 3004})
    if not ev and ctx.status:
        ev = [f"status: {ctx.status}"]
    what = "The platform evicted the task" if evicted else "The task was killed from outside (exit code 137)"
    return [
        Signal(
            label="host_oom",
            origin="config",
            strength=0.55 if evicted else 0.5,
            order=order,
            evidence=ev,
            explanation=f"{what}; running out of memory is the most likely reason, but it is not proven.",
            fix_kind="increase_memory",
            fix_description=_HOST_FIX,
            what_would_confirm=_CONFIRM_137,
        )
    ]
