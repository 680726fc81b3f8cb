"""Out of memory on the host (RAM), including exit 137, which is *not* proof of OOM alone."""

from __future__ import annotations

import re

from runshepherd.diagnosis.fixes import fix_host_oom
from runshepherd.diagnosis.rules.base import RAY_LISTED_CAUSES, PatternRule, pat
from runshepherd.diagnosis.rules.family import exits, family, fixes_by_evidence, words
from runshepherd.diagnosis.rules.gpu_oom import MEMORY_WORDS, ON_A_DEVICE
from runshepherd.diagnosis.slurmstate import job_state_rule

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


# Ray's report of a worker that died without saying why lists the OOM killer first among its possible causes (then
# `ray stop --force`, then a native crash): the likeliest reading, weakly, never a proof
_RAY_LISTED = PatternRule(
    name="host_oom_ray_listed_causes",
    label="host_oom",
    origin="config",
    fix_kind="increase_memory",
    explanation="A Ray worker died without a reason of its own; Ray names the OOM killer as the first possible "
    "cause (then `ray stop --force`, then a crash in native code), so running out of memory is the likeliest "
    "reading, but it is not proven.",
    fix_description=_HOST_FIX,
    what_would_confirm=_CONFIRM_137,
    patterns=(pat(RAY_LISTED_CAUSES, 0.6),),
)


# Kills that come from running too much at once on one machine, not from a request set too low: Ray's memory
# monitor stops tasks when the node's RAM passes its threshold (Ray's own advice: fewer concurrent tasks), and
# data-loader workers each hold a copy of what they load (fewer workers). Maintainers answer these by using less.
_TOO_MUCH_AT_ONCE = re.compile(
    r"killed due to memory pressure|node running low on memory|exceeds the memory usage threshold"
    r"|DataLoader worker \(pid \d+\) is killed by signal: Killed"
)
# The kernel's global OOM killer (no memory limit was set for the job: ``constraint=CONSTRAINT_NONE``,
# ``global_oom``): the machine itself ran out, so there is no request to raise; a cgroup/scheduler limit
# (``CONSTRAINT_MEMCG``, OOMKilled, a job memory limit) is raised instead.
_MACHINE_RAN_OUT = re.compile(
    r"constraint=CONSTRAINT_NONE|\bglobal_oom\b"
    # a runtime's own allocator refusing on the host (no limit killed it): the batch or model is too big for the RAM
    r"|DefaultCPUAllocator: (?:can't allocate|not enough) memory|/device:CPU:\d+ by allocator cpu|\bTFRT_CPU_\d+"
    r"|posix_memalign\(&data, gAlignment, nbytes\) == 0\. 12 vs 0"
    # Windows' ERROR_COMMIT_LIMIT: the paging file (RAM + swap) could not back what was committed (each
    # data-loader worker loading torch's DLLs commits its own share): fewer workers, or a larger paging file
    r"|\[WinError 1455\]|The paging file is too small for this operation to complete"
    # the program's own allocation refused in-process (Python's MemoryError, NumPy's array allocator, fork or mmap
    # getting ENOMEM): what it tries to hold at once does not fit the machine, whatever a scheduler allows
    r"|^(?:\w+\.)*(?:_Array)?MemoryError\b|Unable to allocate [\d.]+ [GMKT]iB for an array|\[Errno 12\] Cannot allocate memory"
    # a data-loader worker that died without an exception: fewer workers (or a larger /dev/shm)
    r"|DataLoader worker \(pid\(s\) [\d, ]+\) exited unexpectedly"
)
_REDUCE = (
    "Use less memory at once: run fewer tasks or actors per node (Ray: request more memory or CPUs per task so "
    "fewer run together), fewer data-loader workers, or smaller batches/chunks; more RAM per node also works."
)


