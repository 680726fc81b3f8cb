"""Drive a sweep: every point is its own graph session (its own workflow, fix loop and fix cap) under the sweep's
id (`<sweep>-p<N>`); the plan is asked once, a fix question once per distinct diagnosis, and the follow-ups
(downloads, the app) once after every point is terminal. `--max-parallel K` runs K points at a time."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from runshepherd import wording
from runshepherd.backends.base import has_cheap_status
from runshepherd.events import Answered, AppSaved, Done, Downloaded, Message, Planned
from runshepherd.graph.checkpoint import SessionBusy
from runshepherd.graph.context import Deps, build_deps
from runshepherd.logs import redact
from runshepherd.render.prefixed import Prefixed
from runshepherd.render.session import Renderer, done_line, paused
from runshepherd.spec.model import TaskRequest
from runshepherd.subagents.logs_reader.pool import SharedReaders
from runshepherd.sweep.budget import SweepBudget
from runshepherd.sweep.cancel import canceled, halted
from runshepherd.sweep.cancel import reason as cancel_reason
from runshepherd.sweep.fit import fit_sentence, point_tasks, read_pool, total_ask
from runshepherd.sweep.points import label
from runshepherd.sweep.poll import SharedPoll
from runshepherd.sweep.questions import OncePerDiagnosis, Who
from runshepherd.sweep.results import best_point, metrics_of, table_markdown
from runshepherd.sweep.status import read_record, write_record


@dataclass
class Point:
    index: int
    values: dict[str, Any]
    spec_path: Path
    tag: str | None = None  # a repeat of the same values (no seed to vary): "run 2", "lr=0.1 run 2"

    @property
    def name(self) -> str:
        return self.tag or label(self.values)


@dataclass
class Sweep:
    """One sweep about to run (or running): its id, its points, how it is driven."""

    sid: str
    spec_source: Path
    template: str  # the spec as the person wrote it (default-values kept): saved as the app, values as variables
    points: list[Point]
    yes: bool
    interactive: bool
    max_parallel: int
    cadence: float | None = None
    max_fixes: int | None = None
    pool: str | None = None
    resumed: bool = False  # `orchestrate resume SWEEP`: points continue their sessions
    approved: bool = False  # the plan was answered yes before (its record says so): a resume does not ask it again
    answer: str | None = None  # `resume SWEEP --answer A` while the plan waits: A, checked against its choices
    declined: bool = False  # the person answered its plan no (a resume says so again and submits nothing)
    answers: dict[str, dict[str, str]] = field(default_factory=dict)  # the same for points: {session: {qid: A}}
    budget: SweepBudget | None = None  # the sweep-wide caps (default: see run_sweep)
    poller: SharedPoll | None = None  # one batched status read per tick for every point
    readers: SharedReaders = field(default_factory=SharedReaders)  # one log reader per five failed tasks, all points
    prompt: Any = None  # (kind, text, default, choices) → answer | None: the terminal prompt, shared by all points
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    questions: OncePerDiagnosis | None = None  # fix questions asked once per (kind, diagnosis label)
    # each point's checkpoint as a resume first read it (its first line, the ended check): a point's start takes
    # it from here (once) rather than reading it again
    seen: dict[str, Any] = field(default_factory=dict, repr=False)

    def snapshot(self, ctx: Any, session: str) -> Any:
        """A point session's checkpoint, read once until the point starts."""
        if session not in self.seen:
            self.seen[session] = ctx.runner(session).snapshot()
        return self.seen[session]

    def child(self, p: Point) -> str:
        return f"{self.sid}-p{p.index}"


def _emit(renderer: Renderer, lock: threading.Lock, ev: dict[str, Any]) -> None:
    with lock:
        renderer.event(ev)


QUESTION_WINDOW_MIN = 10.0
"""Seconds the first point to reach a fix question waits, at least, for other running points to fail the same way
(each point asks as soon as nothing else is running)."""


