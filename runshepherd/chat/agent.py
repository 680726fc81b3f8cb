"""The chat router with a model: a tool-calling agent whose tools are the same intents the deterministic router
produces. A tool call is only a request — the chat confirms every action and runs go through the graph's gates.
A provider failure, an answer outside the tools or the ceiling falls back to the deterministic router."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from runshepherd.chat.intents import Intent, route
from runshepherd.experts.llm.call import invoke
from runshepherd.experts.llm.errors import LLMRejected, LLMUnavailable
from runshepherd.experts.llm.material import as_data
from runshepherd.experts.llm.schemas import tool_spec
from runshepherd.experts.llm.usage import UsageLedger
from runshepherd.prompts import load_prompt


class _Workflow(BaseModel):
    workflow: str | None = Field(None, description="a workflow id; omit for the current run")


class start_run(BaseModel):  # noqa: N801 — tool names are what the model sees
    """Start a new run from the person's sentence (planned, then submitted only after they confirm); also a sweep
    ("sweep lr over 1e-3, 3e-4 with FILE.yaml", "run this with 3 seeds"): pass the sentence unchanged."""

    request: str


class status(_Workflow):  # noqa: N801
    """The status of a run: state, progress, metrics, ETA."""


class why_pending(_Workflow):  # noqa: N801
    """Why a run waits in the queue and what would make it start."""


class logs(_Workflow):  # noqa: N801
    """A digest of a run's logs, optionally of one task."""

    task: str | None = None


class explain_workflow(_Workflow):  # noqa: N801
    """What a workflow does, how, and what it produces."""


class explain_failure(_Workflow):  # noqa: N801
    """Why a run failed and the proposed fix."""


class download_outputs(_Workflow):  # noqa: N801
    """Ask to download a finished run's outputs (the person confirms)."""


class save_app(_Workflow):  # noqa: N801
    """Ask to save the run's spec as a reusable app (the person confirms)."""


class cancel(_Workflow):  # noqa: N801
    """Ask to cancel a run (the person always confirms)."""


class answer(BaseModel):  # noqa: N801
    """Answer the question the run is waiting on."""

    answer: str


class list_runs(BaseModel):  # noqa: N801
    """The runs of this conversation."""


class sweep_status(BaseModel):  # noqa: N801
    """How the latest sweep is doing: every point's status, workflow and attempt, and the best point."""


class pools(BaseModel):  # noqa: N801
    """The backend's pools with the GPUs a job can use in each now."""


class help(BaseModel):  # noqa: N801,A001
    """Say what the chat can do."""


TOOLS: dict[str, tuple[type[BaseModel], str]] = {
    "start_run": (start_run, "start"),
    "status": (status, "status"),
    "why_pending": (why_pending, "why_pending"),
    "logs": (logs, "logs"),
    "explain_workflow": (explain_workflow, "explain_workflow"),
    "explain_failure": (explain_failure, "explain_failure"),
    "download_outputs": (download_outputs, "download"),
    "save_app": (save_app, "save_app"),
    "cancel": (cancel, "cancel"),
    "answer": (answer, "answer"),
    "list_runs": (list_runs, "list_runs"),
    "sweep_status": (sweep_status, "sweep_status"),
    "pools": (pools, "pools"),
    "help": (help, "help"),
}


class ModelRouter:
    def __init__(
        self,
        model: Any,
        ledger: UsageLedger,
        patterns: list[str] | None = None,
        notify: Callable[[str], None] = lambda _t: None,
    ) -> None:
        self.model = model
        self.ledger = ledger
        self.patterns = list(patterns or [])
        self.notify = notify

    def route(
        self, text: str, *, waiting: str | None = None, question: str | None = None, known: list[str] | None = None
    ) -> Intent:
        from langchain_core.messages import HumanMessage, SystemMessage

        context = f"Runs in this conversation: {', '.join(known or []) or 'none'}."
        if question:
            context += f"\nThe run is waiting on this question:\n{as_data('question', question, self.patterns)}"
        human = f"{context}\n\nThe person wrote:\n{as_data('message', text, self.patterns)}"
        messages = [SystemMessage(content=load_prompt("chat_router")), HumanMessage(content=human)]
        try:
            msg = invoke(
                self.model,
                messages,
                [tool_spec(model, name) for name, (model, _) in TOOLS.items()],
                node="chat",
                ledger=self.ledger,
            )
            calls = list(getattr(msg, "tool_calls", None) or [])
            if not calls:
                raise LLMRejected("the model answered without choosing a tool")
            c = calls[0]
            if c["name"] not in TOOLS:
                raise LLMRejected(f"the model asked for a tool it was not offered ({c['name']})")
            schema, kind = TOOLS[c["name"]]
            args = schema.model_validate(c["args"]).model_dump()
        except (LLMUnavailable, LLMRejected, ValueError) as exc:
            self.notify(f"chat router: {exc}; using the built-in router")
            return route(text, waiting=waiting, known=known)
        return Intent(
            kind=kind,
            text=text,
            request=args.get("request"),
            workflow=args.get("workflow"),
            task=args.get("task"),
            answer=args.get("answer"),
        )
