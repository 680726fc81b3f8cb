"""`orchestrate run --spec S --sweep KEY=V1,V2 [--repeat N] [--max-parallel K]`: check the input, write each
point's spec, then hand the sweep to `runshepherd.sweep.driver` (one question for the plan, one comparison)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError
from runshepherd.graph.runner import new_session_id
from runshepherd.names import quoted


def run(
    ctx: CliContext,
    *,
    request: str | None,
    spec: Path | None,
    sweeps: list[str],
    repeat: int,
    max_parallel: int | None,
    sets: list[str],
    pool: str | None,
    session: str | None,
    yes: bool,
    no_input: bool,
    as_json: bool,
    max_fixes: int | None,
    cadence: float | None,
    detach: bool = False,
    config: Path | None = None,
    backend: str | None = None,
) -> int:
    """The sweep in this terminal, or (``detach``) its plan asked here and the points run by a background
    `orchestrate resume SWEEP` (the same detached-session machinery as `run --detach`)."""
    from runshepherd.sweep.driver import run_sweep

    sweep = prepare(
        ctx,
        spec=spec,
        sweeps=sweeps,
        repeat=repeat,
        max_parallel=max_parallel,
        sets=sets,
        pool=pool,
        session=session,
        yes=yes,
        interactive=not no_input and sys.stdin.isatty(),
        max_fixes=max_fixes,
        cadence=cadence,
        quiet=as_json,
    )
    if detach:
        return _detach(ctx, sweep, as_json=as_json, config=config, backend=backend)
    return run_sweep(ctx, sweep, as_json=as_json)


def prepare(
    ctx: Any,
    *,
    spec: Path | None,
    sweeps: list[str],
    repeat: int,
    max_parallel: int | None,
    sets: list[str],
    pool: str | None,
    session: str | None,
    yes: bool,
    interactive: bool,
    max_fixes: int | None,
    cadence: float | None,
    prompt: Any = None,
    quiet: bool = False,
    terms: Any = None,
) -> Any:
    """Check the input and write each point's spec (bad input is exit 2 here, before anything is submitted);
    the `Sweep` to run. Shared by `run --sweep`, `run --sweep --detach` and the chat (``terms``: how its errors
    word the sweep, `sweep.points.CHAT_TERMS` there)."""
    from runshepherd.spec import load_spec_file, load_spec_text, parse_set_values
    from runshepherd.sweep.driver import Point, Sweep
    from runshepherd.sweep.points import (
        CLI_TERMS,
        SEED_KEYS,
        check_keys,
        expand,
        label,
        parse_sweeps,
        point_spec,
        spec_keys,
    )

    terms = terms or CLI_TERMS

    if spec is None:
        raise UsageError(
            "a sweep runs a spec: pass --spec FILE with the swept keys under its `default-values:`, e.g. "
            "orchestrate run --spec examples/sweep-lr.yaml --sweep lr=1e-3,3e-4"
        )
    if max_parallel is not None and max_parallel < 1:
        raise UsageError("--max-parallel must be 1 or more")
    set_values = parse_set_values(sets)
    load_spec_file(spec, set_values=set_values)  # bad input fails here: exit 2, nothing created
    text = spec.read_text(encoding="utf-8")
    defaults = spec_keys(text, spec.name)
    swept = parse_sweeps(sweeps, terms)
    check_keys(swept, defaults, spec.name, text, terms)
    seed_key = next((k for k in SEED_KEYS if k in defaults), None)
    # a value the sweep sets itself would silently replace the --set one (`--sweep lr=0.1,0.2 --set lr=0.3`)
    by_sweep = [*swept, *([seed_key] if repeat > 1 and seed_key else [])]
    if both := next((k for k in by_sweep if k in set_values), None):
        how = f"--sweep {both}=…" if both in swept else f"--repeat {repeat}, which sets it to 0..{repeat - 1}"
        raise UsageError(f"{both} is set by --set and by {how}: each point would use the sweep's value — drop one")
    points_values = expand(swept, repeat, seed_key=seed_key, terms=terms)
    ctx.check_pool(pool, "--pool")
    sid = session or new_session_id()
    if ctx.runner(f"{sid}-p1").exists():
        raise UsageError(f"sweep {sid} already exists; give another --session")
    folder = ctx.state_dir / "sweeps" / sid
    # every point must render into a valid spec before anything is written (a bad one left a folder with no
    # record) or submitted; the error names the point, not a file the person never wrote
    bodies = []
    for i, values in enumerate(points_values, start=1):
        body = point_spec(text, spec.name, {**set_values, **values})
        load_spec_text(body, source=f"{spec.name} rendered for point {i} ({label(values)})", base_dir=folder)
        bodies.append(body)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "template.yaml").write_text(text, encoding="utf-8")  # what the app would be saved from (resume)
    points: list[Point] = []
    runs: dict[str, int] = {}
    for i, (values, body) in enumerate(zip(points_values, bodies, strict=True), start=1):
        path = folder / f"p{i}-{spec.name}"
        path.write_text(body, encoding="utf-8")
        tag = None
        if repeat > 1 and seed_key is None:  # the same values N times: name each run, not "(defaults)" N times
            k = runs[label(values)] = runs.get(label(values), 0) + 1
            tag = f"{label(values) + ' ' if values else ''}run {k}"
        points.append(Point(index=i, values=values, spec_path=path, tag=tag))
    if not quiet:
        ctx.out.print(f"sweep {sid}: {len(points)} point(s); each point is session {quoted(sid)}-pN", markup=False)
    return Sweep(
        sid=sid,
        spec_source=spec,
        template=text,
        points=points,
        yes=yes,
        interactive=interactive,
        max_parallel=max_parallel or len(points),
        cadence=cadence,
        max_fixes=max_fixes,
        pool=pool,
        prompt=prompt or _prompter(ctx, sid),
    )


def _detach(ctx: CliContext, sweep: Any, *, as_json: bool, config: Path | None, backend: str | None) -> int:
    """Ask the plan here (or take --yes), then hand the approved sweep to a background `orchestrate resume SWEEP`:
    its own process session, so closing the terminal stops nothing; `attach SWEEP` follows every point."""
    from runshepherd.cli import detached
    from runshepherd.render.session import Renderer
    from runshepherd.sweep.driver import approve

    top = Renderer(session=sweep.sid, as_json=as_json, out=ctx.out)
    code = approve(ctx, sweep, top)
    if code is not None:
        return code
    if ctx.settings.notify:  # to the background `resume SWEEP` through its environment (the config's and --notify's)
        import json
        import os

        os.environ["RUNSHEPHERD_NOTIFY"] = json.dumps(ctx.settings.notify)
    args = ["--yes"] if sweep.yes else []
    args += ["--config", str(config.resolve())] if config else []
    args += ["--backend", backend] if backend else []
    code = detached.start(ctx, sweep.sid, args, as_json, command="resume")
    if not as_json:
        ctx.out.print(
            f"sweep {sweep.sid}: {len(sweep.points)} point(s) run in the background; nothing stops if this "
            f"terminal closes\n  how it is doing: orchestrate status {sweep.sid}",
            markup=False,
        )
    return code


def resume(
    ctx: CliContext,
    *,
    sid: str,
    yes: bool,
    no_input: bool,
    as_json: bool,
    answer: str | None = None,
    cadence: float | None = None,
    max_fixes: int | None = None,
) -> int | None:
    """`orchestrate resume SWEEP [--answer A]`: a sweep paused at its plan asks it (or takes A); an approved one
    continues every point's session (finished ones only report; A answers the points that wait), then the
    comparison and the follow-ups once. None when SWEEP is not a sweep this state dir started."""
    from runshepherd.graph.checkpoint import SessionBusy
    from runshepherd.sweep.driver import run_sweep
    from runshepherd.sweep.status import read_record

    record = read_record(ctx.state_dir, sid)
    if record is None:
        return None
    if (busy := _driven_elsewhere(ctx, sid, record)) is not None:  # before its plan is shown again or "not waiting"
        raise SessionBusy(busy)
    sweep = resumed_sweep(
        ctx,
        sid,
        record,
        yes=yes,
        interactive=not no_input and sys.stdin.isatty(),
        cadence=cadence,
        max_fixes=max_fixes,
        prompt=_prompter(ctx, sid),
    )
    if answer is not None and not sweep.approved and not sweep.declined:
        _refuse_if_canceled(ctx, sweep, record, answer, as_json)
    if answer is not None:
        _refuse_if_ended(ctx, sweep.sid, record, answer)
    if answer is not None and not sweep.declined:
        _take_answer(ctx, sweep, record, answer)
    if (line := _resumed_line(ctx, sweep, record)) is not None:
        from runshepherd.cli.session import say_resumed

        say_resumed(ctx, sid, line, as_json)
    return run_sweep(ctx, sweep, as_json=as_json)


def _resumed_line(ctx: CliContext, sweep: Any, record: dict[str, Any]) -> str | None:
    """What `resume SWEEP` took up, as a session's resume first says it: its plan still waiting, or how many points
    were submitted and the states they were last seen in. None for a sweep that is over (its result follows) and for
    an approved one with nothing submitted: that is how a detached sweep's background `resume` starts, which is not
    the person resuming it (and its next lines say the plan was approved). The points' checkpoints it reads are
    kept on ``sweep``, which `run_sweep` then drives without reading them again."""
    from runshepherd.sweep.driver import has_ended
    from runshepherd.sweep.status import point_rows

    sid = sweep.sid
    if record.get("declined") or record.get("canceled") or has_ended(ctx, record, sweep):
        return None
    rows = point_rows(record, lambda s: dict(sweep.snapshot(ctx, s).values or {}))
    if record.get("approved") is False:
        return f"sweep {sid}: resumed at its plan ({len(rows)} point(s)), nothing submitted yet"
    counts: dict[str, int] = {}
    for r in rows:
        if r["workflow_id"]:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
    if not counts:
        return None
    seen = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
    return f"sweep {sid}: re-attached to {sum(counts.values())} of {len(rows)} point(s) (last seen: {seen})"


def resumed_sweep(
    ctx: CliContext,
    sid: str,
    record: dict[str, Any],
    *,
    yes: bool,
    interactive: bool,
    cadence: float | None,
    max_fixes: int | None,
    prompt: Any,
) -> Any:
    """The `Sweep` a stored record describes, to continue (`resume SWEEP`, or a continued chat that asks its plan
    again): the points' specs as written, its plan approved or still waiting, its own settings unless given."""
    from runshepherd.sweep.driver import Point, Sweep

    folder = ctx.state_dir / "sweeps" / sid
    points = [
        Point(
            index=p["index"],
            values=p["values"],
            spec_path=Path(p["spec_path"]),
            tag=p["tag"] if "tag" in p else p.get("point"),
        )
        for p in record["points"]
    ]
    return Sweep(
        sid=sid,
        spec_source=Path(record["spec"]),
        template=(folder / "template.yaml").read_text(encoding="utf-8"),
        points=points,
        yes=yes,
        interactive=interactive,
        max_parallel=int(record.get("max_parallel") or len(points)),
        cadence=cadence if cadence is not None else record.get("cadence"),
        max_fixes=max_fixes if max_fixes is not None else record.get("max_fixes"),
        pool=record.get("pool"),
        prompt=prompt,
        resumed=True,
        approved=record.get("approved") is not False,  # False only while its plan waits for an answer
        declined=bool(record.get("declined")),
    )