def run_sweep(ctx: Any, sweep: Sweep, *, as_json: bool) -> int:
    """Ask once, run every point, compare, offer the follow-ups once; the exit code of the whole sweep."""
    top = Renderer(session=sweep.sid, as_json=as_json, out=ctx.out)
    lock = sweep._lock
    before = (read_record(ctx.state_dir, sweep.sid) or {}) if sweep.resumed else {}
    # a sweep that had ended offered its follow-ups then: a resume only reports it again (was: asked them again,
    # and a yes downloaded every point a second time, to a new folder)
    offered = before.get("follow_ups") if before and has_ended(ctx, before, sweep) else None
    code = approve(ctx, sweep, top)
    if code is not None:
        sweep.seen.clear()  # read before the plan's answer: a later run reads the points afresh
        return code
    record = _record(sweep)
    if sweep.budget is None:  # on average one fix / one infra retry per point, never below one point's own cap
        n = len(sweep.points)
        fixes = sweep.max_fixes if sweep.max_fixes is not None else ctx.settings.fixes.max_fix_attempts
        sweep.budget = SweepBudget(max(fixes, n), max(ctx.settings.fixes.max_infra_retries, n))
    if sweep.poller is None:
        sweep.poller = SharedPoll(ctx.backend, tick=_tick(ctx, sweep), cheap=has_cheap_status(ctx.backend))
    if sweep.questions is None:  # points failing the same way within ~2 polls (at least QUESTION_WINDOW_MIN s) are
        # asked about together: on a busy machine two points that diverge alike reach their question seconds apart
        # (their diagnoses share the sweep's log readers), and 3 s split one question in two
        sweep.questions = OncePerDiagnosis(window=min(30.0, max(QUESTION_WINDOW_MIN, 2 * sweep.poller.tick)))

    def run_point(p: Point) -> dict[str, Any]:
        try:
            return _run_point(ctx, sweep, p, as_json=as_json, lock=lock)
        except SessionBusy:  # another process drives the point: this one must not write the sweep's record
            raise
        except Exception as exc:  # noqa: BLE001 - one point's error ends that point only, not the others' comparison
            return _point_error(ctx, sweep, p, exc, as_json=as_json, lock=lock)

    with ThreadPoolExecutor(max_workers=max(1, sweep.max_parallel), thread_name_prefix="sweep") as pool:
        results = list(pool.map(run_point, sweep.points))
    sweep.seen.clear()
    best = best_point(results)
    if sweep.readers.tasks:
        r = sweep.readers
        top.event(
            Message(
                level="info",
                text=f"log readers: {wording.count(r.tasks, 'task log')} read by readers shared across the points, "
                f"at most {wording.count(r.peak, 'reader')} at once (one per five tasks)",
            ).wire()
        )
    mark = canceled(ctx.state_dir, sweep.sid)  # the person's cancel is final: no follow-up is offered after it
    artifact = _write_artifact(ctx.state_dir, sweep, results, best)
    top.event(Message(level="info", text=f"comparison written to {artifact}").wire())
    outcomes = [r["status"] for r in results]
    outcome = (
        "CANCELED"
        if mark is not None
        else "COMPLETED"
        if all(o == "COMPLETED" for o in outcomes) and not any(r.get("stopped") for r in results)
        else ("NEEDS_INPUT" if any(r["outcome"] == "NEEDS_INPUT" for r in results) else "FAILED")
    )
    # a point stopped before its session ended (Ctrl-C, an error) has not completed, even if its workflow did
    failed = [r for r in results if r["status"] != "COMPLETED" or r.get("stopped")]
    waiting = [r for r in results if r.get("question")]  # `resume SWEEP --answer A` answers each of them
    # paused only when a point can go on (a question waits, or Ctrl-C stopped it at a safe point); a point that gave
    # up ends NEEDS_INPUT as a session that gave up does, with nothing to resume: exit 1, no resume line (was: "a
    # point waits for your answer; continue with: orchestrate resume S", exit 3, though no question waited)
    paused = outcome == "NEEDS_INPUT" and any(r.get("question") or r.get("stopped") for r in results)
    choices = list(waiting[0]["question"].get("choices") or ["yes", "no"]) if waiting else []
    reason = (
        None
        if not failed
        else f"{len(failed)} of {len(results)} point(s) did not complete: "
        + ", ".join(f"#{r['index']} {'stopped' if r['status'] == 'COMPLETED' else r['status']}" for r in failed)
    )
    if mark is not None:
        reason = f"{cancel_reason(mark)}; " + ", ".join(f"#{r['index']} {r['status']}" for r in results)
    record = {
        **record,
        "results": [_public(r) for r in results],
        "best": best,
        "artifact": str(artifact),
        "outcome": outcome,
        "reason": reason,
    }
    write_record(ctx.state_dir, sweep.sid, record)  # `resume SWEEP --answer` on an ended sweep says so (cli/sweep.py)
    if not as_json:
        for row in table_markdown(results, best).splitlines():
            ctx.out.print(row, markup=False)
    downloaded: list[str] = []
    download_dir, app = None, None
    if offered is not None:
        downloaded, download_dir, app = offered["downloaded"], offered["download_dir"], offered["app"]
        top.event(Message(level="info", text="its follow-ups were offered when it ended: not asked again").wire())
    elif mark is None:
        downloaded, download_dir = _offer_downloads(ctx, sweep, results, top)
        app = _offer_app(ctx, sweep, results, top)
    follow_ups = {"downloaded": downloaded, "download_dir": download_dir, "app": app}
    write_record(ctx.state_dir, sweep.sid, {**record, "follow_ups": follow_ups})
    done = Done(
        outcome=outcome,
        reason=reason,
        workflow_ids=[w for r in results for w in r["workflow_ids"]],
        fix_attempts=sum(r["fix_attempts"] for r in results),
        unchanged_retries=sum(r["unchanged_retries"] for r in results),
        infra_retries=sum(r["infra_retries"] for r in results),
        outputs=[o for r in results for o in r["outputs"]][:200],
        downloaded=downloaded[:200],
        downloaded_count=len(downloaded),
        download_dir=download_dir,
        app=app,
        status_artifact=str(artifact),
        results=[_public(r) for r in results],
        best=best,
        paused=paused,  # a point waits for an answer: the sweep continues where it stopped
        resume=f"orchestrate resume {sweep.sid}" + (f" --answer {choices[0]}" if choices else "") if paused else None,
        answers=choices or None,
        question=waiting[0]["question"]["text"] if waiting else None,
    )
    if as_json:
        top.event(done.wire())
    else:
        ctx.out.print(f"sweep {sweep.sid} done · {outcome}" + (f" ({reason})" if reason else ""), markup=False)
        ctx.out.print(f"comparison: {artifact}", markup=False)
        for w in waiting:
            q = w["question"]
            ctx.out.print(f"? #{w['index']} {w['point']} {q.get('kind')}: {q.get('text')}", markup=False)
        if done.resume:
            ctx.out.print(
                f"waiting for your answer ({', '.join(choices)}): "
                + ", ".join(f"#{w['index']}" for w in waiting)
                + f"; continue with:\n  {done.resume}"
                if waiting
                else f"a point stopped before its end; continue with: {done.resume}",
                markup=False,
            )
    return 3 if paused else 0 if outcome == "COMPLETED" else 1


