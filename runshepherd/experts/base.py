"""The judgement interfaces. `heuristic` (offline, default) implements them; an LLM expert will too."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field


class Draft(BaseModel):
    """A spec written for a request: the YAML text, where its local files live, and what was understood."""

    spec_text: str
    base_dir: str | None = None
    understood: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class FixProposal(BaseModel):
    """A whole-spec fix: the new text (None when no safe change exists), the diff and the reason in words."""

    new_spec: str | None
    diff: str | None
    kind: str
    explanation: str
    other_changes: list[str] = Field(default_factory=list)


class WorkflowExpert(Protocol):
    name: str

    def draft_spec(self, request: str, *, cwd: Path) -> Draft: ...

    def fix_spec(
        self, spec_text: str, diagnosis: dict[str, Any], *, nodes: list[Any], base_dir: Path | None
    ) -> FixProposal: ...


def make_expert(name: str) -> WorkflowExpert:
    if name == "heuristic":
        from runshepherd.experts.heuristic.expert import HeuristicExpert

        return HeuristicExpert()
    from runshepherd.errors import NotImplementedYet

    raise NotImplementedYet(
        f"expert {name!r}: the LLM path is not built yet — use `expert: heuristic` (the default)"
    )
