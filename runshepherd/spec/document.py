"""A loaded spec: what the person wrote, the values it was rendered with, and the validated model."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runshepherd.spec.model import Workflow, WorkflowFile


@dataclass(frozen=True)
class SpecDocument:
    """Backends keep ``template_text`` (for `spec --template`) and ``rendered_text`` (for `spec`)."""

    template_text: str
    rendered_text: str
    model: WorkflowFile
    values: dict[str, Any] = field(default_factory=dict)
    source: str = "<spec>"
    base_dir: Path | None = None
    warnings: tuple[str, ...] = ()

    @property
    def workflow(self) -> Workflow:
        return self.model.workflow

    @property
    def name(self) -> str:
        return self.model.workflow.name