def has_ended(ctx: Any, record: dict[str, Any], sweep: Sweep | None = None) -> bool:
    """Whether a sweep's record says it ended: its outcome kept, and no point's session left to continue (a point
    that gave up ends NEEDS_INPUT too). ``sweep``: the resumed sweep whose points' checkpoints are read once."""
    from runshepherd.graph.runner import SessionRunner

    def snapshot(session: str) -> Any:
        return sweep.snapshot(ctx, session) if sweep is not None else ctx.runner(session).snapshot()

    outcome = record.get("outcome")
    return outcome in ("COMPLETED", "FAILED", "CANCELED") or (
        outcome == "NEEDS_INPUT"
        and all(SessionRunner.ended(snapshot(p["session"])) for p in record.get("points") or [])
    )


def _slips(sweep: Sweep) -> list[str]:
    """A swept value far beyond any usual run, or below zero ("--sweep epochs=-1,2"), said in the plan before its
    question, as `--set` and a request say it (was: the points planned and submitted without a word)."""
    from runshepherd.number_reading import implausible

    said = dict.fromkeys((k, v) for p in sweep.points for k, v in p.values.items())
    return [w for k, v in said if (w := implausible(k, v, f"--sweep {k}={v}"))]


def approve(ctx: Any, sweep: Sweep, top: Renderer) -> int | None:
    """The plan, asked once: every point, the resources they ask for together and whether they fit the pool now
    (`sweep/fit.py`). None when approved (the sweep's
    record then says so, so a resume or a detached run never asks again), else the exit code."""
    asks = [_asks(p) for p in sweep.points]
    same = all(a == asks[0] for a in asks)
    each = f"each asks for {total_ask(asks[:1])}" if same else "the points ask for different resources"
    message = (
        f"sweep of {len(sweep.points)} point(s) from {sweep.spec_source.name}: {each} "
        f"(all {len(asks)} together: {total_ask(asks)})"
    )
    top.event(
        Planned(spec_name=sweep.spec_source.stem, pool=sweep.pool, message=message, warnings=_slips(sweep)).wire()
    )
    for p, a in zip(sweep.points, asks, strict=True):
        top.event(Message(level="info", text=f"#{p.index} {p.name}" + ("" if same else f": {total_ask([a])}")).wire())
    if any(p.tag for p in sweep.points):  # --repeat on a spec with no seed to vary
        top.event(
            Message(
                level="warning",
                text=f"{sweep.spec_source.name} has no seed in its default-values: the repeats run the same values, "
                "so they differ only where the job itself is not deterministic",
            ).wire()
        )
    started = sweep.resumed and sweep.approved and any(sweep.snapshot(ctx, sweep.child(p)).values for p in sweep.points)
    if not started:  # once its points run, what is free counts them: "fits now" would judge the sweep by itself
        gpus = max((sum(t.gpu for t in a) for a in asks), default=0)
        pool = sweep.pool or _spec_pool(sweep.points[0])
        verdict, fit = fit_sentence(asks, read_pool(ctx.backend, pool, gpus), max(1, sweep.max_parallel))
        top.event(Message(level="info" if verdict == "yes" else "warning", text=fit).wire())
    shown = ", ".join(p.name for p in sweep.points[:12]) + ("…" if len(sweep.points) > 12 else "")
    text = f"Submit {wording.count(len(sweep.points), 'workflow')} ({shown})?"
    if not sweep.approved and (mark := canceled(ctx.state_dir, sweep.sid)) is not None:  # canceled at its plan
        done = Done(outcome="CANCELED", reason=f"{cancel_reason(mark)}; nothing was submitted").wire()
        if top.as_json:
            top.event(done)
        else:
            top.out.print(done_line(sweep.sid, done, kind="sweep"), markup=False)
        return 1
    if sweep.resumed and sweep.approved:
        said = "resuming sweep {}: its plan was approved before" if started else "sweep {}: its plan was approved"
        top.event(Message(level="info", text=said.format(sweep.sid)).wire())
    elif sweep.yes:
        top.event(Answered(kind="submit", text=text, answer="yes").wire())
    else:
        question = {"kind": "submit", "text": text, "default": "yes", "choices": ["yes", "no"]}
        answer = "no" if sweep.declined else sweep.answer
        if answer is None and sweep.interactive:
            answer = sweep.prompt("submit", text, "yes", ["yes", "no"])
        if answer is None:  # nobody to ask here: the sweep waits on its plan, `resume SWEEP --answer yes` answers it
            write_record(ctx.state_dir, sweep.sid, {**_record(sweep), "approved": False, "question": question})
            top.question(f"{sweep.sid}-plan", question)
            return paused(top, sweep.sid, question, kind="sweep")
        if answer != "yes":
            if sweep.resumed:  # the plan waited in the record: it now says the person said no
                write_record(ctx.state_dir, sweep.sid, {**_record(sweep), "approved": False, "declined": True})
            done = Done(outcome="CANCELED", reason="not submitted, as you said", declined=True).wire()
            if top.as_json:
                top.event(done)
            else:
                top.out.print(done_line(sweep.sid, done, kind="sweep"), markup=False)
            return 0  # the person's "no" is their final word, not a failure
    write_record(ctx.state_dir, sweep.sid, _record(sweep))
    return None


