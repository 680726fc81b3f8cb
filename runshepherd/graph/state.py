"""The session state: plain JSON-able values, small and bounded. Never raw logs (docs/architecture.md §4).

Every list here has a cap (see ``cap``) so a week-long run or a 1000-task workflow cannot grow a checkpoint.
"""

from __future__ import annotations

import operator
import secrets
from typing import Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from runshepherd.backends.base import Status

Outcome = Literal["COMPLETED", "FAILED", "NEEDS_INPUT", "CANCELED"]

MAX_TRANSITIONS = 20
MAX_ATTEMPTS_KEPT = 12
MAX_DIGEST_CHARS = 2400


AttemptReason = Literal["initial", "fix", "infra-retry", "resubmit"]


class Attempt(TypedDict):
    n: int
    workflow_id: str | None
    submitted_at: str | None
    idempotency_key: str
    reason: str  # an AttemptReason


def new_session_nonce() -> str:
    """A random tag made once per session (by `plan`, its first node) and kept in its checkpoint. A session name
    can be reused (`--session NAME` after the state dir or the sessions were removed) while a scheduler still holds
    the earlier run's jobs and their keys (Slurm lists finished jobs for MinJobAge; OSMO keeps workflow labels);
    the nonce keeps that new session from adopting them, and a crash-resume of the same session keeps it."""
    return secrets.token_hex(6)


def new_attempt(session_id: str, nonce: str | None, n: int, reason: AttemptReason) -> Attempt:
    """Attempt ``n`` of a session, not submitted yet. Its idempotency key (session:nonce:n) is what makes a
    resumed or repeated `submit` find the earlier submission instead of creating a second workflow. Sessions
    checkpointed before nonces existed have none and keep their keys' old form (session:n)."""
    key = f"{session_id}:{nonce}:{n}" if nonce else f"{session_id}:{n}"
    return {"n": n, "workflow_id": None, "submitted_at": None, "idempotency_key": key, "reason": reason}


class TaskSnapshot(TypedDict):
    name: str
    status: str
    exit_code: int | None
    failure_message: str | None


class StatusSnapshot(TypedDict):
    workflow_id: str
    status: str
    tasks: list[TaskSnapshot]
    task_count: int
    submit_time: str | None
    start_time: str | None
    end_time: str | None
    outputs: list[str]
    overview: str | None


class ReaderResult(TypedDict):
    """What one logs-reader returns: a bounded markdown digest and compact per-task facts."""

    reader: int
    attempt: int
    tasks: list[str]
    markdown: str
    tokens: int
    facts: dict[str, dict[str, Any]]  # task → {stage, progress, root_error, error_lines (≤50), flags, ...}


class Question(TypedDict):
    kind: str  # submit | resubmit | download | save_app | continue_after_cap | pending
    text: str
    default: str
    choices: list[str]


class FixRecord(TypedDict):
    kind: str
    description: str
    patch: str | None


class DiagnosisRecord(TypedDict):
    """A `Diagnosis` as checkpointed (its JSON dump): what failed, why, the evidence lines and the suggested fix."""

    label: str
    origin: str
    confidence: float
    evidence: list[str]
    explanation: str
    fix: FixRecord
    task: str | None
    what_would_confirm: str | None


class ProposedFix(TypedDict):
    """A changed spec waiting for approval (`approve_resubmit`)."""

    new_spec: str
    diff: str
    kind: str
    explanation: str
    label: str


class AppRecord(TypedDict):
    """The app to save (name, description) and, once saved, its version and (on OSMO) its URL."""

    name: str
    description: str
    version: NotRequired[int | None]
    url: NotRequired[str | None]


class SweepPoint(TypedDict):
    """Which point of which sweep a session runs: its follow-ups (download, app) are offered once for the whole
    sweep by the sweep driver, never per point."""

    sweep: str
    index: int
    values: dict[str, Any]


