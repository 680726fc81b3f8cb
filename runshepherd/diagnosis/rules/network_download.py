"""Downloads and remote services unreachable (DNS, timeouts, 5xx, hub outages, data transfer failures)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.rules.base import Context, FunctionRule, Signal, pat
from runshepherd.diagnosis.rules.family import exits, family

_EXPL = (
    "A download or a call to a remote service failed (the network, a name lookup or the remote server did "
    "not answer); this is usually transient or a missing network route, not a bug in the code."
)
_FIX = (
    "Retry; if it repeats, pre-download the model/data to storage and pass it as an input (or set "
    "HF_HUB_OFFLINE=1 with a local cache), and check that the cluster can reach that host."
)


_PIP_NOT_FOUND = re.compile(
    r"No matching distribution found for|Could not find a version that satisfies the requirement"
)
_PIP_UNREACHABLE = re.compile(
    r"Retrying \(Retry\(.*(?:NewConnectionError|Name or service not known|Temporary failure in name resolution"
    r"|ConnectTimeoutError|ReadTimeoutError|ProxyError|Network is unreachable|Connection refused)"
    r"|Could not fetch URL \S+: There was a problem confirming the ssl certificate"
)


def _pip_index_unreachable(ctx: Context) -> list[Signal]:
    """pip says "no matching distribution" when it never reached the index: its connection retries (printed as
    warnings) come first, so that is a network failure, not a missing package."""
    lines = ctx.log.lines
    missing = next((ln for ln in lines if ln.usable and _PIP_NOT_FOUND.search(ln.text)), None)
    if missing is None:
        return []
    retries = [ln for ln in lines[max(0, missing.index - 60) : missing.index] if _PIP_UNREACHABLE.search(ln.text)]
    if not retries:
        return []
    return [
        Signal(
            "network_download",
            "infra",
            0.9,
            retries[0].index,
            [retries[-1].raw.rstrip(), missing.raw.rstrip()],
            "pip could not reach the package index (its connection attempts failed), so it found no "
            "version of the package; the package itself is probably fine.",
            "retry",
            "Check that the task can reach the package index (or set a reachable mirror with "
            "PIP_INDEX_URL), bake the package into the image, or install from wheels shipped as an input.",
        )
    ]


FAMILY = family(
    "network_download",
    origin="infra",
    fix_kind="retry",
    explanation=_EXPL,
    fix_description=_FIX,
    patterns=(
        # pip's own verdict comes before the timeout it quotes (first matching pattern wins)
        pat(r"Could not install requirement \S+ because of (?:HTTP )?error", 0.9),
        pat(r"We couldn't connect to '?https?://", 0.9),
        pat(
            r"Temporary failure in name resolution|Name or service not known|Could not resolve host|getaddrinfo failed|nodename nor servname",
            0.88,
        ),
        pat(r"Max retries exceeded with url|MaxRetryError|NewConnectionError|ConnectTimeout|ReadTimeout", 0.84),
        pat(
            r"\bConnectionError\b|ConnectionRefusedError|RemoteDisconnected|ChunkedEncodingError|IncompleteRead|Connection broken",
            0.82,
        ),
        pat(
            r"LocalEntryNotFoundError|offline mode is enabled|cannot find the requested files in the local cache", 0.88
        ),
        pat(r"^socket\.(?:timeout|gaierror)\b|ConnectTimeoutError|ReadTimeoutError|NameResolutionError", 0.86),
        pat(
            r"URLError|HTTP Error 5\d\d|\b50[0234] Server Error|Service Unavailable|Bad Gateway|Gateway Time-?out",
            0.82,
        ),
        pat(r"SSLError|CERTIFICATE_VERIFY_FAILED|SSL: WRONG_VERSION", 0.8),
        # certificates as wget and curl word them; a service's rate limit (GitHub answers it with a 403)
        pat(r"cannot verify \S+ certificate|certificate (?:verify failed|has expired)|SSL certificate problem", 0.84),
        pat(r"\b(?:API )?rate limit exceeded\b|\b429 Too Many Requests\b", 0.9),
        # wget: each failed connection attempt, then its verdict
        pat(r"^\s*Giving up\.?\s*$|failed: (?:Connection timed out|Connection refused|No route to host)", 0.8),
        pat(r"Connection timed out|timed out while (?:downloading|connecting)|Read timed out", 0.78),
        pat(r"(?:download|fetch|transfer) (?:failed|error)|failed to (?:download|fetch)", 0.76),
        pat(r"EndpointConnectionError|Could not connect to the endpoint URL|Connect timeout on endpoint URL", 0.86),
        pat(
            r"dial tcp \S+: (?:i/o timeout|connect: connection refused|connect: no route to host)|Network is unreachable|No route to host",
            0.84,
        ),
        pat(r"Connection reset by peer", 0.62),
        pat(r"ClientPayloadError|Response payload is not completed|ServerDisconnectedError", 0.82),
    ),
    rules=(FunctionRule("pip_index_unreachable", _pip_index_unreachable),),
    # OSMO 2010-2012: input download, mount or output upload failed
    exit_codes=(
        exits(
            2010,
            2011,
            2012,
            strength=0.8,
            explanation="Moving data in or out of the task failed (input download, mount or output upload).",
        ),
    ),
    # a failed download is often the echo of an earlier error; and one retried in vain leaves a module or file missing
    echo=True,
    causes=("missing_dependency", "file_not_found"),
    exceptions=r"^(?:urllib3|requests|socket|http\.client|aiohttp|httpx|ssl)\.",
    frames=r"/(?:urllib3|requests|aiohttp|httpx)/|/socket\.py$|/http/client\.py$|/ssl\.py$",
)