def _record(sweep: Sweep) -> dict[str, Any]:
    return {
        "sweep": sweep.sid,
        "spec": str(sweep.spec_source),
        "max_parallel": sweep.max_parallel,
        "pool": sweep.pool,
        "cadence": sweep.cadence,  # the person's --cadence holds for a resume too
        "max_fixes": sweep.max_fixes,
        "approved": True,  # written only once the plan was answered yes: a resume never asks it again
        "points": [
            {
                "index": p.index,
                "point": p.name,
                "values": p.values,
                "session": sweep.child(p),
                "spec_path": str(p.spec_path),
                "tag": p.tag,
            }
            for p in sweep.points
        ],
    }


def _tick(ctx: Any, sweep: Sweep) -> float:
    """The monitors' poll interval: each tick makes one batched read for all points."""
    from runshepherd.nodes.cadence import interval, is_training

    text = sweep.points[0].spec_path.read_text(encoding="utf-8")
    every = interval(ctx.settings.cadence, training=is_training(text), unchanged_polls=0, override=sweep.cadence)
    return every


def _asks(p: Point) -> list[TaskRequest]:
    from runshepherd.spec import load_spec_file

    return point_tasks(load_spec_file(p.spec_path).workflow)


def _spec_pool(p: Point) -> str | None:
    """The pool the spec itself names (`workflow.pool`), which a point's plan uses when no --pool is given."""
    from runshepherd.spec import load_spec_file

    return load_spec_file(p.spec_path).workflow.pool