def _driven_elsewhere(ctx: CliContext, sid: str, record: dict[str, Any]) -> str | None:
    """A sweep another process drives now (in the background, or a `run`/`resume` in another terminal, seen by the
    point it runs holding its session's lock): who, and what the person can do from here; None when no one does."""
    from runshepherd.cli import detached
    from runshepherd.graph.checkpoint import driver, session_driven

    url = ctx.settings.checkpointer
    busy = [p["session"] for p in record.get("points") or [] if session_driven(ctx.state_dir, p["session"], url)]
    background = detached.running_elsewhere(ctx.state_dir, sid)
    if not busy and not background:
        return None
    who = driver(ctx.state_dir, busy[0], url) if busy else None
    head = f"sweep {sid} is being driven by another orchestrate process" + (f" ({who})" if who else "")
    todo = (
        f"it runs in the background: follow it with `orchestrate attach {sid}`"
        if background
        else f"answer or follow it where it runs, or stop it there (Ctrl-C; nothing is lost) and run "
        f"`orchestrate resume {sid}`"
    )
    return (
        f"{head}, so it is not resumed here — {todo}; `orchestrate status {sid}` shows its points, "
        f"`orchestrate cancel {sid}` cancels it"
    )


def _refuse_if_canceled(ctx: CliContext, sweep: Any, record: dict[str, Any], answer: str, as_json: bool) -> None:
    """`resume SWEEP --answer A` on a sweep the person canceled while it waited at its plan: the cancel is final, so
    exit 2 as for a session canceled at its question (`cli/session.py`): who canceled it and when, the question, and
    that A was not applied. Nothing was submitted, so nothing runs and the plan is not shown again."""
    from runshepherd.cancel_mark import reason
    from runshepherd.cli.session import canceled_answer
    from runshepherd.events import Done
    from runshepherd.render.session import Renderer
    from runshepherd.sweep.cancel import canceled

    mark = canceled(ctx.state_dir, sweep.sid)
    if mark is None:
        return
    if as_json:  # the stream ends as a resume without --answer ends it
        done = Done(outcome="CANCELED", reason=f"{reason(mark)}; nothing was submitted").wire()
        Renderer(session=sweep.sid, as_json=True, out=ctx.out).event(done)
    asked = [record["question"]] if record.get("question") else []
    raise UsageError(canceled_answer(f"sweep {sweep.sid} was {reason(mark)}", answer, asked, "sweep"))


