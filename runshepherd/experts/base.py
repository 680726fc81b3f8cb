"""The judgement interfaces. `heuristic` (offline, default) implements them; an LLM expert will too."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel, Field


class Draft(BaseModel):
    """A spec written for a request: the YAML text, where its local files live, and what was understood."""

    spec_text: str
    base_dir: str | None = None
    understood: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    missing: list[str] = Field(
        default_factory=list, description="what the request names that this spec cannot honour; the person decides"
    )
    substitute: str | None = Field(
        None, description="what runs instead if the person accepts (e.g. 'the bundled demo')"
    )


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
        self,
        spec_text: str,
        diagnosis: dict[str, Any],
        *,
        nodes: list[Any],
        base_dir: Path | None,
        on_host: bool = True,
    ) -> FixProposal:
        """A whole-spec fix. ``on_host``: the backend runs tasks on the machine itself (`runs_on_host`), so a
        system package install is only proposed (``new_spec`` None), never written into the spec."""
        ...


@runtime_checkable
class Diagnoser(Protocol):
    """Optional: explain a failure when the rules are unsure (the model path); None keeps the rules' answer."""

    def diagnose(self, inp: Any, heuristic: Any, digest: str = "") -> Any | None: ...


@runtime_checkable
class DigestWriter(Protocol):
    """Optional: write a log digest from the deterministic extraction (never from raw logs)."""

    def write_digest(self, extraction: str) -> str: ...


@runtime_checkable
class NoticeSource(Protocol):
    """Optional: notices to show the person (e.g. "the model was unreachable; used the rules instead")."""

    def drain_notices(self) -> list[str]: ...


def second_look(expert: Any, inp: Any, primary: Any, digest: str = "") -> Any:
    """The one place a model reviews the rules' verdict (the session's `diagnose_fix`, `orchestrate diagnose`): only
    an unsure verdict that is not "healthy" is shown to a model expert (`Diagnoser`), and its answer replaces the
    rules' only when its evidence holds (`LLMExpert.diagnose`); otherwise the rules' verdict stands."""
    if inp is None or primary is None or primary.label == "healthy" or not isinstance(expert, Diagnoser):
        return primary
    from runshepherd.experts.llm.expert import is_unsure

    if not is_unsure(primary):
        return primary
    return expert.diagnose(inp, primary, digest) or primary


def make_expert(
    name: str, *, settings: Any = None, backend: Any = None, model: Any = None, usage: Any = None
) -> WorkflowExpert:
    """`heuristic`, or `provider:model` (a langchain chat model; ``model`` injects one, e.g. in tests).

    Building the LLM expert checks the provider package and key now, so a problem is an error at start.
    """
    if name == "heuristic":
        from runshepherd.experts.heuristic.expert import HeuristicExpert

        return HeuristicExpert()
    from runshepherd.config import Settings
    from runshepherd.experts.llm.expert import LLMExpert
    from runshepherd.experts.llm.factory import build_chat_model
    from runshepherd.experts.llm.usage import UsageLedger

    settings = settings or Settings()
    chat = model if model is not None else build_chat_model(name, settings.llm)

    def pools() -> list[dict[str, Any]]:
        from runshepherd.backends.base import jsonable

        return [jsonable(p) for p in backend.pools()] if backend is not None else []

    return LLMExpert(
        chat,
        name=name,
        ledger=usage or UsageLedger.from_config(settings.llm),
        patterns=settings.logs.redaction_patterns,
        pools=pools,
    )


def draft_for(expert: WorkflowExpert, request: str, *, cwd: Path, not_used: list[str]) -> Draft:
    """The one way a request reaches an expert (the plan step and `orchestrate draft`). ``request`` is as it came
    through the door (`request_text.enter`: its shell commands and a repeat it asks for already cut out); the
    draft's notes start with the door's ``not_used`` words, so the plan says which parts were not used or done and
    why."""
    from runshepherd.number_reading import not_yet_warned, spec_implausible

    draft = expert.draft_spec(request, cwd=cwd)
    # what the expert wrote is checked like what the person typed (an LLM's "--epochs 1000000000")
    written = not_yet_warned(spec_implausible(draft.spec_text), draft.notes)
    draft.notes = [*not_used, *draft.notes, *written]
    return draft
