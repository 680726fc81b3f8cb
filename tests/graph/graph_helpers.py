"""Helpers for graph tests: deps for a temp state dir, and a scripted session runner."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Any

from runshepherd.backends.local import LocalBackend
from runshepherd.config import load_settings
from runshepherd.events import EVENTS
from runshepherd.graph.context import Deps
from runshepherd.graph.runner import Emitted, Question, SessionRunner

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def make_deps(backend: LocalBackend, tmp_path: Path, **kw: Any) -> Deps:
    settings = load_settings(environ={}, flags={"state_dir": str(tmp_path / "state")})
    settings.fixes.infra_backoff_seconds = 0
    return Deps(
        backend=backend,
        settings=settings,
        session_id=kw.pop("session_id", "s1"),
        state_dir=tmp_path / "state",
        cadence=kw.pop("cadence", 0.2),
        cwd=tmp_path,
        download_root=tmp_path / "home",
        **kw,
    )


class Session:
    """Runs a session through the production `SessionRunner`, answering questions from a script; records every
    event. ``saver`` is the checkpointer the runner opens (the conftest gives in-memory and the production one)."""

    def __init__(self, saver: Any, deps: Deps, thread: str = "s1") -> None:
        self.runner = SessionRunner(deps.state_dir, thread, deps, max_concurrency=4, saver=lambda: nullcontext(saver))
        self.deps = deps
        self.events: list[dict[str, Any]] = []
        self.questions: list[dict[str, Any]] = []
        self.last: Any = None  # the runner's final item: Asked, Finished or Stopped

    def run(self, first: Any, answers: dict[str, str] | None = None, stop_at_question: bool = False) -> dict[str, Any]:
        def answer(q: Question) -> str | None:
            self.questions.append(q.payload())
            return None if stop_at_question else (answers or {}).get(q.kind, q.default)

        for item in self.runner.run(first, answer=answer):
            if isinstance(item, Emitted):
                EVENTS.validate_python(item.event)  # every event a node emits is one of the published schema
                self.events.append(item.event)
            else:
                self.last = item
        return self.last.values

    def resume(self, answers: dict[str, str]) -> dict[str, Any]:
        """Answer the questions the session waits on by kind, then run on (later questions take the default)."""
        waiting = {q.id: answers[q.kind] for q in self.runner.questions()}
        for item in self.runner.run(answers=waiting, answer=lambda q: answers.get(q.kind, q.default)):
            if isinstance(item, Emitted):
                self.events.append(item.event)
            else:
                self.last = item
        return self.last.values

    def kinds(self, event: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("event") == event]


# one task that prints two steps and writes its output
HELLO = """\
workflow:
  name: hello
  resources:
    default: {cpu: 1, memory: 256Mi}
  tasks:
  - name: hello
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo step 1/2; echo step 2/2; echo done > {{output}}/result.txt"]
"""


# twelve tasks in one group, the fourth failing: a fan-out of readers and a failed workflow
MANY = """\
workflow:
  name: many
  resources:
    default: {cpu: 0.1, memory: 64Mi}
  groups:
  - name: g
    tasks:
""" + "".join(
    f"""    - name: t{i}
      image: busybox
      {"lead: true" if i == 0 else ""}
      command: [bash, -c]
      args: ["echo task {i} step 1/1; exit {1 if i == 3 else 0}"]
"""
    for i in range(12)
)


def spec_file(tmp_path: Path, text: str, name: str = "spec.yaml") -> str:
    """``text`` written as a spec file in ``tmp_path``; its path."""
    p = tmp_path / name
    p.write_text(text)
    return str(p)