class SessionState(TypedDict):
    request: str  # as it came through the door (`request_text.enter`): secrets redacted, shell commands cut out
    request_not_used: NotRequired[list[str]]  # the door's words for each part it cut out (the plan's warnings)
    spec_path: NotRequired[str | None]
    spec_base_dir: NotRequired[str | None]
    set_values: NotRequired[dict[str, Any]]
    spec: NotRequired[str]
    spec_name: NotRequired[str]
    pool: NotRequired[str | None]
    backend: NotRequired[str]
    plan_message: NotRequired[str]
    plan_warnings: NotRequired[list[str]]
    plan_missing: NotRequired[list[str]]  # what the request names that the spec cannot honour (a question)
    plan_substitute: NotRequired[str | None]  # what would run instead if the person accepts
    session_nonce: NotRequired[str]  # made once by `plan`; part of every attempt's idempotency key
    attempt: NotRequired[Attempt]
    last_status: NotRequired[StatusSnapshot | None]
    transitions: NotRequired[list[str]]
    polls: NotRequired[int]
    unchanged_polls: NotRequired[int]
    pending_since: NotRequired[str | None]
    pending_explained: NotRequired[bool]
    needs_pending_explanation: NotRequired[bool]
    progress_line: NotRequired[str | None]
    tasks_per_reader: NotRequired[int]
    rejection: NotRequired[str | None]  # the backend's words when it refused a submission
    read_tasks: NotRequired[list[dict[str, str]]]  # set for one fan-out, cleared by diagnose_fix
    reader_results: NotRequired[Annotated[list[ReaderResult], operator.add]]
    digest: NotRequired[str]
    diagnosis: NotRequired[DiagnosisRecord | None]
    proposed_fix: NotRequired[ProposedFix | None]
    fix_history: NotRequired[list[dict[str, Any]]]
    fix_attempts: NotRequired[int]  # resubmissions with a changed spec (the fixes), never unchanged ones
    extra_fixes: NotRequired[int]  # fix attempts the person allowed beyond the cap ("retry" when asked at it)
    unchanged_retries: NotRequired[int]  # resubmissions the person chose without a change ("resubmit")
    infra_retries: NotRequired[int]
    outputs: NotRequired[list[str]]
    downloaded: NotRequired[list[str]]
    downloaded_count: NotRequired[int]
    digest_facts: NotRequired[
        dict[str, dict[str, Any]]
    ]  # task → stage, progress, metrics, last_update (last digest)  # files written (the list above is capped)
    download_dir: NotRequired[str | None]
    app: NotRequired[AppRecord | None]
    report_path: NotRequired[str | None]
    outcome: NotRequired[Outcome | None]
    outcome_reason: NotRequired[str | None]
    declined: NotRequired[bool]  # the person said no before anything was submitted: their final word (exit 0)
    workflow_ids: NotRequired[list[str]]
    next_after_ask: NotRequired[str | None]
    llm_usage: NotRequired[dict[str, Any] | None]  # {by_node: {node: {input, output, calls}}, total_tokens, cost}
    sweep_point: NotRequired[SweepPoint | None]  # set when this session is one point of a sweep (runshepherd/sweep)


def submitted_id(state: SessionState) -> str:
    """The workflow id of the current attempt. Only nodes after `submit` ask, so a missing id is a wiring bug."""
    wid = state["attempt"]["workflow_id"]
    if wid is None:
        raise RuntimeError("no workflow was submitted in this attempt yet")
    return wid


def last_status(state: SessionState) -> str | None:
    """The workflow status of the newest snapshot, or None before the first poll."""
    snap = state.get("last_status")
    return snap["status"] if snap else None


def still_running(state: SessionState) -> bool:
    """True while the newest snapshot says the workflow is alive (the one definition: ``Status.alive``)."""
    status = last_status(state)
    return status is not None and status in Status.__members__ and Status(status).alive()


def cap(items: list[Any], n: int) -> list[Any]:
    """Keep the newest ``n`` items."""
    return list(items[-n:])


def clip(text: str, n: int = MAX_DIGEST_CHARS) -> str:
    return text if len(text) <= n else text[: n - 20] + "\n… (digest cut)"
