"""Deterministic diagnosis: label a failure with evidence, explain it plainly, and propose a minimal spec fix.

Public API: :func:`diagnose`, :func:`diagnose_log_text`, :func:`propose_fix`, :func:`explain_pending` and the
models :class:`Diagnosis`, :class:`DiagnosisInput`, :class:`Fix`.

They load on first use: the rules compile hundreds of regexes when imported (~0.15 s), which every command that
builds the session graph (`run`, `resume`, `sessions`, `chat`) paid even when nothing failed. Importing
``runshepherd.diagnosis.models`` or ``.pending`` does not load the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from runshepherd.lazy_exports import lazy_getattr

if TYPE_CHECKING:
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

__getattr__ = lazy_getattr(
    __name__,
    {
        **dict.fromkeys(("diagnose", "diagnose_log_text"), "engine"),
        **dict.fromkeys(
            (
                "FIX_KINDS",
                "LABELS",
                "Diagnosis",
                "DiagnosisInput",
                "Fix",
                "FixKind",
                "Label",
                "MetricsHints",
                "Origin",
                "TaskRecord",
            ),
            "models",
        ),
        **dict.fromkeys(("PendingExplanation", "PendingReason", "ResourceRequest", "explain_pending"), "pending"),
    },
)
