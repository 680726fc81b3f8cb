"""`orchestrate chat`: open (or continue) a conversation and feed it lines — from the terminal, or from stdin
when there is none (scripts and tests). Ctrl-C keeps everything; `--session ID` continues."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any

from runshepherd.cli.context import CliContext


def _terminal_lines() -> Iterator[str]:
    while True:
        try:
            yield input("you> ")
        except EOFError:
            return


def chat_model(ctx: CliContext) -> Any:
    """The configured chat model, or None for the deterministic router. Errors (package, key) happen now."""
    if ctx.settings.expert == "heuristic":
        return None
    from runshepherd.experts.llm.factory import build_chat_model

    return build_chat_model(ctx.settings.expert, ctx.settings.llm)


def chat(
    ctx: CliContext,
    *,
    session: str | None,
    cadence: float | None = None,
    model: Any = None,
    lines: Iterable[str] | None = None,
    interactive: bool | None = None,
) -> int:
    from filelock import FileLock, Timeout

    from runshepherd.chat.session import ChatSession
    from runshepherd.chat.store import ChatRecord, chat_path, load
    from runshepherd.graph.checkpoint import SessionBusy
    from runshepherd.graph.runner import new_session_id

    chat_id = session or new_session_id()
    record = load(ctx.state_dir, chat_id) or ChatRecord(id=chat_id)
    model = model if model is not None else chat_model(ctx)
    tty = sys.stdin.isatty() if interactive is None else interactive
    source = lines if lines is not None else (_terminal_lines() if tty else sys.stdin)
    path = chat_path(ctx.state_dir, chat_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(path.with_suffix(".lock")))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise SessionBusy(f"chat {chat_id} is open in another orchestrate process") from None
    convo = ChatSession(ctx, record, interactive=tty, model=model, cadence=cadence)
    try:
        return convo.run(source)
    except KeyboardInterrupt:
        still = convo.stop_runs()  # each run stops at a checkpoint, so nothing is cut mid-step
        convo.persist()
        if still:
            ctx.err.print(
                f"session(s) {', '.join(still)} did not reach a safe point in time; each resumes from its last checkpoint"
            )
        ctx.err.print(f"interrupted — nothing is lost; continue with: orchestrate chat --session {chat_id}")
        return 130
    finally:
        lock.release()