# a kill the line gives another sender or cause for: the job's owner or an administrator (LSF's TERM_OWNER "job killed
# by owner", TERM_ADMIN "job killed by root or an administrator", TERM_BUCKET_KILL "job killed with bkill -b"), a limit
# that is not memory (TERM_PROCESSLIMIT "job killed after reaching LSF process limit", TERM_THREADLIMIT,
# https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_admin/termination_reasons_lsf.html), a signal that is not SIGKILL
# ("killed by signal: Aborted"); not the kernel, its OOM killer, a cgroup, SIGKILL or a memory or swap limit
_KILLED_FOR_ANOTHER_REASON = (
    r"\bkilled (?:and \w+ )?(?:by|with|after|due to|because|for)\b(?![^.;]*\b(?:memory|mem|oom|out[- ]of[- ]memory|swap|rss"
    r"|cgroup|kernel|SIGKILL|signal:? (?:9|Killed))\b)"
)
# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): gpu_oom's memory words, said of no device
ROOT_WORDS = (
    words(
        MEMORY_WORDS, 0.6, "running out of memory (no GPU or other device named)", unless=ON_A_DEVICE + r"|\bquota\b"
    ),
    # the host's memory named as such (RAM, system or CPU memory), whatever device the line also names
    words(
        r"\b(?:insufficient|not enough|out of|ran out of|exceed\w*) (?:the )?(?:\w+ )?(?:RAM|host memory|system memory|CPU memory)\b"
        # a need larger than what the machine has ("requires more system memory (164.8 GiB) than is available")
        r"|\bmore (?:\w+ )?(?:RAM|host memory|system memory|CPU memory)\b(?:[^.]|\.\S){0,40}\bthan (?:is |are )?"
        r"(?:available|free)\b",
        0.6,
        "running out of the machine's memory (RAM)",
    ),
    # the kubelet's eviction message and node condition (kubernetes pkg/kubelet/eviction: "The node was low on
    # resource: memory.", MemoryPressure)
    words(r"\blow on resource:? memory\b|\bMemoryPressure\b", 0.64, "the node running low on memory"),
    # shared memory (/dev/shm) that ran out: PyTorch's DataLoader says so ("It is possible that dataloader's workers
    # are out of shared memory"), whatever signal killed the worker
    words(
        r"\b(?:out of|insufficient|not enough|no space (?:left )?(?:in|on)) (?:the )?shared memory\b|/dev/shm\b",
        0.63,
        "running out of shared memory (/dev/shm)",
    ),
    # the kernel's OOM killer ends a process with SIGKILL, which shells report as "Killed" (strsignal(SIGKILL)); a
    # C++ allocation that failed (std::bad_alloc); LSF's TERM_MEMLIMIT ("job killed after reaching LSF memory usage
    # limit"); a memory limit the job exceeded
    words(
        r"\bKilled\b|\bSIGKILL\b|\bsignal 9\b|\b(?:error|exit) ?code:? -9\b|\bbad_alloc\b|\bTERM_MEMLIMIT\b"
        r"|\bmemory (?:usage )?limit\b",
        0.56,
        "a process killed the way the kernel's out-of-memory killer kills (SIGKILL), or a memory limit",
        unless=f"{ON_A_DEVICE}|{_KILLED_FOR_ANOTHER_REASON}",
    ),
    # the same SIGKILL report in a Chinese locale (glibc's zh_CN strsignal: "已杀死")
    words(r"已杀死", 0.56, "a process killed the way the kernel's out-of-memory killer kills (SIGKILL)"),
)


