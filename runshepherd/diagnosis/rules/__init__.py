"""The failure families, one module each; importing this package registers them (see ``family.py``).

The order below is the order the engine collects signals in (it only breaks exact ties).
"""

from runshepherd.diagnosis.rules import (  # noqa: F401  (imported for their registrations)
    cuda_driver,
    device_assert,
    disk_full,
    file_not_found,
    gpu_oom,
    host_oom,
    image_pull,
    missing_dependency,
    nan_loss,
    nccl_or_distributed,
    network_download,
    output_missing,
    permission_or_auth,
    preempted,
    segfault,
    timeout,
    unknown,
    unschedulable,
    user_code_error,
    validation_error,
)
from runshepherd.diagnosis.rules.base import REGISTRY, Context, PatternRule, Signal
from runshepherd.diagnosis.rules.family import (
    FAMILIES,
    Family,
    caused_by,
    echo_labels,
    echoes_by_evidence,
    fix_for,
    fixer_for,
    infra_labels,
    labels_for,
    recovered,
    yield_to_details,
)

__all__ = [
    "FAMILIES",
    "REGISTRY",
    "Context",
    "Family",
    "PatternRule",
    "Signal",
    "caused_by",
    "echo_labels",
    "echoes_by_evidence",
    "fix_for",
    "fixer_for",
    "infra_labels",
    "labels_for",
    "recovered",
    "yield_to_details",
]
