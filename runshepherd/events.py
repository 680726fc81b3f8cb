"""The session event stream: one pydantic model per event, one discriminated union (`Event`).

This is a public contract: `orchestrate run/resume/attach --json` print one event per line, `--detach` writes them
to a file, notifications and the chat consume them. Nodes emit these models (`nodes.common.emit`); front ends
validate a line with `parse_event` and dispatch on its type. The JSON Schema is published at
docs/events.schema.json (regenerate with `python -m runshepherd.events > docs/events.schema.json`; a test checks
the file matches). Every front end adds ``session``. Fields say only what happened or was measured: a count is
the count, an unknown is null.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError


class BaseEvent(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    session: str | None = Field(default=None, description="the session id (added by the front end)")

    def wire(self, *, only_set: bool = False) -> dict[str, Any]:
        """The JSON-able dict of this event, as it is streamed (``session`` is added by the front end).

        ``only_set``: leave out fields not given (a paused `done` states no counts it did not read)."""
        out = self.model_dump(mode="json", by_alias=True, exclude_unset=only_set)
        out["event"] = self.model_dump()["event"]
        if out.get("session") is None:
            out.pop("session", None)
        return out


class Planned(BaseEvent):
    """The spec is written (or read) and checked; `missing` names what the request asked for and cannot be run."""

    event: Literal["planned"] = "planned"
    spec_name: str
    pool: str | None
    message: str
    warnings: list[str] = []
    missing: list[str] = []


class Submitted(BaseEvent):
    event: Literal["submitted"] = "submitted"
    attempt: int
    workflow_id: str
    reused: bool = Field(description="true when an earlier submission of this attempt was found (idempotency key)")
    reason: str = Field(description="initial | fix | infra-retry | resubmit")


class StatusChanged(BaseEvent):
    event: Literal["status"] = "status"
    workflow_id: str
    from_: str | None = Field(alias="from", description="the previous status (null before the first poll)")
    to: str
    text: str


class Progress(BaseEvent):
    """A progress line read from the running task's log (stage, step, metrics): only what the log showed."""

    event: Literal["progress"] = "progress"
    workflow_id: str
    text: str


class Pending(BaseEvent):
    event: Literal["pending"] = "pending"
    workflow_id: str
    kind: str
    origin: str
    text: str
    suggestions: list[str] = []


class LogsReaders(BaseEvent):
    event: Literal["logs_readers"] = "logs_readers"
    workflow_id: str
    tasks: int
    readers: int


class FixSuggestion(BaseModel):
    kind: str
    description: str | None = Field(None, description="the bare action ('Lower the learning rate ×0.1 …')")
    status: Literal["proposed"] = Field(
        "proposed", description="a diagnosis only proposes; `submitted` reason fix applies"
    )


class DiagnosisEvent(BaseEvent):
    event: Literal["diagnosis"] = "diagnosis"
    workflow_id: str | None = Field(description="null when the scheduler refused the submission itself")
    label: str
    origin: str
    fix: FixSuggestion
    explanation: str
    evidence: list[str] = []
    confidence: float


class FixProposed(BaseEvent):
    event: Literal["fix"] = "fix"
    attempt: int = Field(description="the attempt number the fixed spec would be submitted as")
    diff: str | None
    kind: str
    explanation: str = Field(description="the bare action ('Lower the learning rate ×0.1 …'), not yet applied")
    status: Literal["proposed"] = Field(
        "proposed", description="applied only when a `submitted` event with reason fix follows"
    )


class Answered(BaseEvent):
    """A question answered without asking (--yes or the config's approval policy)."""

    event: Literal["answered"] = "answered"
    kind: str
    text: str
    answer: str
    automatic: bool = True


class Report(BaseEvent):
    event: Literal["report"] = "report"
    workflow_id: str | None
    artifact: str | None = Field(description="path of the status report written")
    digest: str | None


class Downloaded(BaseEvent):
    event: Literal["downloaded"] = "downloaded"
    workflow_id: str
    dest: str
    files: int


class AppSaved(BaseEvent):
    event: Literal["app"] = "app"
    name: str
    version: int | str
    url: str | None = None


class Message(BaseEvent):
    event: Literal["message"] = "message"
    level: Literal["info", "warning", "error"]
    text: str


class QuestionEvent(BaseEvent):
    """The session waits for an answer (`orchestrate resume SESSION --answer CHOICE`)."""

    event: Literal["question"] = "question"
    id: str
    kind: str
    text: str
    default: str
    choices: list[str]


class Done(BaseEvent):
    """The last event of a run: the session ended, or paused for an answer (``paused``)."""

    event: Literal["done"] = "done"
    outcome: Literal["COMPLETED", "FAILED", "NEEDS_INPUT", "CANCELED"]
    reason: str | None = None
    declined: bool = Field(
        False,
        description="CANCELED because the person said no before anything was submitted: their final word (exit 0)",
    )
    workflow_ids: list[str] = []
    fix_attempts: int = Field(0, description="resubmissions with a changed spec")
    unchanged_retries: int = Field(0, description="resubmissions the person chose without a change")
    infra_retries: int = Field(0, description="unchanged resubmissions after infrastructure failures")
    outputs: list[str] = []
    downloaded: list[str] = Field([], description="the first 200 files downloaded")
    downloaded_count: int = Field(0, description="how many files were downloaded in all")
    download_dir: str | None = None
    app: dict[str, Any] | None = None
    status_artifact: str | None = None
    llm_usage: dict[str, Any] | None = None
    results: list[dict[str, Any]] | None = Field(
        None,
        description="a sweep only: one entry per point {index, point, values, session, workflow_id, workflow_ids, "
        "status, attempts, metrics: {name: {last, best}}, duration}",
    )
    best: dict[str, Any] | None = Field(
        None, description="a sweep only: {metric, point, index, value} of the best point"
    )
    paused: bool = False
    resume: str | None = Field(None, description="the command that answers the question (paused only)")
    answers: list[str] | None = None
    question: str | None = None


class Detached(BaseEvent):
    event: Literal["detached"] = "detached"
    pid: int
    events: str = Field(description="the file the background run writes its events to")


class OutOfScope(BaseEvent):
    event: Literal["out_of_scope"] = "out_of_scope"
    family: str
    answer: str
    handled_by: str
    matched: str


Event = Annotated[
    Planned
    | Submitted
    | StatusChanged
    | Progress
    | Pending
    | LogsReaders
    | DiagnosisEvent
    | FixProposed
    | Answered
    | Report
    | Downloaded
    | AppSaved
    | Message
    | QuestionEvent
    | Done
    | Detached
    | OutOfScope,
    Field(discriminator="event"),
]
EVENTS: TypeAdapter[Event] = TypeAdapter(Event)


def parse_event(data: dict[str, Any]) -> BaseEvent | None:
    """The typed event of a streamed dict, or None when it is not one this version knows (or is malformed)."""
    try:
        return EVENTS.validate_python(data)
    except ValidationError:
        return None


def event_schema() -> dict[str, Any]:
    """The JSON Schema of one line of the event stream (published as docs/events.schema.json)."""
    schema = EVENTS.json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "RunShepherd session event"
    schema["description"] = "One line of `orchestrate run/resume/attach --json` (see runshepherd/events.py)."
    return schema


def schema_text() -> str:
    return json.dumps(event_schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(schema_text(), end="")
