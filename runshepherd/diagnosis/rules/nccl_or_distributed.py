"""Multi-GPU / multi-node communication failures (NCCL, Gloo, c10d rendezvous, JAX coordination)."""

from __future__ import annotations

from runshepherd.diagnosis.rules.base import PatternRule, pat
from runshepherd.diagnosis.rules.family import family

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
            r"NCCL WARN .*(?:Broken pipe|Connection (?:closed|reset)|Call to \w+ .* failed|Failed to execute operation"
            r"|Duplicate GPU detected)",
            0.84,
        ),
        # NCCL's debug trace of an error being returned up the stack (``init.cc:867 -> 5``): 0 is success
        pat(r"NCCL INFO \S+\.(?:cc|h|cu):\d+ -> [1-9]\d*\s*$", 0.8),
    ),
    in_warnings=True,
)

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
        pat(r"Rendezvous(?:Timeout|Connection|Closed)Error|rendezvous .* (?:timed out|failed)", 0.86),
        pat(
            r"socketStartConnect|socketPollConnect|IBV_WC_RETRY_EXC_ERR|ibv_poll_cq|NET/IB\S* : .*(?:error|failed)",
            0.86,
        ),
        pat(r"Timed out initializing process group|Timed out waiting for (?:clients|the server)", 0.86),
        pat(r"gloo/transport/\S+\] (?:Connection closed|Connection reset|Timed out|Connection refused)", 0.86),
        pat(r"connectFullMesh|Gloo connectFullMesh failed|\[gloo\].*(?:Connection closed|Timed out)", 0.86),
        pat(r"c10d.*(?:Connection reset by peer|Broken pipe|timed out|Connection refused)", 0.87),
        pat(r"connect\(\) timed out\. Original timeout was", 0.86),
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
    ),
    applies=("failed", "running"),
    # a rank that crashed takes its peers' communicators down: their errors echo the first one
    echo=True,
    rules=(_TRANSPORT_WARN,),
    frames=r"torch/distributed/(?:elastic/)?rendezvous|c10d_rendezvous_backend|torch/distributed/distributed_c10d\.py$",
)
