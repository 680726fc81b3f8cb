"""Native crashes: segmentation faults, aborts, bus errors, heap corruption (and exits 139/134)."""

from __future__ import annotations

from runshepherd.diagnosis.rules.base import pat
from runshepherd.diagnosis.rules.family import exits, family

_SEG_EXPL = (
    "The program crashed inside native code (a segmentation fault or abort), not in your Python: "
    "often a library built for a different CUDA/driver version, a broken C extension, or a hardware fault."
)
_SEG_FIX = (
    "Install matching versions of the native libraries (pin torch and the compiled extensions to versions built "
    "for the same CUDA and driver, or rebuild the image); resubmit once in case it was transient, and report the "
    "node name if it repeats on the same machine."
)

FAMILY = family(
    "segfault",
    origin="infra",
    # maintainers mostly answer a segfault in a Python ML stack with "install/pin matching versions" of the
    # native libraries (torch, its CUDA wheels, a compiled extension)
    fix_kind="add_dependency",
    explanation=_SEG_EXPL,
    fix_description=_SEG_FIX,
    patterns=(
        pat(r"Segmentation fault|SIGSEGV|signal 11\b|Signal 11 \(SIGSEGV\)", 0.9),
        pat(r"Fatal Python error: (?:Segmentation fault|Aborted|Bus error|Illegal instruction)", 0.9),
        pat(r"is killed by signal: (?:Segmentation fault|Aborted)", 0.9),
        pat(r"Illegal instruction|core dumped", 0.86),
        pat(
            r"double free or corruption|free\(\): invalid pointer|malloc\(\): corrupted|stack smashing detected",
            0.86,
        ),
        pat(r"terminate called after throwing an instance of", 0.7),
        pat(r"SIGABRT|Signal 6 \(SIGABRT\)", 0.7),
    ),
    exit_codes=(exits(139, -11, 134, -6, strength=0.6),),
)
