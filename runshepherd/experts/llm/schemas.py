"""What the model may answer with: one structured result per step, or a read-only tool. Nothing else."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator

from runshepherd.diagnosis.models import FixKind, Label, Origin

MAX_EVIDENCE = 10
MAX_DIGEST_WORDS = 300


class SpecDraft(BaseModel):
    """The finished workflow spec for the request."""

    spec_yaml: str = Field(description="the whole spec, YAML")
    understood: list[str] = Field(default_factory=list, description="parameters taken from the request")
    notes: list[str] = Field(default_factory=list, description="anything the person should know")


class SpecFix(BaseModel):
    """The whole fixed spec (or null when no change is safe) and the reason in plain words."""

    new_spec: str | None = Field(description="the whole fixed spec, YAML; null when no change is safe")
    kind: FixKind = Field(description="the kind of fix")
    explanation: str = Field(description="one or two plain sentences")


class LLMDiagnosis(BaseModel):
    """Why the workflow failed, with verbatim evidence lines from the material."""

    label: Label
    origin: Origin
    confidence: float = Field(ge=0.0, le=1.0)
    evidence: list[str] = Field(default_factory=list, max_length=MAX_EVIDENCE)
    explanation: str
    fix_kind: FixKind = "none"
    fix_description: str = ""


class LogDigest(BaseModel):
    """A short digest of the logs for the person."""

    markdown: str

    @field_validator("markdown")
    @classmethod
    def _short(cls, v: str) -> str:
        if len(v.split()) > MAX_DIGEST_WORDS:
            raise ValueError(f"a digest has at most {MAX_DIGEST_WORDS} words")
        return v


class ListPools(BaseModel):
    """List the scheduler's pools with their free GPUs."""


class ReadFile(BaseModel):
    """Read a bounded text file from the working directory."""

    path: str = Field(description="a path relative to the working directory")


class ValidateSpec(BaseModel):
    """Check a spec against the workflow schema; returns 'valid' or the error."""

    spec_yaml: str


def tool_spec(model: type[BaseModel], name: str | None = None) -> dict[str, Any]:
    """An OpenAI-style function tool for a pydantic model: the format every langchain chat model binds."""
    schema = model.model_json_schema()
    schema.pop("title", None)
    return {
        "type": "function",
        "function": {
            "name": name or model.__name__,
            "description": (model.__doc__ or "").strip(),
            "parameters": schema,
        },
    }