FAMILY = family(
    "host_oom",
    origin="config",
    fix_kind="increase_memory",
    explanation=_HOST_EXPL,
    fix_description=_HOST_FIX,
    rules=(
        job_state_rule("host_oom", "config", "increase_memory", _HOST_EXPL, _HOST_FIX),
        _RAY_LISTED,
    ),
    patterns=(
        pat(r"OOMKill(?:ed|ing)", 0.96, flags=0),
        pat(r"oom[-_ ]kill event|\boom-kill:|\boom_reaper: reaped process", 0.96),
        # PBS/Torque's word for the kill at the job's memory limit
        pat(r"job killed: (?:p?mem|vmem) \d+\w* exceeded limit", 0.95),
        pat(r"Out of memory: Kill(?:ed)? process", 0.96),
        pat(r"Memory cgroup out of memory", 0.96),
        pat(r"\bOUT_OF_MEMORY\b|Reason=OutOfMemory|JobState=OUT_OF_MEMORY", 0.96, flags=0),
        # ... as sacct prints it in its default 10-character State column, cut with a '+'
        # (https://slurm.schedmd.com/sacct.html, --format: a field wider than its column is truncated)
        pat(r"\bOUT_OF_ME\+", 0.95, flags=0),
        # Ray's exceptions for a node out of memory (https://docs.ray.io/en/latest/ray-core/api/exceptions.html):
        # RayOutOfMemoryError (the memory monitor before Ray 2) and ObjectStoreFullError (the shared-memory object
        # store, sized from the node's RAM, is full of objects still in scope)
        pat(r"\bRayOutOfMemoryError\b", 0.9, flags=0),
        pat(r"\bObjectStoreFullError\b", 0.78, flags=0),
        # a job's memory allowance exceeded, however the watcher names it ("exceeded memory limit", a site's
        # smemwatch "This job has exceeded its memory quota and will be terminated", "exceeded the job's memory
        # allocation")
        pat(
            r"exceed(?:ed|s|ing)? (?:its |the |their |your |job'?s? |the job'?s )?(?:\w+ )?memory (?:limit|quota|allocation|request)",
            0.95,
        ),
        pat(r"\btasks? [\d,-]+: Out Of Memory", 0.95),  # srun (launch.c): "node1: tasks 0-3: Out Of Memory"
        pat(r"low on resource: memory|node had condition: \[MemoryPressure\]", 0.96),
        # HTCondor holds a job whose memory use passed its request
        pat(r"(?:put on hold|held)\b.{0,60}\b(?:memory usage|MemoryUsage|exceeded (?:request_)?memory)", 0.9),
        # YARN's container monitor (Spark, Flink, Hadoop jobs)
        pat(r"running beyond (?:physical|virtual) memory limits", 0.95),
        # Ray's memory monitor kills tasks when the node's RAM passes its threshold
        pat(
            r"killed due to the node running low on memory|exceeds the memory usage threshold"
            r"|killed due to memory pressure \(OOM\)",
            0.95,
        ),
        # ECS/AWS Batch's statusReason, HTCondor's hold for a job over its cgroup limit, Spark on YARN, Grid Engine
        # killing a job at its h_vmem/h_rss limit
        pat(
            r"Container killed due to memory usage|gone over (?:cgroup )?memory limit|held due to OOM event"
            r"|killed by YARN for exceeding (?:\w+ )?memory limits|exceeds job (?:hard|soft) limit \W?[hs]_(?:vmem|rss|data)\b",
            0.94,
        ),
        # the host allocator itself refusing: PyTorch's c10 CPU allocator (alloc_cpu.cpp, both its POSIX and Windows
        # wording), and a device runtime's out-of-memory said of the CPU device (TensorFlow's "… on /job:…/device:
        # CPU:0 by allocator cpu", XLA's TFRT_CPU_0): host RAM, whatever the runtime's usual GPU wording
        pat(r"DefaultCPUAllocator: (?:can't allocate|not enough) memory", 0.92),
        # ... and its older wording (torch <= 1.0's CPUAllocator.cpp: the posix_memalign check failing with 12, ENOMEM)
        pat(r"posix_memalign\(&data, gAlignment, nbytes\) == 0\. 12 vs 0", 0.92),
        pat(
            r"(?:\bOOM\b|out of memory|RESOURCE_EXHAUSTED).{0,300}(?:/device:CPU:\d+|by allocator cpu\b|\bTFRT_CPU_\d+)",
            0.97,
        ),
        # LSF's and the kernel's words for the same kill
        pat(r"TERM_MEMLIMIT|invoked oom-killer|killed by the cgroup out-of-memory handler", 0.95),
        pat(r"\bTERM_SWAP\b", 0.93, flags=0),  # LSF: job killed after reaching its swap usage limit
        pat(r"out of shared memory|shared memory \(shm\) limit|insufficient shared memory", 0.92),
        # a bus error in a data-loading or model-sharing process is /dev/shm running out (a container's
        # default is 64 MB)
        # (not macOS, where bash reports any SIGBUS as "Bus error: 10" and there is no /dev/shm: see segfault; nor a
        # metric named after a class, as in nuScenes' "bus error@trans" table)
        pat(r"\bBus error\b(?!: 10\b|@)", 0.87),
        pat(r"is killed by signal: Killed", 0.9),
        # torch's DataLoader when a worker vanished without raising (dataloader.py, _try_get_data): killed from
        # outside, the kernel's OOM killer or a full /dev/shm being the usual reasons; the cause is often printed
        # just before it (a bus error, a segfault), which then decides
        pat(r"DataLoader worker \(pid\(s\) [\d, ]+\) exited unexpectedly", 0.68),
        pat(r"^(?:\w+\.)*MemoryError\b(?!:\s*$)", 0.88, flags=0),
        # a MemoryError with an empty message is how PaddlePaddle raises its C++ ResourceExhaustedError, whichever
        # device ran out; its "Error Message Summary" below says which (a GPU's there is gpu_oom's and outweighs this)
        pat(r"^(?:\w+\.)*MemoryError:\s*$", 0.7, flags=0),
        pat(r"std::bad_alloc", 0.88),
        # the host-memory codes of the native compute APIs (OpenCL's CL_OUT_OF_HOST_MEMORY, Vulkan's
        # VK_ERROR_OUT_OF_HOST_MEMORY) and a native trainer's own fatal line in those words (ThunderSVM: "FATAL
        # [default] out of host memory", then its abort)
        pat(r"\b(?:CL|VK_ERROR)_OUT_OF_HOST_MEMORY\b|\bFATAL\b.{0,40}\bout of host memory\b", 0.86),
        pat(r"Cannot allocate memory|\[Errno 12\]", 0.85),
        pat(r"Unable to allocate [\d.]+ [GMKT]iB for an array", 0.88),
        # SIGKILL with no other cue: a shell's job report (also in its translations), srun's per-task report, a
        # signalled child. The OOM killer is the usual sender; a time limit or a cancel say so in their own words.
        # (tqdm and Keras leave no newline, so the shell's report can end a progress-bar line: "…]Killed", "loss: 2.13Killed")
        pat(r"(?:line \d+:\s+\d+ Killed|^\W*(?:Killed|已杀死|已殺死)\W*$|^Killed\s+\S|[\]\d]Killed\s*$)", 0.7),
        pat(r"\btasks? [\d,-]+: Killed\b|\bKilled by signal 9\b|\bsignal 9 \(SIGKILL\)|<Signals\.SIGKILL: 9>", 0.68),
        # the same SIGKILL in other emitters' words: bash's job table (``[1]+  Killed   python train.py``), zsh's
        # (``zsh: killed     python train.py``, ``[1]    2843557 killed     python``: zsh names signals in lower
        # case), macOS bash (``Killed: 9``: BSD strsignal plus the number), Go's os/exec (``signal: killed``, the
        # ProcessState of a child that got SIGKILL: ollama's runner), torch.multiprocessing.spawn's
        # ``process 0 terminated with signal SIGKILL``
        pat(
            # (log preparation strips the job number ``[1]``: the table's ``+``/pid column is left)
            r"^(?:\[\d+\])?(?:[+-]\s+|\s*\d{2,}\s+)[Kk]illed(?:\s{2,}\S|\s*$)|^zsh: killed\s|^\W*Killed: 9\W*$"
            r"|\bsignal: killed\b|\bterminated with signal SIGKILL\b",
            0.7,
            flags=0,
        ),
        # notebook hosts reporting the kernel's memory kill in their own words (Colab, Kaggle)
        pat(
            r"Your session crashed after using all available RAM|tried to allocate more memory than is available",
            0.92,
        ),
        # (PyTorch's DataLoader on Windows gives the same system error as a code: "Couldn't open shared file mapping:
        # <torch_…>, error code: <1455>", ERROR_COMMITMENT_LIMIT)
        pat(
            r"\[WinError 1455\]|The paging file is too small for this operation to complete"
            r"|Couldn't open shared file mapping: <[^>]*>, error code: <1455>",
            0.88,
        ),
        # the JVM's heap (Spark, Hadoop, Bazel) and the Go runtime's ("fatal error: runtime: out of memory")
        pat(
            r"java\.lang\.OutOfMemoryError: (?:Java heap space|GC overhead limit exceeded)|^fatal error: runtime: out of memory",
            0.88,
        ),
    ),
    # Dask's nanny restarts a worker past its memory budget and logs it as a warning
    warning_patterns=(pat(r"\bexceeded \d+% memory budget\b", 0.85),),
    applies=("failed", "running"),
    exit_codes=(
        exits(
            137,
            -9,
            265,
            strength=0.5,
            explanation="The task was killed from outside (exit code 137); running out of memory is the most likely "
            "reason, but it is not proven.",
            what_would_confirm=_CONFIRM_137,
        ),
        # SIGBUS (-7, 135): in a Linux data loader or NCCL's shared-memory transport, /dev/shm ran out (a
        # container's default is 64 MB); torchrun's "Signal 7 (SIGBUS) received by PID"
        exits(
            -7,
            135,
            strength=0.6,
            explanation="A process died of a bus error (SIGBUS): on Linux this is usually the shared-memory area "
            "(/dev/shm) running out, which data-loader workers and NCCL use; it is not proven by the exit code alone.",
            fix_description="Give the task a larger /dev/shm (`--shm-size` or `--ipc=host` for a container, a "
            "memory-backed emptyDir on Kubernetes), or use fewer data-loader workers.",
        ),
        exits(
            3004,
            strength=0.55,
            statuses=("FAILED_EVICTED",),
            explanation="The platform evicted the task; running out of memory is the most likely reason, but it is "
            "not proven.",
            what_would_confirm=_CONFIRM_137,
        ),
    ),
    fixer=fix_host_oom,
    fix_from_evidence=fixes_by_evidence(
        (_TOO_MUCH_AT_ONCE, "reduce_memory", _REDUCE), (_MACHINE_RAN_OUT, "reduce_memory", _REDUCE)
    ),
    root_words=ROOT_WORDS,
)
