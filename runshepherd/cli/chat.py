"""`orchestrate chat`: open (or continue) a conversation and feed it lines — from the terminal, or from stdin
when there is none (scripts and tests). Ctrl-C keeps everything; `--session ID` continues."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any

from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError


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


def _unknown_chat(ctx: CliContext, chat_id: str) -> str:
    """`chat --session ID` names no conversation (a typo, another --state-dir): say so and name the closest ones,
    never start a new chat the person did not ask for."""
    import difflib

    from runshepherd.chat.store import chat_path

    folder = chat_path(ctx.state_dir, chat_id).parent
    known = sorted((p.stem for p in folder.glob("*.json")), key=lambda c: -(folder / f"{c}.json").stat().st_mtime)
    near = difflib.get_close_matches(chat_id, known, n=3, cutoff=0.5)
    listed = (
        f"closest: {', '.join(near)}"
        if near
        else f"latest: {', '.join(known[:3])}"
        if known
        else f"there are no chats in {folder.parent} yet"
    )
    return (
        f"no chat {chat_id!r} ({listed}; `orchestrate sessions` lists run sessions, which `orchestrate resume` "
        f"continues) — `orchestrate chat` starts a new chat, `orchestrate chat --session {chat_id} --new` one with "
        "this id"
    )


def _chat_exists(chat_id: str) -> str:
    return f"chat {chat_id!r} already exists — drop --new to continue it: orchestrate chat --session {chat_id}"


def chat(
    ctx: CliContext,
    *,
    session: str | None,
    new: bool = False,
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

    if ctx.settings.checkpointer:  # exit 4 before the chat opens, as `run` does: its sessions could not be kept
        from runshepherd.graph.checkpoint import open_saver

        with open_saver(ctx.state_dir, ctx.settings.checkpointer):
            pass
    chat_id = session or new_session_id()
    record = load(ctx.state_dir, chat_id)
    if session is not None and (record is None) != new:
        raise UsageError(_unknown_chat(ctx, session) if record is None else _chat_exists(session))
    record = record or ChatRecord(id=chat_id)
    model = model if model is not None else chat_model(ctx)
    tty = sys.stdin.isatty() if interactive is None else interactive
    source = lines if lines is not None else (_terminal_lines() if tty else sys.stdin)
    path = chat_path(ctx.state_dir, chat_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(path.with_suffix(".lock")))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise SessionBusy(  # said what to do: it named the chat and stopped there
            f"chat {chat_id} is open in another orchestrate process — continue it in that terminal, or end it there "
            "(`quit`, or Ctrl-D) and run this again; `orchestrate chat` starts a new chat meanwhile"
        ) from None
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