def _run_point(ctx: Any, sweep: Sweep, p: Point, *, as_json: bool, lock: threading.Lock) -> dict[str, Any]:
    """One point as its own session; its fix questions are asked once per (kind, diagnosis label) for the sweep."""
    from runshepherd.graph.runner import Question

    child = sweep.child(p)
    renderer = Renderer(session=child, as_json=as_json, out=cast(Any, Prefixed(ctx.out, f"[p{p.index}] ")))
    deps: Deps = build_deps(
        ctx.backend, ctx.settings, ctx.state_dir, child, yes=sweep.yes, cadence=sweep.cadence, max_fixes=sweep.max_fixes
    )
    deps.approved = {"submit": "yes"}  # the person approved every point's submission once, at the sweep's plan
    deps.poller = sweep.poller
    deps.log_readers = sweep.readers
    deps.sweep_budget = sweep.budget
    deps.halted = halted(ctx.state_dir, sweep.sid, child)  # the person's cancel of the sweep or point, any process
    last_label = {"label": "unknown"}
    shown_fix: dict[str, Any] = {}  # the point's latest `fix` event (its proposed change and diff)

    questions = sweep.questions
    assert questions is not None

    def answer(q: Question) -> str | None:
        key = (q.kind, last_label["label"])
        if (given := questions.answered(key)) is not None:
            _emit(
                renderer,
                lock,
                Answered(
                    kind=q.kind,
                    text=f"same diagnosis ({key[1]}) as an earlier point: {q.text}",
                    answer=given,
                    automatic=False,  # the person's own answer, given once for this diagnosis
                ).wire(),
            )
            return given
        if not sweep.interactive:
            with lock:
                renderer.question(q.id, q.payload())
            return None

        def ask_once(group: list[Who]) -> str | None:
            with lock:
                renderer.question(q.id, q.payload())
                if len(group) == 1:
                    text = f"[point #{p.index} {p.name}] {q.text}"
                else:
                    names = ", ".join(f"#{i} {n}" for i, n in group)
                    # the points' diffs were printed in the order they failed: show the asking point's again, right
                    # above its question, so the change the question quotes is the diff beside it
                    if shown_fix and not as_json:
                        renderer.event(shown_fix)
                    text = (
                        f"{len(group)} of {len(sweep.points)} points failed with {key[1]} ({names}) — "
                        f"for all of them: {q.text} (the change shown is #{p.index}'s, [p{p.index}] just above; "
                        "each point gets its own)"
                    )
                return sweep.prompt(q.kind, text, q.default, q.choices)

        given, group = questions.ask(key, (p.index, p.name), ask_once)
        if given is not None and group and group[0][0] != p.index:  # answered in the question another point asked
            _emit(
                renderer,
                lock,
                Answered(
                    kind=q.kind,
                    text=f"asked once for the points that failed with {key[1]} (#{group[0][0]} asked): {q.text}",
                    answer=given,
                    automatic=False,
                ).wire(),
            )
        return given

    first: dict[str, Any] = {
        "request": f"sweep {sweep.sid} point #{p.index}: {p.name}",
        "request_not_used": [],  # our own words for the point, not a person's request: no door to pass
        "spec_path": str(p.spec_path),
        "set_values": {},
        "pool": sweep.pool,
        "sweep_point": {"sweep": sweep.sid, "index": p.index, "values": p.values},
    }
    runner = ctx.runner(child, deps)
    seen = sweep.seen.pop(child, None)  # read by the resume's first line: nothing ran the point since
    started = bool(seen.values) if seen is not None else runner.exists()
    if not started and canceled(ctx.state_dir, sweep.sid) is not None:  # queued when the person canceled the sweep
        _emit(renderer, lock, Message(level="info", text=f"not started: {deps.halt_reason()}").wire())
        return _not_started(p, child)
    start = None if sweep.resumed and started else first  # a resumed point continues from its checkpoint
    questions.started()
    if ctx.settings.notify:  # `--notify` or the config's targets: each point's changes, questions and end
        from runshepherd.notify.session import SessionNotifier

        renderer.notifier = SessionNotifier(ctx.settings, child)
    try:
        return _drive_point(ctx, p, child, runner, start, answer, renderer, sweep, lock, last_label, shown_fix)
    finally:
        questions.finished()
        if renderer.notifier is not None:
            renderer.notifier.close()
            for line in renderer.notifier.notifier.undelivered_lines():  # the person asked to be told: say it failed
                _emit(renderer, lock, Message(level="warning", text=line).wire())