def _refuse_if_ended(ctx: CliContext, sid: str, record: dict[str, Any], answer: str) -> None:
    """`resume SWEEP --answer A` on a sweep that has ended (its plan answered no, or its run over: the outcome its
    record keeps, and no point's session left to continue — a point that gave up ends NEEDS_INPUT too) asks
    nothing: exit 2 saying how it ended, as for an ended session (§13.2), and where its result is. Was: "not
    waiting for an answer; run `orchestrate resume SWEEP`" (or, after a no, exit 0 with A silently dropped)."""
    from runshepherd.cli.session import ended_answer
    from runshepherd.sweep.driver import has_ended

    if record.get("declined"):
        done: dict[str, Any] = {"outcome": "CANCELED", "declined": True}
    elif has_ended(ctx, record):
        done = {"outcome": record.get("outcome"), "reason": record.get("reason")}
    else:
        return
    where = f" and its comparison ({record['artifact']})" if record.get("artifact") else ""
    todo = (
        f"`orchestrate status {sid}` shows its points{where}; to run it again, start a new sweep "
        f"(`orchestrate run --spec {record.get('spec') or 'FILE'} --sweep KEY=V1,V2`)"
    )
    raise UsageError(ended_answer(f"sweep {sid}", done, answer, todo))


def _take_answer(ctx: CliContext, sweep: Any, record: dict[str, Any], answer: str) -> None:
    """`resume SWEEP --answer A`: A answers the plan when the sweep waits on it, else every point's waiting
    question. One that is not listed, or a sweep that waits on nothing, is exit 2 before anything runs."""
    from runshepherd.cli.session import check_answer

    if not sweep.approved:
        sweep.answer = check_answer(answer, record.get("question") or {"text": "the sweep's plan"})
        return
    for p in sweep.points:
        child = sweep.child(p)
        waiting = ctx.runner(child).questions()
        if waiting:
            sweep.answers[child] = {q.id: check_answer(answer, q.payload()) for q in waiting}
    if not sweep.answers:
        raise UsageError(f"sweep {sweep.sid} is not waiting for an answer; run `orchestrate resume {sweep.sid}`")


