"""Detached sessions: `orchestrate run … --detach` runs the same session in a background process (its own
session, so closing the terminal does not stop it) whose `--json` event stream goes to a file;
`orchestrate attach SESSION` follows that stream; `orchestrate sessions` shows the session as running.

The background process is the ordinary `orchestrate run --json --no-input`: one session runner, one event
model. A question pauses it (as `--no-input` always does); `attach` shows the question and how to answer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import psutil
from pydantic import BaseModel

from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError
from runshepherd.events import Detached
from runshepherd.render.prefixed import Prefixed as _Prefixed


class DetachedRecord(BaseModel):
    session: str
    pid: int
    create_time: float | None = None
    started_at: datetime
    events: str
    log: str


def _dir(state_dir: Path) -> Path:
    return Path(state_dir) / "detached"


def _record_path(state_dir: Path, session: str) -> Path:
    return _dir(state_dir) / f"{session}.json"


def read(state_dir: Path, session: str) -> DetachedRecord | None:
    from pydantic import ValidationError

    from runshepherd.environment import damaged_file

    path = _record_path(state_dir, session)
    try:
        return DetachedRecord.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        return None
    except ValidationError:
        raise damaged_file(path, "a background-session record") from None


def running(state_dir: Path, session: str) -> bool:
    """True while the session's background process (the same process, not a reused pid) runs."""
    return _alive(read(state_dir, session))


def _alive(rec: DetachedRecord | None) -> bool:
    from runshepherd.backends.local.store import process_alive

    return rec is not None and process_alive(rec.pid, rec.create_time)


def running_elsewhere(state_dir: Path, session: str) -> bool:
    """True while the session's background process runs and is not this one: that process resumes its own sweep
    (`start(command="resume")`), which must not read as someone else driving it. The record is read once (was
    twice: a record rewritten between the reads could pair one process's pid with another's liveness)."""
    rec = read(state_dir, session)
    return rec is not None and rec.pid != os.getpid() and _alive(rec)


def detached_sessions(state_dir: Path) -> list[str]:
    base = _dir(state_dir)
    return sorted(p.stem for p in base.glob("*.json")) if base.is_dir() else []


def start(ctx: CliContext, session: str, run_args: list[str], as_json: bool, *, command: str = "run") -> int:
    """Spawn `orchestrate run <run_args> --session S --json --no-input` in the background and return at once
    (``command="resume"``: `orchestrate resume S <run_args> --json --no-input`, a sweep whose plan was approved)."""
    state_dir = ctx.state_dir
    base = _dir(state_dir)
    base.mkdir(parents=True, exist_ok=True)
    if running(state_dir, session):
        raise UsageError(f"session {session} is already running in the background — `orchestrate attach {session}`")
    events, log = base / f"{session}.events.jsonl", base / f"{session}.log"
    argv = [sys.executable, "-m", "runshepherd.cli.main"]
    if command == "resume":
        argv += ["resume", session, *run_args, "--json", "--no-input"]
    else:
        argv += ["run", *run_args, "--session", session, "--json", "--no-input"]
    with open(events, "wb") as out, open(log, "ab") as err:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,  # closing the terminal does not stop it
            env={**os.environ, "RUNSHEPHERD_STATE_DIR": str(state_dir)},
        )
    try:
        created: float | None = psutil.Process(proc.pid).create_time()
    except psutil.Error:
        created = None
    rec = DetachedRecord(
        session=session,
        pid=proc.pid,
        create_time=created,
        started_at=datetime.now(UTC),
        events=str(events),
        log=str(log),
    )
    tmp = _record_path(state_dir, session).with_suffix(".tmp")
    tmp.write_text(rec.model_dump_json(indent=2), encoding="utf-8")
    tmp.replace(_record_path(state_dir, session))
    if as_json:
        ctx.print_json(Detached(session=session, pid=proc.pid, events=str(events)).wire())
    else:
        ctx.out.print(
            f"session {session} runs in the background (pid {proc.pid})\n"
            f"  follow it: orchestrate attach {session}   ·   list: orchestrate sessions",
            markup=False,
        )
    return 0