def _drive_point(
    ctx: Any,
    p: Point,
    child: str,
    runner: Any,
    start: dict[str, Any] | None,
    answer: Any,
    renderer: Renderer,
    sweep: Sweep,
    lock: threading.Lock,
    last_label: dict[str, str],
    shown_fix: dict[str, Any],
) -> dict[str, Any]:
    from runshepherd.graph.runner import Asked, Emitted, Finished, Stopped

    values: dict[str, Any] = {}
    outcome = "FAILED"
    asked: dict[str, Any] | None = None  # the question the point waits on when nobody could answer it here
    stopped = False  # stopped at a safe point (Ctrl-C): resumable, like a question
    for item in runner.run(start, answers=sweep.answers.get(child) if start is None else None, answer=answer):
        if isinstance(item, Emitted):
            if sweep.budget is not None:
                sweep.budget.count(item.event)
            if item.event.get("event") == "diagnosis":
                last_label["label"] = str(item.event.get("label"))
            if item.event.get("event") == "fix":
                shown_fix.clear()
                shown_fix.update(item.event)
            _emit(renderer, lock, item.event)
        elif isinstance(item, Asked):
            values, outcome = item.values, "NEEDS_INPUT"
            asked = item.questions[0].payload()
        elif isinstance(item, Stopped):
            values, outcome, stopped = item.values, "NEEDS_INPUT", True
        elif isinstance(item, Finished):
            values, outcome = item.values, str(item.values.get("outcome") or "FAILED")
    return {**_result(ctx, p, child, values, outcome), "question": asked, "stopped": stopped}


