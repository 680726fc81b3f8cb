"""Which cue scanner a read uses: Hyperscan where it is installed (x86), else numpy.

The choice is made once at import (:data:`DEFAULT_KIND`, built as :data:`DEFAULT_SCANNER`) and can be forced per read with
``LogConfig.cue_scanner`` or for a whole process with ``RUNSHEPHERD_LOG_SCANNER=numpy|hyperscan|auto`` (the
benchmark times both that way). Forcing ``hyperscan`` where it cannot be imported is an error, not a silent
fallback, so a timing row is never labelled with the wrong engine. Scanners are built once per kind.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Literal, get_args

from runshepherd.config import LOG_SCANNER_VAR as ENV_VAR
from runshepherd.logs.config import ScannerKind
from runshepherd.logs.scan import CueScanner

try:
    from runshepherd.logs.scan_hyperscan import HyperscanCueScanner
except ImportError as missing:  # not installed (e.g. ARM): numpy does the same job, slower
    HYPERSCAN_MISSING: str | None = f"hyperscan cannot be imported ({missing})"
else:
    HYPERSCAN_MISSING = None

DEFAULT_KIND: Literal["numpy", "hyperscan"] = "numpy" if HYPERSCAN_MISSING else "hyperscan"


def available_kinds() -> list[Literal["numpy", "hyperscan"]]:
    """The scanner kinds this machine can run."""
    return ["numpy"] if HYPERSCAN_MISSING else ["numpy", "hyperscan"]


def resolve_kind(kind: ScannerKind | None = None) -> Literal["numpy", "hyperscan"]:
    """The concrete kind: ``kind`` if given, else the environment variable, else the import-time default."""
    chosen = kind if kind is not None else os.environ.get(ENV_VAR, "auto").strip().lower() or "auto"
    if chosen not in get_args(ScannerKind):
        raise ValueError(f"{ENV_VAR}={chosen!r}: expected one of {', '.join(get_args(ScannerKind))}")
    if chosen == "auto":
        return DEFAULT_KIND
    if chosen == "hyperscan" and HYPERSCAN_MISSING:
        raise RuntimeError(f"the hyperscan cue scanner was asked for but {HYPERSCAN_MISSING}")
    return "hyperscan" if chosen == "hyperscan" else "numpy"


@cache
def _build(kind: Literal["numpy", "hyperscan"]) -> CueScanner:
    if kind == "hyperscan":
        if HYPERSCAN_MISSING:
            raise RuntimeError(f"the hyperscan cue scanner was asked for but {HYPERSCAN_MISSING}")
        return HyperscanCueScanner()
    from runshepherd.logs.scan_numpy import NumpyCueScanner  # numpy: ~60 ms of every CLI process that reads a log

    return NumpyCueScanner()


def scanner_for(kind: ScannerKind | None = None) -> CueScanner:
    """The shared scanner of ``kind`` (see :func:`resolve_kind`), built on first use."""
    return _build(resolve_kind(kind))


DEFAULT_SCANNER: CueScanner = _build(DEFAULT_KIND)
"""Built at import (a few ms: Hyperscan compiles its database), so no read pays for it."""
