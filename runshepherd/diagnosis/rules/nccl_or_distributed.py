"""Multi-GPU / multi-node communication failures (NCCL, Gloo, c10d rendezvous, JAX coordination)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.prefilter import Gated
from runshepherd.diagnosis.rules.base import Context, FunctionRule, PatternRule, Signal, pat
from runshepherd.diagnosis.rules.family import cause_detail, deepest_frame, family, fixes_by_evidence, words

_EXPL = (
    "The GPUs or machines of this job stopped talking to each other (the communication library reported an error "
    "or a collective operation timed out)."
)
_FIX = (
    "Resubmit once; if it repeats, set NCCL_DEBUG=INFO (and NCCL_SOCKET_IFNAME to the right network interface) in "
    "the environment, keep all tasks in one fast-network domain, and check that every rank runs the same code and "
    "data sizes."
)
# NCCL reports a broken connection as a WARN line before the collective fails
_TRANSPORT_WARN = PatternRule(
    name="nccl_transport_warn",
    label="nccl_or_distributed",
    origin="infra",
    fix_kind="retry",
    explanation=_EXPL,
    fix_description=_FIX,
    patterns=(
        pat(
            # NCCL's own prefix ("host:pid:tid [dev] file:line NCCL WARN"; NCCL 2 before 2.4 printed no "NCCL")
            r"(?:NCCL|\[\d+\] \S+\.(?:cc|h|cu):\d+) WARN .*(?:Broken pipe|Connection (?:closed|reset)|Call to \w+ .* failed|Failed to execute operation"
            r"|Duplicate GPU detected|Got completion from peer \S+ with (?:error|status)|Message truncated"
            r"|Error encountered progressing operation"
            # the socket transport's connect to a peer failing for good (misc/socket.cc; NCCL < 2.12 in
            # include/socket.h: "Connect to fe80::…%6<57335> failed : Network is unreachable"; "… retrying" lines are
            # not)
            r"|(?:socket(?:Start|Poll)Connect: )?Connect to \S+ failed(?!.*\bretrying\b))",
            0.84,
        ),
        # NCCL's debug trace of an error being returned up the stack (``init.cc:867 -> 5``): 0 is success
        pat(r"(?:NCCL|\[\d+\]) INFO \S+\.(?:cc|h|cu):\d+ -> [1-9]\d*(?: \[\w+\])?\s*$", 0.8),
    ),
    in_warnings=True,
)

# DistributedDataParallel finding, at the next step, that the last backward left some parameters without gradients
# (torch/csrc/distributed/c10d/reducer.cpp: "Expected to have finished reduction in the prior iteration before
# starting a new one. This error indicates that your module has parameters that were not used in producing loss"):
# the distributed wrapper's own check, fixed in how the model is wrapped (find_unused_parameters=True) or in a model
# whose every trainable parameter reaches the loss
_UNUSED_PARAMETERS = PatternRule(
    name="ddp_unused_parameters",
    label="nccl_or_distributed",
    origin="user",
    fix_kind="fix_code",
    explanation="DistributedDataParallel stopped the run: some trainable parameters got no gradient in the last "
    "step, so its gradient reduction never finished (a layer that is trainable but not used in the loss).",
    fix_description="Pass find_unused_parameters=True to DistributedDataParallel (Lightning: strategy="
    '"ddp_find_unused_parameters_true"), or freeze or remove the parameters the loss never uses, then rerun.',
    patterns=(pat(r"Expected to have finished reduction in the prior iteration before starting a new one", 0.8),),
)

# a rank of a distributed launch asking for a GPU the machine does not have ("CUDA error: invalid device ordinal" from
# torch.cuda.set_device(local_rank), as many lines as extra ranks, often interleaved: "RuntimeErrorRuntimeError:"):
# more processes were launched than GPUs are visible. A single process asking for a missing GPU is the code's
_ORDINAL = re.compile(r"invalid device ordinal", re.IGNORECASE)
_RANKS = re.compile(
    r"set_device\(\s*(?:args\.|opt\.|self\.)?local_rank|\bLOCAL_RANK\b|--nproc_per_node|\btorchrun\b"
    r"|torch\.distributed\.(?:launch|run)\b|^(?:\w*Error){2,}:",
)
# (the ordinal by its literal gate on every line: most logs hold no such line, and then the launch is never looked for)
_ORDINAL_G = Gated.of(_ORDINAL)


def _more_ranks_than_gpus(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    bad = next((ln for ln in lines if _ORDINAL_G.search(ln.text, ln.folded)), None)
    if bad is None or not any(_RANKS.search(ln.text) for ln in lines):
        return []
    return [
        Signal(
            "nccl_or_distributed",
            "user",
            0.76,
            bad.index,
            [bad.raw.rstrip()],
            "A rank of the distributed launch asked for a GPU number this machine does not have: more processes were "
            "launched than GPUs are visible to the job.",
            "fix_code",
            "Launch as many processes per node as the job has GPUs (--nproc_per_node / --gpus; check "
            "CUDA_VISIBLE_DEVICES), then rerun.",
        )
    ]


# NCCL's result codes say whose the failure is (nccl.h: 1 unhandled CUDA error, 2 system error, 3 internal,
# 4 invalid argument, 5 invalid usage, 6 remote error). Misuse (two ranks on one GPU, a bad argument) and a CUDA
# failure inside NCCL (peer access the GPUs do not support) are fixed in the code or its settings; a system
# error in the shared-memory transport is a /dev/shm too small for the job; network and timeouts are retried.
# A stack dump taken of a hung job (py-spy dump: ``Thread 280064 (active): "MainThread"`` then ``    barrier
# (torch/distributed/distributed_c10d.py:2784)``; Python's faulthandler: ``Thread 0x… (most recent call first):`` then
# ``  File ".../distributed_c10d.py", line 2784 in barrier``) whose innermost frame is a torch.distributed collective:
# that rank is waiting for peers that never joined the collective
_THREAD_HEAD = re.compile(
    r"^\s*(?:Current )?Thread (?:0x[0-9a-fA-F]+|\d+) \((?:active|idle|most recent call first)[^)]*\)"
)
_COLLECTIVE_FRAME = re.compile(
    r"^\s*(?:(?P<f>\w+) \(\S*torch/distributed/distributed_c10d\.py:\d+\)"
    r'|File "[^"]*torch/distributed/distributed_c10d\.py", line \d+,? in (?P<g>\w+))'
)
_HANG_EXPL = (
    "The job hung in a collective operation: a stack dump shows a rank waiting inside torch.distributed ({fn}) for "
    "peers that never joined it (a rank that died, stalled on I/O or took another code path)."
)


def _stuck_in_collective(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for ln in lines:
        if "thread" not in ln.folded or not _THREAD_HEAD.match(ln.clean):
            continue
        nxt = next((n for n in lines[ln.index + 1 : ln.index + 3] if n.raw.strip()), None)
        m = _COLLECTIVE_FRAME.match(nxt.clean) if nxt is not None else None
        if m is None:
            continue
        fn = m.group("f") or m.group("g")
        ev = [ln.raw.rstrip(), nxt.raw.rstrip()] if nxt is not None else [ln.raw.rstrip()]
        return [Signal("nccl_or_distributed", "infra", 0.8, ln.index, ev, _HANG_EXPL.format(fn=fn), "retry", _FIX)]
    return []


# a variable only a distributed launcher sets (torchrun, torch.distributed.launch, mpirun's wrappers), read from
# os.environ by a script started without it
_LAUNCHER_VAR_MISSING = (
    r"^KeyError: '(?:LOCAL_RANK|RANK|WORLD_SIZE|LOCAL_WORLD_SIZE|MASTER_ADDR|MASTER_PORT|GROUP_RANK)'"
)
_SHM = re.compile(r"NCCL (?:INFO|WARN) \S*shm\.(?:cc|h):\d+|/dev/shm|shared memory segment|\bshm_open\b|Bus error")
_MISUSE = re.compile(
    r"invalid usage|ncclInvalid(?:Usage|Argument)|invalid argument \(run with NCCL|Duplicate GPU detected"
    # ranks that disagree about a collective's size (NCCL's socket transport, gloo's pair.cc)
    r"|NCCL WARN .*Message truncated|op\.preamble\.length <= op\.nbytes"
    r"|NCCL INFO \S+\.(?:cc|h|cu):\d+ -> [45]\s*$"
    r"|unhandled cuda error|ncclUnhandledCudaError|NCCL INFO \S+\.(?:cc|h|cu):\d+ -> 1\s*$"
    rf"|{_LAUNCHER_VAR_MISSING}",
    re.MULTILINE,
)
# the job's own network settings: a rendezvous port another process holds, an interface that is not there
_SETTINGS = re.compile(
    r"Distributed package doesn't have NCCL built in|without libuv support|only supported with GPUs, no GPUs found"
    r"|Address already in use|EADDRINUSE|no socket interface found|NCCL_SOCKET_IFNAME.{0,80}(?:not found|no interface)"
    r"|Bootstrap : no socket interface|is neither AF_INET\(\d+\) nor AF_INET6"
)
_SETTINGS_FIX = (
    "Fix the job's network settings: pick a free rendezvous port (MASTER_PORT / --master_port; another job holds "
    "the default), use the gloo backend where PyTorch has no NCCL (Windows, macOS, CPU-only) and set USE_LIBUV=0 "
    "where it was built without libuv, and set NCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) to an interface the nodes really have."
)
_SHM_FIX = (
    "Give the job a larger shared-memory area (/dev/shm): `--shm-size` for a container, a memory-backed emptyDir "
    "on Kubernetes, or more memory where /dev/shm is sized from it; NCCL_SHM_DISABLE=1 is a slower way around it."
)
_MISUSE_FIX = (
    "Fix how the ranks use NCCL: one GPU per rank (set the device from LOCAL_RANK before creating the process "
    "group, and do not start more ranks than GPUs), and, if the GPUs cannot reach each other directly, set "
    "NCCL_P2P_DISABLE=1 for every worker process."
)


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): the names of the communication libraries and
# torch.distributed's parts (NCCL, Gloo, MPI, c10d, rendezvous, TCPStore, process groups, collectives)
ROOT_WORDS = (
    words(
        r"\bNCCL\b|\bgloo\b|\bc10d\b|\bMPI\b|\bhorovod\b|\brendezvous\b|\bprocess ?group\b|\bcollective\b"
        r"|\ball_?reduce\b|\ball_?gather\b|\breduce_?scatter\b|\bbarrier\b|\btorch\.distributed\b"
        r"|\bMASTER_(?:ADDR|PORT)\b|\bworld[_ ]size\b|\branks?\b|\bTCPStore\b|\bDist(?:Backend|Store|Network)Error\b"
        r"|\bheartbeat\b|\bwatchdog\b|\bbroadcast\b",
        0.62,
        "the communication between the job's processes (NCCL, Gloo, MPI, torch.distributed)",
        # (torchrun's elastic agent reporting that a worker exited names torch.distributed, not a communication fault)
        unless=r"\bshapes?\b|broadcast together|\belastic\b|ChildFailedError",
    ),
    # strerror(EADDRINUSE): in a multi-process job, the rendezvous port (MASTER_PORT) is taken
    words(r"\baddress already in use\b|\bEADDRINUSE\b", 0.6, "the port the job's processes meet on being taken"),
)


# the resolver's or the socket's refusal raised inside torch.distributed's rendezvous (TCPStore, init_process_group):
# a rank could not reach the master (MASTER_ADDR not resolvable yet, the master pod not up), not a download
_SOCKET_REFUSAL = re.compile(
    r"Name or service not known|Temporary failure in name resolution|host not found|Connection refused"
    r"|No route to host|Network is unreachable|Connection timed out"
)
_RENDEZVOUS_FRAME = re.compile(
    r'File "[^"]*torch/distributed/(?:rendezvous|elastic/rendezvous|distributed_c10d|.*store)[^"]*\.py"'
)
_RENDEZVOUS_EXPL = (
    "A rank could not reach the rendezvous master (its address did not resolve or refused the connection) while "
    "torch.distributed set up the process group, so the job stopped before training."
)
_RENDEZVOUS_FIX = (
    "Check MASTER_ADDR/MASTER_PORT and that the master rank (pod or node) is up and reachable from the workers "
    "before they start; then resubmit."
)


def _rendezvous_unreachable(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for idx in ctx.log.exceptions:
        ln = lines[idx]
        frame = deepest_frame(lines, idx) if _SOCKET_REFUSAL.search(ln.text) else None
        if frame is not None and _RENDEZVOUS_FRAME.search(frame.text.replace("\\", "/")):
            ev = [ln.raw.rstrip(), frame.raw.rstrip()]
            return [Signal("nccl_or_distributed", "infra", 0.9, idx, ev, _RENDEZVOUS_EXPL, "retry", _RENDEZVOUS_FIX)]
    return []


FAMILY = family(
    "nccl_or_distributed",
    origin="infra",
    fix_kind="retry",
    explanation=_EXPL,
    fix_description=_FIX,
    patterns=(
        pat(r"NCCL error|NCCL Error \d", 0.86),
        pat(r"nccl(?:Internal|System|Remote|UnhandledCuda|InvalidUsage|InvalidArgument)Error", 0.86),
        pat(r"Watchdog caught collective operation timeout", 0.86),
        pat(r"collective operation timeout|Collective .* timed out", 0.84),
        pat(r"DistBackendError|DistNetworkError|DistStoreError", 0.86),
        # the InfiniBand/RoCE fabric dropping a peer: libibverbs' work-completion status strings (rdma-core
        # libibverbs/verbs.c ibv_wc_status_str: IBV_WC_RETRY_EXC_ERR "transport retry counter exceeded",
        # IBV_WC_RNR_RETRY_EXC_ERR "RNR retry counter exceeded"), as NCCL, UCX and MPI quote them; and UCX's own
        # error-level log line for a peer it cannot reach
        pat(
            r"transport retry count(?:er)? exceeded|\bRNR retry counter exceeded|\bIBV_WC_(?:RNR_)?RETRY_EXC_ERR\b"
            r"|\bUCX\s+ERROR\b.*(?:unreachable|timed out|Connection (?:reset|refused)|Transport retry)",
            0.8,
        ),
        # NCCL's result strings (ncclGetErrorString, https://github.com/NVIDIA/nccl/blob/master/src/init.cc) as other
        # runtimes quote them after the failed call: XLA's "NCCL operation ncclCommInitRank(…) failed: unhandled cuda
        # error", cupy/horovod "NCCL_ERROR_… : unhandled system error", nccl-tests' NCCLCHECK ("Test NCCL failure
        # common.cu:777 'unhandled system error'")
        pat(
            r"\bNCCL\b.{0,240}\b(?:failed|failure|error)\b.{0,40}(?:unhandled (?:cuda|system) error|internal error"
            r"|invalid (?:argument|usage)|remote process exited or there was a network error)",
            0.85,
        ),
        # the rendezvous port taken by another job or a stale process (EADDRINUSE, errno 98 on Linux:
        # https://docs.python.org/3/library/errno.html); weaker than the launcher's own words for it
        # and an address this host does not have (EADDRNOTAVAIL, errno 99: MASTER_ADDR or the interface is wrong)
        pat(
            r"\[Errno 9[89]\] (?:Address already in use|Cannot assign requested address)|\bEADDR(?:INUSE|NOTAVAIL)\b",
            0.72,
        ),
        pat(r"Rendezvous(?:Timeout|Connection|Closed|State)Error|rendezvous .* (?:timed out|failed)", 0.86),
        pat(
            r"socketStartConnect|socketPollConnect|IBV_WC_RETRY_EXC_ERR|ibv_poll_cq|NET/IB\S* : .*(?:error|failed)",
            0.86,
        ),
        pat(r"Timed out initializing process group|Timed out waiting for (?:clients|the server)", 0.86),
        pat(r"gloo/transport/\S+\] (?:Connection closed|Connection reset|Timed out|Connection refused)", 0.86),
        pat(r"connectFullMesh|Gloo connectFullMesh failed|\[gloo\].*(?:Connection closed|Timed out)", 0.86),
        pat(r"c10d.*(?:Connection reset by peer|Broken pipe|timed out|Connection refused)", 0.87),
        pat(r"connect\(\) timed out\. Original timeout was", 0.86),
        # a C++ exception of the communication libraries that ended the process: its type's namespace names the
        # library (``terminate called after throwing an instance of 'gloo::IoException'``, ``'c10d::DistBackendError'``,
        # ``'gloo::EnforceNotMet'``); the abort that follows is its consequence
        pat(r"throwing an instance of '(?:gloo|c10d|nccl|horovod)::\w+'|\bgloo::(?:IoException|EnforceNotMet)\b", 0.87),
        pat(r"TCPStore.*(?:Connection refused|timed out|failed)|The server socket has failed to listen", 0.87),
        pat(
            r"(?:coordination service|CoordinationService).*(?:heartbeat|DEADLINE_EXCEEDED|UNAVAILABLE|barrier)",
            0.86,
        ),
        pat(r"Barrier timed out|barrier .* DEADLINE_EXCEEDED", 0.85),
        pat(r"ProcessGroupNCCL.*(?:exception|error|Timeout)", 0.84),
        pat(r"ncclCommInitRank failed|NCCL communicator .* (?:failed|error)", 0.84),
        pat(r"Some NCCL operations have failed or timed out", 0.84),
        pat(r"NCCL communicator was aborted|communicator (?:was )?aborted on rank", 0.5, secondary=True),
        # c10d's socket layer (torch/csrc/distributed/c10d/socket.cpp, TCPStore): a rank that cannot reach the
        # store on the master, whatever exception type the version wraps it in
        pat(
            r"The client socket has (?:timed out after|failed to connect to)|The server socket has failed to (?:bind|listen)"
            r"|TCP client failed to connect/validate to host|^(?:\w+\.)*\w*Error: (?:Socket Timeout|Stop_waiting response is expected)\s*$",
            0.86,
        ),
        # ProcessGroupNCCL's watchdog and its heartbeat monitor: a collective never completed on some rank
        pat(r"Heartbeat monitor timed out!|ProcessGroupNCCL's watchdog got stuck for", 0.84),
        # JAX/XLA's coordination service: a task could not reach the coordinator, or the coordinator lost a task
        pat(
            r"Failed to (?:connect to|send RPC to) (?:the )?coordination service|coordinator detected missing heartbeats",
            0.86,
        ),
        # Horovod: an allreduce failed on this rank, or another rank's failure shut Horovod down
        pat(r"HorovodInternalError|Horovod has been shut down", 0.84),
        # a backend this PyTorch build lacks (Windows and macOS wheels have no NCCL; Windows builds since 2.4 start
        # the TCPStore with libuv unless USE_LIBUV=0): fixed in the job's settings (gloo, USE_LIBUV=0)
        pat(
            r"Distributed package doesn't have NCCL built in|use_libuv was requested but PyTorch was build without libuv"
            r"|ProcessGroupNCCL is only supported with GPUs, no GPUs found",
            0.86,
        ),
        # c10d's TCPStore of older releases raised the bind failure of the rendezvous port bare
        pat(r"^RuntimeError: Address already in use\s*$", 0.82, flags=0),
        pat(rf"{_LAUNCHER_VAR_MISSING}\s*$", 0.8, flags=0),
        # Open MPI / PRRTE: the launcher lost a remote daemon, or two processes could not connect over TCP
        pat(
            r"(?:ORTE|PRTE|PRRTE) (?:has lost communication with a remote daemon|was unable to reliably start)"
            r"|A process or daemon was unable to complete a TCP connection",
            0.82,
        ),
    ),
    applies=("failed", "running"),
    # a rank that crashed takes its peers' communicators down: their errors echo the first one
    echo=True,
    rules=(
        _TRANSPORT_WARN,
        _UNUSED_PARAMETERS,
        FunctionRule("more_ranks_than_gpus", _more_ranks_than_gpus),
        FunctionRule("stuck_in_collective", _stuck_in_collective),
        FunctionRule("rendezvous_unreachable", _rendezvous_unreachable),
    ),
    frames=r"torch/distributed/(?:elastic/)?rendezvous|c10d_rendezvous_backend|torch/distributed/distributed_c10d\.py$",
    # a traceback that ends (or is cut off) inside a call of the NCCL/RCCL library's own API through a binding
    # (vLLM's pynccl_wrapper.py "in ncclCommInitRank", CuPy's "in ncclAllReduce"): NCCL's C function names
    frame_functions=r"nccl[A-Z]\w*",
    fix_from_evidence=fixes_by_evidence(
        (_SHM, "change_resources_or_wait", _SHM_FIX),
        (_MISUSE, "fix_code", _MISUSE_FIX),
        (_SETTINGS, "fix_code", _SETTINGS_FIX),
    ),
    root_words=ROOT_WORDS,
    # PyTorch ends an NCCL error with NCCL's own account of it, "\nLast error:\n" + ncclGetLastError()
    # (torch/csrc/distributed/c10d/NCCLUtils.cpp, getNcclErrorDetailStr): when an infrastructure family reads that
    # detail ("nvmlInit_v2() failed: Driver/library version mismatch"), the generic NCCL error just above it
    # ("ncclSystemError: … or external library call failed") is its echo. A network detail is this family's own, and
    # a kernel's illegal memory access there stays NCCL's (user-origin readings are not followed), as the holdout
    # labels it.
    # Older NCCL says it only in its debug lines ("host:pid:tid [7] misc/nvmlwrap.cc:115 NCCL WARN nvmlInit() failed:
    # Driver/library version mismatch"), before the same generic error: read the same way.
    # NCCL's own allocation failing there ("Failed to CUDA calloc 6291456 bytes") is the GPU's memory, followed though
    # gpu_oom is the user's to fix.
    detail=cause_detail(r"^\s*Last error:\s*$", origins=("infra",), account=r"\bNCCL WARN\b", labels=("gpu_oom",)),
)
