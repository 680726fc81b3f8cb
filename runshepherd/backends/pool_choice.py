"""Pick a pool for "an H100 pool", "a free pool" or ``--pool auto[:GPU_TYPE]``, and say which and why.

The rule is the OSMO skill's: a pool's GPU type is read from its name (else platform, else description) with the
longest match (L40S not L40, GB200 not B200); what a NORMAL job can use now is min(quota free, physically free).
Among ONLINE pools of the type, the one whose free GPUs cover the request with the most to spare wins. When none
fits, the fallback is the pool with the most free GPUs (then the most physically free): the shortest wait we can
estimate from what the scheduler reports — said as such, since no scheduler here reports a wait time.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from runshepherd import wording
from runshepherd.backends.base import Pool
from runshepherd.errors import UsageError

_GPU = re.compile(r"[A-Z]+\d+[A-Z]*")
# GPU types a request may name (matched case-insensitively as whole words; plural "H100s" too).
KNOWN_TYPES = ("GB200", "GB300", "B200", "B300", "H200", "H100", "H20", "A100", "A10G", "A10", "L40S", "L40", "L4")
_REQUEST_TYPE = re.compile(r"\b(" + "|".join(KNOWN_TYPES) + r")s?\b", re.IGNORECASE)


class PoolChoice(BaseModel):
    pool: str
    gpu_type: str | None
    fits: bool
    reason: str


def pool_gpu_type(pool: Pool) -> str | None:
    for text in (pool.name, pool.default_platform or "", pool.description):
        found = _GPU.findall(text.upper().replace("-", " ").replace("_", " "))
        if found:
            return max(found, key=len)
    return None


def requested_gpu_type(text: str) -> str | None:
    """The GPU type a sentence names ("on H100s", "an H100 pool"), upper-cased, or None."""
    m = _REQUEST_TYPE.search(text or "")
    return m.group(1).upper() if m else None


def parse_auto(pool: str | None) -> tuple[bool, str | None]:
    """``auto`` / ``auto:H100`` → (True, "H100"|None); anything else → (False, None)."""
    if pool is None:
        return False, None
    head, colon, tail = pool.partition(":")
    if head.strip().lower() != "auto":
        return False, None
    if colon and not tail.strip():  # a type left out after the colon is a typo, not "any GPU type"
        raise UsageError(f"pool {pool!r}: name the GPU type after the colon (auto:H100), or use auto for any pool")
    return True, (tail.strip().upper() or None)


def choose_pool(pools: list[Pool], gpu_type: str | None, gpus: int) -> PoolChoice:
    online = [p for p in pools if p.status == "ONLINE"]
    of_type = [p for p in online if gpu_type is None or pool_gpu_type(p) == gpu_type.upper()]
    what = f"{gpu_type} pool" if gpu_type else "pool"
    if not of_type:
        known = ", ".join(f"{p.name} ({pool_gpu_type(p) or 'no GPU type'}, {p.status})" for p in pools) or "none"
        raise UsageError(f"no ONLINE {what} to choose from; pools: {known}")

    def free(p: Pool) -> int:
        return p.effective_gpu_free() or 0

    fitting = [p for p in of_type if free(p) >= gpus]
    ranked = sorted(fitting or of_type, key=lambda p: (free(p), p.total_free or 0, p.name), reverse=True)
    best = ranked[0]
    need = f"{gpus} GPU{'s' if gpus != 1 else ''}"
    have = f"{wording.count(free(best), 'GPU')} free now (min of quota free {wording.known(best.quota_free)}, physically free {wording.known(best.total_free)})"
    others = [f"{p.name} {free(p)} free" for p in of_type if p is not best]
    tail = f"; other {what}s: {', '.join(others)}" if others else ""
    if fitting:
        reason = f"{best.name}: {have}, enough for the {need} requested{tail}"
    else:
        reason = (
            f"no {what} has {need} free now; {best.name} has the most ({have}) — the shortest wait that can be "
            f"estimated from what the scheduler reports, not a measured wait time{tail}"
        )
        if (best.quota_free or 0) < gpus <= (best.total_free or 0):
            reason += "; its quota is the limit, so `--priority LOW` could borrow idle GPUs (and be preempted)"
    return PoolChoice(pool=best.name, gpu_type=gpu_type, fits=bool(fitting), reason=reason)
