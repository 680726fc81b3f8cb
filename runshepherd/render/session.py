"""Show a session's events on a terminal, or as JSON lines (`--json`): shared by the CLI and the chat."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console


def done_event(values: dict[str, Any]) -> dict[str, Any]:
    """The `done` event of a finished session, from its final state: counts as recorded, nothing inferred."""
    return {
        "event": "done",
        "outcome": values.get("outcome") or "FAILED",
        "reason": values.get("outcome_reason"),
        "workflow_ids": values.get("workflow_ids") or [],
        "fix_attempts": values.get("fix_attempts", 0),
        "unchanged_retries": values.get("unchanged_retries", 0),
        "infra_retries": values.get("infra_retries", 0),
        "outputs": values.get("outputs") or [],
        "downloaded": values.get("downloaded") or [],
        "downloaded_count": values.get("downloaded_count", len(values.get("downloaded") or [])),
        "download_dir": values.get("download_dir"),
        "app": values.get("app"),
        "status_artifact": values.get("report_path"),
        "llm_usage": values.get("llm_usage"),
    }


def usage_line(usage: dict[str, Any]) -> str:
    nodes = ", ".join(f"{k} {v['input'] + v['output']}" for k, v in (usage.get("by_node") or {}).items())
    cost = f", cost {usage['cost']:g}" if usage.get("cost") else ""
    return f"model tokens: {usage.get('total_tokens', 0)} ({nodes}){cost}"


@dataclass
class Renderer:
    session: str
    as_json: bool
    out: Console
    seen_questions: set[str] = field(default_factory=set)
    notifier: Any = None  # SessionNotifier when `notify:` targets are configured

    def notify(self, ev: dict[str, Any]) -> None:
        if self.notifier is not None:
            self.notifier.on_event(ev)

    def event(self, ev: dict[str, Any]) -> None:
        self.notify(ev)
        if self.as_json:
            sys.stdout.write(json.dumps({**ev, "session": self.session}, default=str) + "\n")
            sys.stdout.flush()
            return
        out = self.out
        kind = ev.get("event")
        if kind == "planned":
            out.print(f"● plan      {ev.get('message')}", markup=False)
            for w in ev.get("warnings") or []:
                out.print(f"  ! {w}", markup=False)
            for m in ev.get("missing") or []:
                out.print(f"  ? missing: {m}", markup=False)
        elif kind == "submitted":
            again = " (found the earlier submission)" if ev.get("reused") else ""
            out.print(f"● submitted {ev['workflow_id']} (attempt {ev['attempt']}){again}", markup=False)
        elif kind == "status":
            out.print(f"● status    {ev.get('text')}", markup=False)
        elif kind == "progress":
            out.print(f"● progress  {ev.get('text')}", markup=False)
        elif kind == "pending":
            out.print(f"● pending   {ev.get('text')}", markup=False)
            for s in ev.get("suggestions") or []:
                out.print(f"  - {s}", markup=False)
        elif kind == "logs_readers":
            out.print(f"● logs      {ev['tasks']} task(s) read by {ev['readers']} reader(s)", markup=False)
        elif kind == "diagnosis":
            out.print(f"● diagnosis {ev['label']} ({ev['origin']}): {ev.get('explanation', '')}", markup=False)
            for line in ev.get("evidence") or []:
                out.print(f"    │ {line}", markup=False)
        elif kind == "fix":
            out.print(f"● fix       {ev.get('explanation')}", markup=False)
            if ev.get("diff"):
                out.print(ev["diff"].rstrip(), markup=False)
        elif kind == "answered":
            out.print(f"? {ev['kind']:<9} {ev['text'].splitlines()[0]} → {ev['answer']} (pre-answered)", markup=False)
        elif kind == "report":
            if ev.get("digest"):
                out.print(ev["digest"], markup=False)
        elif kind == "downloaded":
            out.print(f"● download  {ev['files']} file(s) → {ev['dest']}", markup=False)
        elif kind == "app":
            out.print(f"● app       saved {ev['name']} v{ev['version']}", markup=False)
        elif kind == "message":
            out.print(f"  {ev.get('level', 'info')}: {ev.get('text')}", markup=False)

    def question(self, qid: str, payload: dict[str, Any]) -> None:
        if qid in self.seen_questions:
            return
        self.seen_questions.add(qid)
        ev = {
            "event": "question",
            "id": qid,
            "kind": payload.get("kind"),
            "text": payload.get("text"),
            "default": payload.get("default"),
            "choices": payload.get("choices"),
        }
        if self.as_json:
            self.event(ev)
        else:
            self.notify(ev)

    def done(self, values: dict[str, Any]) -> str:
        """Show the end of a session (the `done` event in JSON); returns its outcome."""
        done = done_event(values)
        outcome = str(done["outcome"])
        if self.as_json:
            self.event(done)
        else:
            self.notify(done)
            reason = f" ({done['reason']})" if done["reason"] and outcome != "COMPLETED" else ""
            self.out.print(f"session {self.session} done · {outcome}{reason}", markup=False)
            if done["status_artifact"]:
                self.out.print(f"status: {done['status_artifact']}", markup=False)
            if done["llm_usage"]:
                self.out.print(usage_line(done["llm_usage"]), markup=False)
        return outcome