def _result(ctx: Any, p: Point, child: str, values: dict[str, Any], outcome: str) -> dict[str, Any]:
    from runshepherd.durations import format_elapsed

    wid = (values.get("attempt") or {}).get("workflow_id")
    status = (values.get("last_status") or {}).get("status") or (
        {"NEEDS_INPUT": "NEEDS_INPUT", "CANCELED": "NOT_STARTED"}.get(outcome, "unknown")
    )
    metrics: dict[str, Any] = {}
    duration = None
    if wid:
        ws = ctx.backend.query(wid)
        status = ws.status.value
        duration = format_elapsed(ws.duration) if ws.duration is not None else None
        task = next((t for t in ws.tasks if t.lead), ws.tasks[0] if ws.tasks else None)
        if task is not None:
            metrics = metrics_of(ctx.backend.logs(wid, task.name, tail=2000, timeout=None))
    return {
        "index": p.index,
        "point": p.name,
        "values": p.values,
        "session": child,
        "workflow_id": wid,
        "workflow_ids": list(values.get("workflow_ids") or []),
        "status": status,
        "outcome": outcome,
        "attempts": _submitted_attempts(values.get("attempt") or {}),
        "fix_attempts": int(values.get("fix_attempts") or 0),
        "unchanged_retries": int(values.get("unchanged_retries") or 0),
        "infra_retries": int(values.get("infra_retries") or 0),
        "outputs": list(values.get("outputs") or []),
        "metrics": metrics,
        "duration": duration,
        # what the final workflow ran with differs from the point's values when a fix changed the spec
        "fixes": [wording.applied(str(f.get("reason") or f.get("kind"))) for f in values.get("fix_history") or []][-3:],
    }


def _point_error(
    ctx: Any, sweep: Sweep, p: Point, exc: Exception, *, as_json: bool, lock: threading.Lock
) -> dict[str, Any]:
    """A point whose session raised (a backend that stopped answering, a store it could not read): said on the
    point's line, its checkpoint kept, and counted as stopped so `orchestrate resume SWEEP` continues it (was: the
    error ended the whole sweep, and the points that had finished got no comparison)."""
    child = sweep.child(p)
    renderer = Renderer(session=child, as_json=as_json, out=cast(Any, Prefixed(ctx.out, f"[p{p.index}] ")))
    text = f"stopped on an error ({type(exc).__name__}): {redact(str(exc))[0]}; its session {child} is kept"
    _emit(renderer, lock, Message(level="error", text=text).wire())
    try:
        result = _result(ctx, p, child, dict(ctx.runner(child).snapshot().values or {}), "NEEDS_INPUT")
    except Exception as again:  # noqa: BLE001 - the backend that failed the point may fail its status read too
        _emit(renderer, lock, Message(level="warning", text=f"its status could not be read: {again}").wire())
        result = {**_not_started(p, child), "status": "unknown", "outcome": "NEEDS_INPUT"}
    return {**result, "question": None, "stopped": True}


def _submitted_attempts(attempt: dict[str, Any]) -> int:
    """Attempts that reached the scheduler: one prepared but never submitted (a paused fix question, a cancel
    before the resubmission) is not counted."""
    n = int(attempt.get("n") or 0)
    return n if attempt.get("workflow_id") else max(0, n - 1)