def attach(ctx: CliContext, session: str, as_json: bool, *, poll: float = 0.2) -> int:
    """Print the session's events from the start, then follow until it ends (Ctrl-C detaches, never stops it)."""
    rec = read(ctx.state_dir, session)
    if rec is None:
        from runshepherd.graph.checkpoint import has_session
        from runshepherd.sweep.status import read_record

        known = has_session(ctx.state_dir, session, ctx.settings.checkpointer) or read_record(ctx.state_dir, session)
        if not known:
            raise UsageError(f"no session {session!r} — `orchestrate sessions` lists them")
        raise UsageError(
            f"session {session!r} was not started with --detach — `orchestrate sessions` lists sessions; "
            f"`orchestrate resume {session}` continues one in this terminal"
        )
    from runshepherd.render.session import Renderer

    renderers: dict[str, Any] = {}

    def renderer_for(ev: dict[str, Any]) -> Any:
        """A sweep's stream carries every point's events under its own session: each is shown with its [pN]."""
        sid = str(ev.get("session") or session)
        if sid not in renderers:
            point = sid[len(session) + 2 :] if sid.startswith(f"{session}-p") else ""
            out = cast(Any, _Prefixed(ctx.out, f"[p{point}] ")) if point.isdigit() else ctx.out
            renderers[sid] = Renderer(session=sid, as_json=as_json, out=out)
        return renderers[sid]

    path = Path(rec.events)
    offset = 0
    buf = b""
    last: dict[str, Any] | None = None
    try:
        while True:
            alive = running(ctx.state_dir, session)
            try:
                with path.open("rb") as fh:
                    fh.seek(offset)
                    chunk = fh.read()
            except FileNotFoundError:
                chunk = b""
            offset += len(chunk)
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for raw in lines:
                if not raw.strip():
                    continue
                try:
                    ev = json.loads(raw)
                except json.JSONDecodeError:
                    continue
                last = ev
                _show(ctx, renderer_for(ev), ev, as_json)
            if not alive and not chunk:
                break
            time.sleep(poll)
    except KeyboardInterrupt:
        ctx.err.print(f"detached; session {session} keeps running — `orchestrate attach {session}` again", markup=False)
        return 0
    if last is None or last.get("event") != "done":  # killed, out of memory, the machine restarted: say what to do
        ctx.err.print(
            f"session {session}: its background process (pid {rec.pid}) has stopped without a result — nothing "
            f"is lost: `orchestrate resume {session}` continues it from its last checkpoint; its log: {rec.log}",
            markup=False,
        )
        return 1
    from runshepherd.render.session import exit_code

    return exit_code(last)


def _show(ctx: CliContext, renderer: Any, ev: dict[str, Any], as_json: bool) -> None:
    if as_json:
        ctx.print_json(ev)
        return
    kind = ev.get("event")
    if kind == "question":  # through the event's own console: a sweep point's question carries its [pN]
        renderer.out.print(f"? {ev.get('kind')}: {ev.get('text')}", markup=False)
    elif kind == "done":
        session = ev.get("session")
        if ev.get("results") is not None:  # a sweep: its comparison, as the foreground sweep prints it
            from runshepherd.sweep.results import table_markdown

            for row in table_markdown(ev["results"], ev.get("best")).splitlines():
                ctx.out.print(row, markup=False)
        if ev.get("paused"):
            ctx.out.print(
                f"session {session} paused, waiting for your answer. Continue with:\n  {ev.get('resume')}", markup=False
            )
        else:
            from runshepherd.render.session import done_line

            ctx.out.print(done_line(str(session), ev), markup=False)
            if ev.get("status_artifact"):
                ctx.out.print(f"status: {ev['status_artifact']}", markup=False)
    else:
        renderer.event(ev)
