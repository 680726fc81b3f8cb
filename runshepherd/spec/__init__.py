"""OSMO's workflow YAML: model, loading with line-accurate errors, templating, tokens and diffs.

The names below load on first use: every command reads its config through ``spec.limits``, and importing the
whole package for that (the pydantic model, jinja2 templating) cost ~40 ms per CLI start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from runshepherd.lazy_exports import lazy_getattr

if TYPE_CHECKING:
    from runshepherd.spec.diff import spec_diff
    from runshepherd.spec.document import SpecDocument
    from runshepherd.spec.loader import SpecError, SpecProblem, load_spec_file, load_spec_text, parse_set_values
    from runshepherd.spec.model import Workflow, WorkflowFile
    from runshepherd.spec.tokens import substitute_tokens

__all__ = [
    "SpecDocument",
    "SpecError",
    "SpecProblem",
    "Workflow",
    "WorkflowFile",
    "load_spec_file",
    "load_spec_text",
    "parse_set_values",
    "spec_diff",
    "substitute_tokens",
]

__getattr__ = lazy_getattr(
    __name__,
    {
        "SpecDocument": "document",
        "SpecError": "loader",
        "SpecProblem": "loader",
        "Workflow": "model",
        "WorkflowFile": "model",
        "load_spec_file": "loader",
        "load_spec_text": "loader",
        "parse_set_values": "loader",
        "spec_diff": "diff",
        "substitute_tokens": "tokens",
    },
)