def _not_started(p: Point, child: str) -> dict[str, Any]:
    """A point the person's cancel reached before it started: nothing was submitted for it."""
    return {
        "index": p.index,
        "point": p.name,
        "values": p.values,
        "session": child,
        "workflow_id": None,
        "workflow_ids": [],
        "status": "NOT_STARTED",
        "outcome": "CANCELED",
        "attempts": 0,
        "fix_attempts": 0,
        "unchanged_retries": 0,
        "infra_retries": 0,
        "outputs": [],
        "metrics": {},
        "duration": None,
        "fixes": [],
    }


def _public(r: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "index",
        "point",
        "values",
        "session",
        "workflow_id",
        "workflow_ids",
        "status",
        "attempts",
        "metrics",
        "duration",
        "fixes",
    )
    return {k: r[k] for k in keys}


def _write_artifact(state_dir: Path, sweep: Sweep, results: list[dict[str, Any]], best: dict[str, Any] | None) -> Path:
    out = state_dir / "runs" / f"sweep-{sweep.sid}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    text = f"# Sweep {sweep.sid}: {sweep.spec_source.name}, {len(results)} point(s)\n\n" + table_markdown(results, best)
    tmp = out.with_suffix(".md.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    return out


def _offer_downloads(
    ctx: Any, sweep: Sweep, results: list[dict[str, Any]], top: Renderer
) -> tuple[list[str], str | None]:
    """One question for every completed point's outputs; one folder per point under <download root>/<sweep>/."""
    from runshepherd.downloads import fetch, fresh_dest

    done = [r for r in results if r["status"] == "COMPLETED" and r["outputs"] and r["workflow_id"]]
    if not done:
        return [], None
    root = fresh_dest(Path.home(), f"sweep-{sweep.sid}")
    text = f"Download the outputs of {len(done)} completed point(s) to {root}/ (one folder per point)?"
    if _ask(sweep, top, "download", text, "yes") != "yes":
        return [], None
    got: list[str] = []
    for r in done:
        dest = root / f"p{r['index']}"
        files = [str(f) for f in fetch(ctx.backend, r["outputs"], dest, workflow_id=r["workflow_id"])]
        top.event(Downloaded(workflow_id=r["workflow_id"], dest=str(dest), files=len(files)).wire())
        got.extend(files)
    return got, str(root)


def _offer_app(ctx: Any, sweep: Sweep, results: list[dict[str, Any]], top: Renderer) -> dict[str, Any] | None:
    """Asked once, after every point is terminal: the person's template, the swept keys as its variables."""
    from runshepherd.apps.registry import AppRegistry, describe

    if not any(r["status"] == "COMPLETED" for r in results):
        return None
    keys = sorted({k for p in sweep.points for k in p.values})
    name = sweep.spec_source.stem
    text = f'Save this spec as app "{name}" with {", ".join(keys) or "its default-values"} as template variables?'
    if _ask(sweep, top, "save_app", text, "no") != "yes":
        return None
    desc = describe(name, f"sweep over {', '.join(keys)}")
    app = AppRegistry(ctx.state_dir / "apps").save(name, desc, sweep.template)
    top.event(AppSaved(name=app.name, version=app.latest).wire())
    return {"name": app.name, "version": app.latest, "description": desc}


def _ask(sweep: Sweep, top: Renderer, kind: str, text: str, default: str) -> str:
    if sweep.yes:
        top.event(Answered(kind=kind, text=text, answer=default).wire())
        return default
    if not sweep.interactive:
        # nobody answered it, so it is never shown as an answer ("→ no (pre-answered)" was untrue)
        top.event(Message(level="info", text=f"not asked (no terminal to ask on), so not done: {text}").wire())
        return "no"
    return str(sweep.prompt(kind, text, default, ["yes", "no"]) or "no")
