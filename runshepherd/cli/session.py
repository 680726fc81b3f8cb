"""Drive a session: stream the graph, render events, answer questions (prompt, --yes, --answer) or pause.

Exit codes (docs/architecture.md §13.2): 0 completed; 1 failed or gave up; 2 bad input; 3 paused for an answer; 4 backend
unreachable or not logged in. A crash or Ctrl-C leaves a session that `orchestrate resume` continues.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from runshepherd.backends.base import BackendUnavailable
from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError
from runshepherd.events import OutOfScope
from runshepherd.graph.checkpoint import SessionBusy
from runshepherd.graph.context import build_deps
from runshepherd.graph.runner import new_session_id
from runshepherd.names import quoted
from runshepherd.render.session import Renderer, done_event, exit_code, paused
from runshepherd.request_text import check_request, enter, without_controls


class PromptInterrupted(Exception):
    """Ctrl-C (or end of input) at a question: leave at once."""


class PromptCanceled(Exception):
    """The person canceled the session or sweep from elsewhere (`orchestrate cancel`) while its question waited:
    the question is withdrawn. The message says who canceled it, how and when."""


Canceled = Callable[[], str | None]  # why the session or sweep was canceled from elsewhere, or None


def _prompt(payload: dict[str, Any], err: Any, canceled: Canceled | None = None) -> str:
    """Ask on the terminal until the answer is one the question lists (Enter takes the default); raises
    `PromptCanceled` as soon as ``canceled`` says the person canceled from elsewhere while it waited."""
    import typer

    from runshepherd.nodes.common import parse_answer, refusal

    choices = payload.get("choices") or ["yes", "no"]
    default = payload.get("default", choices[0])
    shown = "/".join(c.upper() if c == default else c for c in choices)
    try:
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C here means "leave now"
    except ValueError:  # asked from a worker thread (a sweep's point): the main thread keeps its handler
        previous = None
    try:
        while True:
            try:
                raw = _read_answer(f"? {payload.get('kind')}: {payload.get('text')} [{shown}]: ", canceled) or default
            except (KeyboardInterrupt, EOFError, typer.Abort) as exc:
                raise PromptInterrupted from exc
            answer = parse_answer(raw, choices, default)
            if answer is not None:
                return answer
            err.print(refusal(raw, choices), markup=False)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _read_answer(text: str, canceled: Canceled | None = None) -> str:
    """One line from the terminal, waiting in short selects rather than one blocking read.

    A Ctrl-C is delivered to whichever thread the kernel picks; when that is not the main thread, a blocking
    `input()` never sees EINTR and Python's handler would only run after the person pressed Enter (the prompt
    seemed to ignore Ctrl-C about one time in fifteen). Returning to Python every 0.2 s lets the handler run, and
    lets the prompt notice a cancel from another terminal (``canceled``: a mark file's stat, cheap at that rate)."""
    import select

    if canceled is not None and (why := canceled()):
        raise PromptCanceled(why)
    sys.stdout.write(text)
    sys.stdout.flush()
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # no real stdin (tests, embedded): a plain read
        return input()
    while not select.select([fd], [], [], 0.2)[0]:
        if canceled is not None and (why := canceled()):
            raise PromptCanceled(why)
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\r\n").strip()


def check_answer(answer: str, payload: dict[str, Any]) -> str:
    """`resume --answer`: a listed answer (or an obvious synonym) or exit 2 with nothing resumed."""
    from runshepherd.nodes.common import parse_answer, refusal

    choices = payload.get("choices") or ["yes", "no"]
    parsed = parse_answer(answer, choices, payload.get("default", choices[0])) if answer.strip() else None
    if parsed is None:
        raise UsageError(f"{refusal(answer, choices)} (question: {payload.get('text')})")
    return parsed


def drive(
    ctx: CliContext,
    *,
    session: str,
    first_input: Any,
    deps: Any,
    as_json: bool,
    interactive: bool,
    answer: str | None = None,
) -> int:
    renderer = Renderer(session=session, as_json=as_json, out=ctx.out)
    if ctx.settings.notify:
        from runshepherd.notify.session import SessionNotifier

        renderer.notifier = SessionNotifier(ctx.settings, session)
    try:
        return _drive(
            ctx, renderer, session=session, first_input=first_input, deps=deps, interactive=interactive, answer=answer
        )
    finally:
        if renderer.notifier is not None:
            renderer.notifier.close()
            for line in renderer.notifier.notifier.undelivered_lines():  # the person asked to be told: say it failed
                (ctx.err if as_json else ctx.out).print(f"warning: {line}", markup=False)


def _drive(
    ctx: CliContext,
    renderer: Renderer,
    *,
    session: str,
    first_input: Any,
    deps: Any,
    interactive: bool,
    answer: str | None,
) -> int:
    """Render one `SessionRunner` run on the terminal (or as JSON lines); the runner does the driving."""
    from runshepherd.graph.runner import Asked, Emitted, Finished, Question, Stopped

    runner = ctx.runner(session, deps)
    answers = None
    if answer is not None:
        waiting = runner.questions()
        if not waiting:
            raise UsageError(
                f"session {session} is not waiting for an answer; run `orchestrate resume {quoted(session)}`"
            )
        answers = {q.id: check_answer(answer, q.payload()) for q in waiting}
    interrupted = False
    withdrawn = False  # the person canceled the session from elsewhere while it waited here
    from runshepherd.cancel_mark import withdrawn as withdrawn_line
    from runshepherd.render.live import LiveLine

    live = LiveLine(ctx.out) if not renderer.as_json else None
    canceled = getattr(deps, "halt_reason", None)

    def ask(q: Question) -> str | None:
        nonlocal interrupted, withdrawn
        if live is not None:
            live.stop()
        if withdrawn:  # asked again after the cancel: pause rather than answer anything
            return None
        why = canceled() if canceled is not None else None
        if why is None:
            renderer.question(q.id, q.payload())
            if not interactive or interrupted:
                return None
            try:
                return _prompt(q.payload(), ctx.err, canceled)
            except PromptInterrupted:
                interrupted = True
                return None
            except PromptCanceled as exc:
                why = str(exc)
            finally:
                if live is not None and not interrupted:
                    live.start()
        # The cancel is final: the question's node, run again, sees the cancel first and ends the session CANCELED
        # without reading this placeholder answer (nothing is submitted or fixed).
        withdrawn = True
        ctx.err.print(f"\n{withdrawn_line(why)}", markup=False, soft_wrap=True)
        return "withdrawn by the cancel"

    previous = _install_ctrl_c(runner, session)
    if live is not None:
        live.start()
    try:
        for item in runner.run(first_input, answers=answers, answer=ask):
            if live is not None and not isinstance(item, Emitted):
                live.stop()
            if isinstance(item, Emitted):
                renderer.event(item.event)
                if live is not None:
                    live.saw(item.event)
            elif isinstance(item, Asked):
                if interrupted:
                    return _stopped(ctx, item.values, session)
                if withdrawn:
                    return exit_code({"outcome": "CANCELED"})  # withdrawn by the cancel: 1
                for q in item.questions:
                    renderer.question(q.id, q.payload())
                return _paused(ctx, renderer, session, item.questions[0].payload())
            elif isinstance(item, Stopped):
                return _stopped(ctx, item.values, session)
            elif isinstance(item, Finished):
                return _done(ctx, renderer, session, item.values)
    except BackendUnavailable as exc:
        ctx.err.print(f"error: {exc}\nthe session is paused; continue with: orchestrate resume {quoted(session)}")
        return exc.exit_code
    finally:
        if live is not None:
            live.stop()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
    raise RuntimeError("the session runner ended without a result")  # pragma: no cover - run() always yields one


def _stopped(ctx: CliContext, values: dict[str, Any] | None, session: str) -> int:
    """Ctrl-C: say what is true — a submitted workflow keeps running; otherwise nothing was submitted."""
    ids = list((values or {}).get("workflow_ids") or [])
    running = f"{', '.join(ids)} keeps running" if ids else "nothing was submitted"
    ctx.err.print(
        f"\nstopped — nothing is lost; {running}. Continue with: orchestrate resume {quoted(session)}",
        markup=False,
        soft_wrap=True,
    )
    return 130


def _install_ctrl_c(runner: Any, session: str) -> Any:
    """First Ctrl-C: stop at the next safe point (a checkpoint; the monitor returns within a second).
    Second Ctrl-C: leave at once — the last checkpoint and the idempotency keys make that safe too."""

    def handler(signum: int, frame: Any) -> None:
        if runner.stopping:
            sys.stderr.write(f"\nstopped at once; continue with: orchestrate resume {quoted(session)}\n")
            sys.stderr.flush()
            os._exit(130)
        runner.stop("Ctrl-C")
        sys.stderr.write("\nstopping at the next safe point (Ctrl-C again to stop at once)…\n")
        sys.stderr.flush()

    def on_term(signum: int, frame: Any) -> None:
        # SIGTERM (a scheduler, systemd, `kill`): leave at once — every step is checkpointed — and say where to resume
        sys.stderr.write(
            f"\nstopped by SIGTERM; nothing is lost. Continue with: orchestrate resume {quoted(session)}\n"
        )
        sys.stderr.flush()
        os._exit(143)

    try:
        previous = signal.signal(signal.SIGINT, handler)
        signal.signal(signal.SIGTERM, on_term)
        return previous
    except ValueError:  # not the main thread (chat drives sessions from a worker thread): leave the signals alone
        return None


def _paused(ctx: CliContext, renderer: Renderer, session: str, payload: dict[str, Any]) -> int:
    return paused(renderer, session, payload)


def _done(ctx: CliContext, renderer: Renderer, session: str, values: dict[str, Any]) -> int:
    renderer.done(values)
    return exit_code(done_event(values))


def make_deps(
    ctx: CliContext, session: str, *, yes: bool, cadence: float | None, max_fixes: int | None, chat_model: Any = None
) -> Any:
    return build_deps(
        ctx.backend,
        ctx.settings,
        ctx.state_dir,
        session,
        yes=yes,
        cadence=cadence,
        max_fixes=max_fixes,
        chat_model=chat_model,
    )


_SET_NEEDS_SPEC = (
    "--set fills a spec's default-values (with --spec FILE); for a request, say it in words, "
    'e.g. orchestrate "train a small classifier for 5 epochs with lr 0.1"'
)


def _refuse_a_question(request: str | None, spec: Path | None) -> None:
    """'what is the status of tiny-1', 'cancel tiny-1' ask about a workflow: planning them would train the demo."""
    from runshepherd.chat.intents import cli_command_for

    if request and spec is None and (command := cli_command_for(request)) is not None:
        raise UsageError(f"{request!r} asks about a workflow; it is not a job to run — use: {command}")
    if request and spec is None and (named := _spec_named(request)) is not None:
        raise UsageError(
            f"{named} is a workflow spec, not a script or data the plan can use — run it with: "
            f"orchestrate run --spec {named} (its default-values: --set KEY=VALUE)"
        )


def _spec_named(request: str) -> str | None:
    """A workflow spec named in a request with no script (`"run examples/train-classifier.yaml"`): planning it
    asked whether to train the demo on it as data. A YAML file that is not a spec (a script's config) is not one."""
    import re

    if re.search(r"[\w./~-]+\.(?:py|sh)\b", request):
        return None
    for name in re.findall(r"(?<![\w/.-])([\w./~-]+\.ya?ml)\b", request):
        path = Path(name).expanduser()
        try:
            with path.open("rb") as f:
                head = f.read(65536) if path.is_file() else b""
        except OSError:
            continue
        if re.search(rb"^workflow\s*:", head, re.M):
            return name
    return None


def check_settings(ctx: CliContext) -> None:
    """Settings a session reads only later (notify targets, the expert) are checked before it exists: a bad one
    is exit 2 now, not an error after `session X (resume with …)` was printed for a session never made."""
    from runshepherd.experts.base import make_expert
    from runshepherd.notify import parse_targets

    parse_targets(ctx.settings.notify, ctx.settings.smtp)
    make_expert(ctx.settings.expert, settings=ctx.settings)


def check_new_session(
    ctx: CliContext,
    *,
    request: str | None,
    spec: Path | None,
    sets: list[str],
    session: str | None,
    pool: str | None = None,
) -> None:
    """What `run` refuses before anything starts, checked before a detached session is spawned or an MCP
    `start_run` answers with a session id (neither has a terminal to say it on later)."""
    from runshepherd.experts.scope import out_of_scope
    from runshepherd.graph.checkpoint import check_reachable
    from runshepherd.spec import load_spec_file, parse_set_values

    request = check_request(request)
    if not without_controls(request or "").strip() and spec is None:
        raise UsageError('say what to run, e.g. orchestrate "train a small classifier for 3 epochs", or --spec FILE')
    if request:  # what `run` reads: the request through the door (`_entered`)
        request = enter(request, left_out_of="the session, the plan and the job").text
    if request and spec is None and (verdict := out_of_scope(request)) is not None:
        raise UsageError(verdict.text())
    _refuse_a_question(request, spec)
    set_values = parse_set_values(sets)
    spec_pool = None
    if spec is not None:
        spec_pool = load_spec_file(spec, set_values=set_values).workflow.pool
    elif sets and (request is None or _recipe_plan(request) is None):
        raise UsageError(_SET_NEEDS_SPEC)
    ctx.check_pool(pool or spec_pool, "--pool" if pool else f"the spec's pool ({spec})")
    check_settings(ctx)
    check_reachable(ctx.settings.checkpointer)  # the detached process would only write this to its log
    if session is None:
        return
    if ctx.runner(session).exists():
        raise UsageError(f"session {session} already exists; continue it with `orchestrate resume {quoted(session)}`")


def run(
    ctx: CliContext,
    *,
    request: str | None,
    spec: Path | None,
    sets: list[str],
    pool: str | None,
    session: str | None,
    yes: bool,
    no_input: bool,
    as_json: bool,
    max_fixes: int | None,
    cadence: float | None,
) -> int:
    from runshepherd.spec import load_spec_file, parse_set_values

    request = check_request(request)
    if not without_controls(request or "").strip() and spec is None:
        raise UsageError('say what to run, e.g. orchestrate "train a small classifier for 3 epochs", or --spec FILE')
    session = session or new_session_id()
    request, not_used = _entered(ctx, request, session, as_json)
    if request and spec is None and (refused := _out_of_scope(ctx, request, as_json)) is not None:
        return refused
    _refuse_a_question(request, spec)
    if request and spec is None and (plan := _recipe_plan(request)) is not None:
        from runshepherd.cli.recipes import run_plan

        if plan.submissions > 1:
            return run_plan(
                ctx,
                plan,
                request=request,
                not_used=not_used,
                sets=sets,
                pool=pool,
                session=session,
                yes=yes,
                as_json=as_json,
                cadence=cadence,
            )
        # one run: the recipe's spec goes through the session like any spec (watched, diagnosed, fixed)
        spec = ctx.state_dir / "recipes" / f"{session}-{plan.recipe.name}.yaml"
        spec.parent.mkdir(parents=True, exist_ok=True)
        spec.write_text(plan.recipe.text(), encoding="utf-8")
    if spec is None and sets:  # a drafted spec has no default-values: the value would be ignored
        raise UsageError(_SET_NEEDS_SPEC)
    set_values = parse_set_values(sets)
    spec_pool = None
    if spec is not None:
        doc = load_spec_file(spec, set_values=set_values)  # bad input fails here: exit 2, no session created
        spec_pool = doc.workflow.pool
    ctx.check_pool(pool or spec_pool, "--pool" if pool else f"the spec's pool ({spec})")
    if max_fixes is not None and max_fixes < 0:
        raise UsageError("--max-fixes must be 0 or more")
    sid = session or new_session_id()

    if ctx.runner(sid).exists():
        raise UsageError(f"session {sid} already exists; continue it with `orchestrate resume {quoted(sid)}`")
    check_settings(ctx)
    deps = make_deps(ctx, sid, yes=yes, cadence=cadence, max_fixes=max_fixes)  # the expert: a bad one fails here
    if not as_json:  # only now: every refusal above leaves no session to resume
        ctx.out.print(f"session {sid} (resume with: orchestrate resume {quoted(sid)})", markup=False)
    first = {
        "request": request or f"run {spec}",
        "request_not_used": not_used,
        "spec_path": str(spec.resolve()) if spec else None,
        "set_values": set_values,
        "pool": pool,
    }
    interactive = not no_input and sys.stdin.isatty()
    return drive(ctx, session=sid, first_input=first, deps=deps, as_json=as_json, interactive=interactive)


def _entered(ctx: CliContext, request: str | None, session: str, as_json: bool) -> tuple[str | None, list[str]]:
    """The request through the door (`request_text.enter`) and the plan's words for what it cut out. A secret
    pasted into a request must not reach a checkpoint, a spec, a name or a model: it is redacted, and said so at
    once — the job will not get it, and the person should know before it runs without it."""
    from runshepherd.events import Message

    if not request:
        return request, []
    entered = enter(request, left_out_of="the session, the plan and the job")
    if (text := entered.secret_warning) is not None:
        if as_json:
            ctx.print_json(Message(level="warning", text=text, session=session).wire())
        else:
            ctx.out.print(f"  warning: {text}", markup=False)
    return entered.text, entered.not_used


def _recipe_plan(request: str) -> Any:
    """A request a recipe sizes ("about 1000 images" at 60 per run → 17 runs); None otherwise."""
    from runshepherd.recipes import plan_from_request

    return plan_from_request(request)


def _out_of_scope(ctx: CliContext, request: str, as_json: bool) -> int | None:
    """A request about running the platform, not a job on it: a plain answer, exit 2, no session, no backend call."""
    from runshepherd.experts.scope import out_of_scope

    verdict = out_of_scope(request)
    if verdict is None:
        return None
    if as_json:
        ctx.print_json({**OutOfScope(**verdict.model_dump()).wire(), "session": None})
    else:
        ctx.out.print(verdict.text(), markup=False)
    return 2


def resume(
    ctx: CliContext,
    *,
    session: str,
    answer: str | None,
    yes: bool,
    no_input: bool,
    as_json: bool,
    cadence: float | None = None,
    max_fixes: int | None = None,
) -> int:
    from runshepherd.graph.runner import SessionRunner

    snap = ctx.runner(session).snapshot()
    if not snap.values:
        from runshepherd.cli.sweep import resume as resume_sweep

        code = resume_sweep(
            ctx,
            sid=session,
            yes=yes,
            no_input=no_input,
            as_json=as_json,
            answer=answer,
            cadence=cadence,
            max_fixes=max_fixes,
        )
        if code is not None:
            return code
        raise UsageError(f"no session {session!r} — `orchestrate sessions` lists them")
    if SessionRunner.ended(snap):
        values = snap.values
        if answer is not None:  # was: the answer dropped without a word and the old result shown (exit 0 or 1)
            raise UsageError(nothing_to_answer(session, values, answer))
        renderer = Renderer(session=session, as_json=as_json, out=ctx.out)
        return _done(ctx, renderer, session, values)
    if (busy := driven_elsewhere(ctx, session, snap.values)) is not None:  # before "not waiting": it is driven
        raise SessionBusy(busy)
    deps = make_deps(ctx, session, yes=yes, cadence=cadence, max_fixes=max_fixes)
    say_resumed(ctx, session, reattached(session, snap.values), as_json)
    if answer is not None and (why := canceled_while_paused(ctx.state_dir, session, snap.values)) is not None:
        # The cancel is final: the session is ended as it says (its question's node sees the cancel first), and the
        # answer is refused like one to an ended session (exit 2), never taken as a run that failed (was exit 1).
        asked = [q.payload() for q in ctx.runner(session).questions()]
        drive(ctx, session=session, first_input=None, deps=deps, as_json=as_json, interactive=False)
        raise UsageError(canceled_answer(why, answer, asked, "session"))
    interactive = not no_input and sys.stdin.isatty()
    try:
        return drive(
            ctx, session=session, first_input=None, deps=deps, as_json=as_json, interactive=interactive, answer=answer
        )
    except SessionBusy as exc:  # took the lock between the look above and the run
        raise SessionBusy(driven_elsewhere(ctx, session, snap.values) or str(exc)) from None


def say_resumed(ctx: CliContext, session: str, line: str, as_json: bool) -> None:
    """The first line of a resume, like a fresh run's first line: what it took up, before its next event. With
    --json an info message, so a script (and a detached sweep's `attach`) sees it too (was: the terminal only)."""
    from runshepherd.events import Message

    if as_json:
        ctx.print_json(Message(level="info", text=line, session=session).wire())
    else:
        ctx.out.print(line, markup=False)


def reattached(session: str, values: dict[str, Any]) -> str:
    """The first line `resume` prints: the workflow it re-attached to and the state last seen, or that nothing was
    submitted yet. Before, a session whose process was killed mid-run resumed with its next progress line, so the
    person could not tell which run (or attempt) they were now watching."""
    attempt = values.get("attempt") or {}
    if wf := attempt.get("workflow_id"):
        seen = (values.get("last_status") or {}).get("status") or "SUBMITTED"
        return f"session {session}: re-attached to {wf} (attempt {attempt.get('n', 1)}, last seen {seen})"
    if ids := values.get("workflow_ids"):  # a retry or fix approved, its attempt not submitted yet
        return f"session {session}: resumed — attempt {attempt.get('n')} is not submitted yet (the last was {ids[-1]})"
    planned = f"{values['spec_name']} is planned, " if values.get("spec_name") else ""
    return f"session {session}: resumed — {planned}nothing submitted yet"


def nothing_to_answer(session: str, values: dict[str, Any], answer: str) -> str:
    """`resume --answer` on a finished session: it has ended (its outcome) and asks nothing, so the answer is unused."""
    todo = f"`orchestrate resume {quoted(session)}` without --answer shows its result"
    return ended_answer(f"session {session}", done_event(values), answer, todo)


def ended_answer(who: str, done: dict[str, Any], answer: str, todo: str) -> str:
    """`resume --answer` on a session or sweep (``who``) that has ended as ``done`` (a `done` event's outcome,
    reason, declined) says how it ended, that there is no question so the answer was not used, and ``todo``."""
    if done.get("declined"):
        ended = str(done.get("reason") or "not submitted, as you said")
    else:
        reason = done.get("reason") if done.get("outcome") != "COMPLETED" else None
        ended = f"{done.get('outcome')}" + (f" — {reason}" if reason else "")
    return (
        f"{who} has already ended: {ended.rstrip(' .')}. There is no question to answer, so --answer "
        f"{quoted(answer)} was not used; {todo}"
    )


def canceled_answer(why: str, answer: str, asked: list[dict[str, Any]], what: str) -> str:
    """`resume --answer` on a session or sweep (`what`) the person canceled while it waited: who canceled it and
    when, the question, and that the answer was not applied."""
    question = f" at its question ({asked[0].get('kind')}: {asked[0].get('text')})" if asked else " at its question"
    return (
        f"{why.rstrip(' .')} while it waited{question}, so --answer {quoted(answer)} was not applied; the {what} "
        "ended CANCELED and nothing more is submitted or fixed (a cancel is final: start a new one to run it again)"
    )


def driven_elsewhere(ctx: CliContext, session: str, values: dict[str, Any]) -> str | None:
    """A session another process drives now (a `run` in another terminal, a detached run, a sweep, the chat, MCP):
    who (the pid and host its driver recorded) and what the person can do from here; None when no one drives it."""
    from runshepherd.cli import detached
    from runshepherd.graph.checkpoint import driver, session_driven

    if not session_driven(ctx.state_dir, session, ctx.settings.checkpointer):
        return None
    who = driver(ctx.state_dir, session, ctx.settings.checkpointer)
    head = f"session {session} is being driven by another orchestrate process" + (f" ({who})" if who else "")
    point = values.get("sweep_point") or {}
    if detached.running(ctx.state_dir, session):
        todo = (
            f"it runs in the background: follow it with `orchestrate attach {quoted(session)}`; when it stops at a "
            f"question, `orchestrate resume {quoted(session)} --answer …` answers it"
        )
    elif point.get("sweep"):
        sweep = str(point["sweep"])
        todo = f"it is point #{point.get('index')} of sweep {sweep}, whose process asks its questions: " + (
            f"follow it with `orchestrate attach {quoted(sweep)}`"
            if detached.running(ctx.state_dir, sweep)
            else "answer or follow it where that sweep runs"
        )
    else:
        todo = (
            "answer or follow it where it runs, or stop it there (Ctrl-C; nothing is lost) and run "
            f"`orchestrate resume {quoted(session)}`"
        )
    return (
        f"{head}, so it is not waiting for an answer here — {todo}; `orchestrate cancel {quoted(session)}` cancels it"
    )


def sessions(ctx: CliContext, as_json: bool) -> None:
    from runshepherd.cli import detached
    from runshepherd.graph.checkpoint import db_path, open_saver, session_driven, thread_ids
    from runshepherd.graph.runner import read_session
    from runshepherd.spec.secrets import stored_secrets

    rows: list[dict[str, Any]] = []
    url = ctx.settings.checkpointer
    if url or db_path(ctx.state_dir).exists():
        with open_saver(ctx.state_dir, url) as saver:  # an unreachable session database is said before langgraph loads
            for tid in thread_ids(saver)[:100]:
                snap = read_session(saver, tid)
                v = snap.values or {}
                question = snap.interrupts[0].value.get("text") if snap.interrupts else None
                state = v.get("outcome") or ("waiting" if snap.interrupts else "stopped" if snap.next else "unknown")
                if not v.get("outcome") and canceled_while_paused(ctx.state_dir, tid, v):
                    state, question = "canceled", None  # its question was withdrawn; a resume only ends it
                if detached.running(ctx.state_dir, tid) or (
                    state == "stopped" and session_driven(ctx.state_dir, tid, url)
                ):
                    state = "running"  # in the background, or driven by a process (a sweep drives its points)
                rows.append(
                    {
                        "session": tid,
                        "request": v.get("request"),
                        "state": state,
                        "workflow": (v.get("attempt") or {}).get("workflow_id"),
                        "last_update": snap.created_at,
                        "question": question,
                        "declined": bool(v.get("declined")),  # CANCELED by the person's "no" before submitting
                        "spec_secrets": stored_secrets(v),  # kept from before specs with secrets were refused
                    }
                )
    rows += _sweeps_at_their_plan(ctx.state_dir)
    listed = {r["session"] for r in rows}
    for sid in detached.detached_sessions(ctx.state_dir):  # started in the background, no checkpoint yet
        if sid not in listed and detached.running(ctx.state_dir, sid):
            rows.append(
                {
                    "session": sid,
                    "request": None,
                    "state": "running",
                    "workflow": None,
                    "last_update": None,
                    "question": None,
                    "declined": False,
                    "spec_secrets": [],
                }
            )
    if as_json:
        ctx.print_json({"sessions": rows})
        return
    if not rows:
        ctx.out.print('no sessions yet — start one with: orchestrate "train a small classifier for 3 epochs"')
        return
    from runshepherd.cli.tables import Col, fitted_table

    # One line per session at any width (80 columns included), like `list` and `pools`: the id and the state always
    # show; narrow terminals shorten the time and "stopped by you" (was: the workflow dropped at 80 columns beside
    # it), then drop the updated time (the workflow is what `status`, `logs` and `watch` take), then the workflow
    # (the time comes back when it fits); the request (or the question it waits on) takes the room left, cut with "…".
    times = [(r["last_update"] or "-")[:16].replace("T", " ") if r["last_update"] else "-" for r in rows]
    states = [("stopped by you", "you said no") if r["declined"] else (r["state"], r["state"]) for r in rows]
    table, _ = fitted_table(
        [
            Col("Session", [r["session"] for r in rows]),
            Col("State", [long for long, _ in states], short=("State", [short for _, short in states]), shorten=1),
            Col("Workflow", [r["workflow"] or "-" for r in rows], drop=3),
            Col("Updated", times, short=("Updated", [t[5:] if t != "-" else t for t in times]), shorten=1, drop=2),
            Col(
                "Request · waiting for",
                [" ".join((f"? {r['question']}" if r["question"] else (r["request"] or "-")).split()) for r in rows],
                fill=True,
            ),
        ],
        ctx.out.width,
    )
    ctx.out.print(table)
    for r in rows:
        if r.get("spec_secrets"):
            ctx.out.print(
                f"warning: session {r['session']} keeps a literal secret ({', '.join(r['spec_secrets'])}) in its "
                "stored spec, saved before specs with secrets were refused; nothing here removes it"
                + (f" ({r['workflow']}'s record and the scheduler hold the same spec)" if r["workflow"] else "")
                + ": rotate that secret",
                markup=False,
            )


def _sweeps_at_their_plan(state_dir: Path) -> list[dict[str, Any]]:
    """Sweeps paused at their plan (`run --sweep --no-input`): no point has a session yet, the sweep waits."""
    from runshepherd.sweep.status import read_record

    rows: list[dict[str, Any]] = []
    for path in sorted((state_dir / "sweeps").glob("*/sweep.json")):
        record = read_record(state_dir, path.parent.name)
        if record is None or record.get("approved") is not False:
            continue
        state_ended = bool(record.get("canceled") or record.get("declined"))
        rows.append(
            {
                "session": path.parent.name,
                "request": f"sweep of {len(record.get('points') or [])} point(s) from {record.get('spec')}",
                "state": "canceled" if state_ended else "waiting",
                "workflow": None,
                "last_update": None,
                "question": None if state_ended else (record.get("question") or {}).get("text"),
                "declined": bool(record.get("declined")),
                "spec_secrets": [],
            }
        )
    return rows


def canceled_while_paused(state_dir: Path, session: str, values: dict[str, Any]) -> str | None:
    """Why this unfinished session is over, if the person canceled it (or the sweep it is a point of) while no
    process drove it ("session S was canceled by you (…)"); None if not."""
    from runshepherd.cancel_mark import session_halted
    from runshepherd.sweep.cancel import halted

    sweep = (values.get("sweep_point") or {}).get("sweep")
    check = halted(state_dir, str(sweep), session) if sweep else session_halted(state_dir, session)
    return check()


def migrate(ctx: CliContext, to: str, as_json: bool) -> None:
    """Copy the state dir's SQLite sessions into PostgreSQL; the SQLite file is left as it was."""
    from runshepherd.graph.checkpoint import db_path, is_postgres, open_saver, shown_url, thread_ids
    from runshepherd.graph.migrate import copy_sessions

    if not is_postgres(to):
        raise UsageError(f"migrate-sessions {to!r}: copy into a postgresql://USER@HOST:PORT/DB URL")
    if not db_path(ctx.state_dir).exists():
        raise UsageError(f"no sessions to copy: {db_path(ctx.state_dir)} does not exist (check --state-dir)")
    with open_saver(ctx.state_dir) as src, open_saver(ctx.state_dir, to) as dst:
        report = copy_sessions(src, dst, thread_ids(src))
    if as_json:
        ctx.print_json({"to": shown_url(to), **report.model_dump()})
        return
    ctx.out.print(
        f"● copied {len(report.copied)} session(s) ({report.checkpoints} checkpoints, {report.writes} pending "
        f"writes) to {shown_url(to)}",
        markup=False,
    )
    if report.skipped:
        ctx.out.print(f"  skipped (already there): {', '.join(report.skipped)}", markup=False)
    ctx.out.print(
        f"  use them with --checkpointer {shown_url(to)} or `checkpointer:` in the config; "
        f"{db_path(ctx.state_dir)} is unchanged",
        markup=False,
    )