def said_in(request: str, spec: Path | None) -> Any:
    """The sweep a sentence asks for (`sweep/request.py`), its keys spelled as the spec spells them; None if none."""
    from runshepherd.spec.loader import split_default_values
    from runshepherd.sweep.request import sweep_from_request

    keys = None
    if spec is not None and spec.is_file():
        keys = list(split_default_values(spec.read_text(encoding="utf-8"), spec.name)[1])
    return sweep_from_request(request, keys)


def _prompter(ctx: CliContext, sid: str) -> Any:
    """The sweep's one terminal prompt, shared by its points (one question at a time). A cancel of the sweep from
    another terminal withdraws the question it waits on, and every later one: it says so once, and answers none."""
    from runshepherd.cancel_mark import withdrawn
    from runshepherd.sweep.cancel import halted

    lock = threading.Lock()
    canceled = halted(ctx.state_dir, sid)
    told: list[str] = []

    def prompt(kind: str, text: str, default: str, choices: list[str]) -> str | None:
        from runshepherd.cli.session import PromptCanceled, PromptInterrupted, _prompt

        with lock:
            try:
                return _prompt({"kind": kind, "text": text, "default": default, "choices": choices}, ctx.err, canceled)
            except PromptInterrupted:
                return None
            except PromptCanceled as exc:
                if not told:
                    told.append(str(exc))
                    ctx.out.print(f"\nsweep {sid}: {withdrawn(str(exc))}", markup=False, soft_wrap=True)
                return None

    return prompt
