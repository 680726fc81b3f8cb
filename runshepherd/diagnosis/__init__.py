"""Deterministic diagnosis: label a failure with evidence, explain it plainly, and propose a minimal spec fix.

Public API: :func:`diagnose`, :func:`diagnose_log_text`, :func:`propose_fix`, :func:`explain_pending` and the
models :class:`Diagnosis`, :class:`DiagnosisInput`, :class:`Fix`.
"""

from runshepherd.diagnosis.engine import diagnose, diagnose_log_text
from runshepherd.diagnosis.models import (
    FIX_KINDS,
    LABELS,
    Diagnosis,
    DiagnosisInput,
    Fix,
    FixKind,
    Label,
    MetricsHints,
    Origin,
    TaskRecord,
)
from runshepherd.diagnosis.pending import PendingExplanation, PendingReason, ResourceRequest, explain_pending

__all__ = [
    "FIX_KINDS",
    "LABELS",
    "Diagnosis",
    "DiagnosisInput",
    "Fix",
    "FixKind",
    "Label",
    "MetricsHints",
    "Origin",
    "PendingExplanation",
    "PendingReason",
    "ResourceRequest",
    "TaskRecord",
    "diagnose",
    "diagnose_log_text",
    "explain_pending",
]
