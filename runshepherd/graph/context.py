"""Dependencies of a session, passed as LangGraph context on every invoke and resume (never checkpointed)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runshepherd.cancel_mark import session_halted
from runshepherd.config import Settings

if TYPE_CHECKING:
    from runshepherd.backends.base import Backend, WorkflowStatus
    from runshepherd.experts.base import WorkflowExpert
    from runshepherd.experts.llm.usage import UsageLedger
    from runshepherd.subagents.logs_reader.pool import SharedReaders
    from runshepherd.sweep.budget import SweepBudget
    from runshepherd.sweep.poll import SharedPoll


@dataclass
class Deps:
    """What nodes use besides the state: the scheduler, the settings, the expert. Never checkpointed."""

    backend: Backend
    settings: Settings = field(default_factory=Settings)
    session_id: str = "no-session"
    state_dir: Path = Path(".")
    auto_yes: bool = False
    cadence: float | None = None
    max_fixes: int | None = None
    cwd: Path = field(default_factory=Path.cwd)
    download_root: Path = field(default_factory=Path.home)
    clock: Callable[[], float] = time.time
    expert: WorkflowExpert | None = None
    chat_model: Any = None  # a langchain chat model (optional dependency) instead of one built from settings
    usage: UsageLedger | None = None  # this process's LLM usage (its counts are checkpointed as `llm_usage`)
    approved: dict[str, str] = field(default_factory=dict)  # kind → answer the person already gave (a sweep's plan)
    poller: SharedPoll | None = None  # a sweep's one batched status read per tick, shared by all its points
    sweep_budget: SweepBudget | None = None  # a sweep's caps on fix attempts and infra retries over all points
    log_readers: SharedReaders | None = None  # a sweep's log readers: one per five failed tasks of all its points
    halted: Callable[[], str | None] | None = None  # why the person canceled the session (or its sweep), or None

    def halt_reason(self) -> str | None:
        """Why this session must not submit, resubmit, fix, ask or keep a workflow running (`cancel_mark.py`)."""
        return self.halted() if self.halted is not None else None

    def query(self, workflow_id: str) -> WorkflowStatus:
        """The monitor's status poll: through the sweep's shared batched read when there is one."""
        return self.poller.query(workflow_id) if self.poller is not None else self.backend.query(workflow_id)

    def progress_due(self, ws: WorkflowStatus) -> bool:
        """Read the running task's log tail for the progress line now? Always alone or where logs are cheap (local
        files); a sweep's point on a backend where a log read is a call (OSMO) only at a status change and every
        few ticks (`SharedPoll.progress_due`), so N points do not make N log calls a tick."""
        from runshepherd.backends.base import has_cheap_logs

        if self.poller is None or has_cheap_logs(self.backend):
            return True
        return self.poller.progress_due(ws.workflow_id, ws.status.value)

    def wait_for_change(self, workflow_id: str, timeout: float) -> bool:
        """Wait up to ``timeout`` for a change. A sweep's point waits the shared tick out, except where a status
        change wakes it and reading it costs no scheduler call (the poll is ``cheap``: local): then its next poll
        reads it afresh."""
        if self.poller is None:
            return self.backend.wait_for_change(workflow_id, timeout)
        if not self.poller.cheap:
            time.sleep(max(0.0, timeout))
            return False
        changed = self.backend.wait_for_change(workflow_id, timeout)
        if changed:
            self.poller.refresh(workflow_id)
        return changed

    def get_expert(self) -> WorkflowExpert:
        if self.expert is None:
            from runshepherd.experts.base import make_expert

            if self.usage is None and self.settings.expert != "heuristic":
                from runshepherd.experts.llm.usage import UsageLedger

                self.usage = UsageLedger.from_config(self.settings.llm)
            self.expert = make_expert(
                self.settings.expert,
                settings=self.settings,
                backend=self.backend,
                model=self.chat_model,
                usage=self.usage,
            )
        return self.expert

    @property
    def fix_cap(self) -> int:
        return self.max_fixes if self.max_fixes is not None else self.settings.fixes.max_fix_attempts

    def preauthorised(self, kind: str) -> str | None:
        """The answer to give without asking, or None to ask: --yes, else the config's approval policy."""
        if self.auto_yes:
            return "default"
        if kind in self.approved:
            return self.approved[kind]
        policy = getattr(self.settings.approvals, kind, "ask") if hasattr(self.settings.approvals, kind) else "ask"
        return None if policy == "ask" else policy

    def approved_by(self, kind: str) -> str:
        """Who said yes to a side effect behind question ``kind`` (for the audit log): --yes, the policy, or the
        person (the question was asked and answered)."""
        if self.auto_yes:
            return "--yes"
        if kind in self.approved:
            return "person (the sweep's plan)"
        pre = self.preauthorised(kind)
        return "person" if pre is None else f"policy: approvals.{kind}={pre}"

    def audit(self, what: str, *, approved_by: str, workflow: str | None = None, **details: Any) -> None:
        from runshepherd.audit import record

        record(self.state_dir, what, approved_by=approved_by, session=self.session_id, workflow=workflow, **details)


def build_deps(
    backend: Backend,
    settings: Settings,
    state_dir: Path,
    session: str,
    *,
    yes: bool = False,
    cadence: float | None = None,
    max_fixes: int | None = None,
    chat_model: Any = None,
) -> Deps:
    """The deps of a session about to run; builds the expert now, so a missing model package or key fails
    before the session starts (exit 2), not in the middle of it."""
    deps = Deps(
        backend=backend,
        settings=settings,
        session_id=session,
        state_dir=state_dir,
        auto_yes=yes,
        cadence=cadence,
        max_fixes=max_fixes,
        cwd=Path.cwd(),
        chat_model=chat_model,
        halted=session_halted(state_dir, session),  # `orchestrate cancel SESSION` while it waits at a question
    )
    deps.get_expert()
    return deps


def deps_of(runtime: Any) -> Deps:
    """The session's Deps: passed as they are by the runner, or built from a LangGraph Server run's plain
    `ServerContext` (graph/server.py) for the run's thread."""
    ctx = getattr(runtime, "context", None)
    if isinstance(ctx, Deps):
        return ctx
    from runshepherd.graph.server import ServerContext, deps_for

    if isinstance(ctx, ServerContext):
        info = getattr(runtime, "execution_info", None)
        return deps_for(ctx, str(getattr(info, "thread_id", None) or "no-thread"))
    raise RuntimeError("the session was invoked without its context (Deps); pass context= on every invoke")
