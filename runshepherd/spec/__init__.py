"""OSMO's workflow YAML: model, loading with line-accurate errors, templating, tokens and diffs."""

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
