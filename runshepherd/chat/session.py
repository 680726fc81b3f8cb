"""The conversation driver: read a line, route it to an intent (model or deterministic), act, reply.

Acting never bypasses a gate: a run starts as a normal graph session (its submit, resubmit, download and
save-app questions are answered here, inline); cancel, and a download or save after the run ended, are confirmed
by the chat itself first. Without a terminal (scripted stdin) lines that need a settled run — answers, "why did it
fail", downloads — wait for the run to ask or end, so a script reads like the conversation it stands for.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from runshepherd import wording
from runshepherd.chat.intents import Intent, route
from runshepherd.chat.runs import RunDriver
from runshepherd.chat.store import ChatRecord, Confirmation, save
from runshepherd.cli.context import CliContext
from runshepherd.errors import RunShepherdError, UsageError
from runshepherd.graph.context import build_deps
from runshepherd.graph.runner import new_session_id
from runshepherd.names import quoted
from runshepherd.render.session import Renderer, usage_line
from runshepherd.request_text import REQUEST_MAX, too_long

SETTLE_TIMEOUT = 900.0  # scripted mode: how long a line may wait for its run to ask or end
STOP_TIMEOUT = 10.0  # Ctrl-C: how long to wait for runs to reach a safe point (the monitor answers within 0.5 s)
HELP = """I can:
  start a run            "train a small classifier for 3 epochs with lr 0.1"
  status / progress      "what's the status"
  why it waits           "why is it pending"
  logs                   "show me the logs of train"
  what a workflow does   "what does workflow tiny-1 do"
  draft a spec           "draft a workflow yaml reading s3://raw/ and writing to s3://out/" (never submitted)
  why it failed          "why did it fail"
  follow-ups             "download the outputs", "save it as an app", "cancel it", "stop the sweep" (I always confirm)
  answer a question      "yes", "no", "retry", "stop"
  start a sweep          "sweep lr over 1e-3, 3e-4 with examples/sweep-lr.yaml", "run sweep-lr.yaml with 3 seeds"
  a sweep's progress     "how is the sweep doing?", "compare the points", "which point is best?"
  pools and free GPUs    "list pools", "which pools have free gpus"
  list runs / quit"""


class ChatSession:
    def __init__(
        self, ctx: CliContext, record: ChatRecord, *, interactive: bool, model: Any = None, cadence: float | None = None
    ) -> None:
        self.ctx = ctx
        self.rec = record
        self.interactive = interactive
        self.model = model
        self.cadence = cadence
        self.drivers: dict[str, RunDriver] = {}
        self.renderers: dict[str, Any] = {}
        self._print_lock = threading.Lock()
        self.router: Any = None
        self.usage: Any = None
        if model is not None:
            from runshepherd.chat.agent import ModelRouter
            from runshepherd.experts.llm.usage import UsageLedger

            self.usage = UsageLedger.from_config(ctx.settings.llm)
            self.router = ModelRouter(
                model, self.usage, ctx.settings.logs.redaction_patterns, notify=lambda t: self.say(f"warning: {t}")
            )

    # -- output -----------------------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        """Everything the chat says goes through here, redacted: a reply may quote what the person typed, and a
        pasted token must not come back onto the terminal ("starting session … for: …", "I did not take …")."""
        with self._print_lock:
            self._said(text)

    def _said(self, text: str) -> None:
        """`say` for a caller that holds the print lock: its line is out before any run's next event."""
        from runshepherd.logs import redact

        text = redact(text, self.ctx.settings.logs.redaction_patterns)[0]
        self.ctx.out.print(text, markup=False)
        self.rec.add_turn("shepherd", text)

    def say_markdown(self, head: str, markdown: str) -> None:
        """A Markdown answer (a logs digest) rendered for the terminal — no `###`, `**` or code fences, wrapped at
        words as `orchestrate logs` prints it; the transcript keeps the Markdown."""
        from rich.markdown import Markdown

        with self._print_lock:
            self.ctx.out.print(head, markup=False)
            self.ctx.out.print(Markdown(markdown), soft_wrap=False)
        self.rec.add_turn("shepherd", f"{head}\n{markdown}")

    def _renderer(self, sid: str) -> Any:
        return self.renderers.setdefault(sid, Renderer(session=sid, as_json=False, out=self.ctx.out))

    def _on_event(self, sid: str, ev: dict[str, Any]) -> None:
        with self._print_lock:
            self._renderer(sid).event(ev)

    def _on_question(self, sid: str, q: dict[str, Any]) -> None:
        choices = q.get("choices") or ["yes", "no"]
        shown = "/".join(c.upper() if c == q.get("default") else c for c in choices)
        self.say(f"? {q.get('kind')}: {q.get('text')} [{shown}]")
        if (conf := self.rec.confirm) is not None:
            # a run asked while the chat's own question (a cancel…) was open: the next answer goes to that one, so
            # it is shown again last — a "yes" meant for the run's question must not cancel a run unseen
            self.say(f"? {conf.text} [yes/NO] — still open, and answered first (the question above waits)")

    def _on_done(self, sid: str, values: dict[str, Any]) -> None:
        with self._print_lock:
            self._renderer(sid).done(values)

    def _on_stopped(self, sid: str, values: dict[str, Any]) -> None:
        ids = list(values.get("workflow_ids") or [])
        running = f"{', '.join(ids)} keeps running" if ids else "nothing was submitted"
        self.say(f"stopped session {sid} — nothing is lost; {running}. Continue with: orchestrate resume {quoted(sid)}")

    def stop_runs(self, timeout: float = STOP_TIMEOUT) -> list[str]:
        """Ctrl-C: stop every busy run at its next safe point and wait for it; returns the sessions still busy."""
        self._leave_waiting_sweeps(timeout)
        busy = [d for d in self.drivers.values() if d.busy]
        for d in busy:
            d.stop("Ctrl-C")
        return [d.session for d in busy if not d.wait(timeout)]

    def _leave_waiting_sweeps(self, timeout: float = STOP_TIMEOUT) -> None:
        """The chat ends while a sweep waits on a question here: the question goes unanswered the way a sweep
        with no terminal leaves it (its plan kept in its record for `orchestrate resume SWEEP --answer …`, a fix
        question pausing its points), not held by a thread that dies with the process (the sweep was lost)."""
        from runshepherd.chat.sweeps import SweepDriver

        for d in list(self.drivers.values()):
            if isinstance(d, SweepDriver) and d.waiting:
                d.stop("the chat ended")
                d.wait(timeout)

    def _on_error(self, sid: str, exc: BaseException) -> None:
        from runshepherd.graph.checkpoint import CheckpointerUnavailable

        if isinstance(exc, CheckpointerUnavailable):  # "the session is kept" was false: its store is what failed
            self.say(
                f"error in session {sid}: {exc} — only what it stored before that is kept; once the database is "
                f"back, `orchestrate resume {quoted(sid)}` continues it from there"
            )
            return
        self.say(
            f"error in session {sid}: {exc} — the session is kept; say 'status' or continue it with "
            f"`orchestrate resume {quoted(sid)}`"
        )

    # -- runs -------------------------------------------------------------------------------------------------
    def _driver(self, sid: str) -> RunDriver:
        if sid not in self.drivers and (sweep := self._sweep_driver(sid)) is not None:
            return sweep
        if sid not in self.drivers:
            deps = build_deps(
                self.ctx.backend,
                self.ctx.settings,
                self.ctx.state_dir,
                sid,
                cadence=self.cadence,
                chat_model=self.model,
            )
            self.drivers[sid] = RunDriver(
                session=sid,
                deps=deps,
                state_dir=self.ctx.state_dir,
                max_concurrency=self.ctx.settings.logs.max_concurrency,
                checkpointer=self.ctx.settings.checkpointer,
                on_event=self._on_event,
                on_question=self._on_question,
                on_done=self._on_done,
                on_error=self._on_error,
                on_stopped=self._on_stopped,
            )
        return self.drivers[sid]

    def _sweep_driver(self, sid: str) -> Any:
        """A sweep this conversation started earlier (a continued chat): idle, its outcome from its record."""
        from runshepherd.chat.sweeps import SweepDriver
        from runshepherd.sweep.status import read_record

        record = read_record(self.ctx.state_dir, sid)
        if record is None:
            return None
        d = SweepDriver(
            session=sid, on_question=self._on_question, on_done=self._on_sweep_done, on_error=self._on_error
        )
        results = record.get("results")
        if results is not None:
            ok = all(r.get("status") == "COMPLETED" for r in results)
            outcome = "CANCELED" if record.get("canceled") else "COMPLETED" if ok else "FAILED"
            d.values = {"outcome": outcome, "sweep": sid}
        self.drivers[sid] = d  # type: ignore[assignment]  # duck-types RunDriver
        return d

    def _continue_sweep(self, sid: str, d: Any) -> None:
        """A sweep the last chat left unfinished. Kept at its plan (nothing submitted yet), it asks the plan here
        again, as `orchestrate resume SWEEP` would: before, the continued chat said it had "stopped". Past its plan,
        its points' sessions are continued by `orchestrate resume SWEEP`, which the chat names."""
        from runshepherd.cli.sweep import resumed_sweep
        from runshepherd.sweep.cancel import canceled
        from runshepherd.sweep.driver import run_sweep
        from runshepherd.sweep.status import read_record

        record = read_record(self.ctx.state_dir, sid) or {}
        at_plan = record.get("approved") is False and not record.get("declined")
        if not at_plan or canceled(self.ctx.state_dir, sid) is not None:
            self.say(f"sweep {sid} stopped with the last chat; continue it with: orchestrate resume {sid}")
            return
        sweep = resumed_sweep(
            self.ctx, sid, record, yes=False, interactive=True, cadence=self.cadence, max_fixes=None, prompt=d.prompt
        )
        self.say(f"sweep {sid} is still waiting for its plan to be answered; nothing of it was submitted")
        d.start(lambda: run_sweep(self.ctx, sweep, as_json=False))
        d.wait(SETTLE_TIMEOUT)  # until it asks again, so its question is shown before the next line is read

    def _on_sweep_done(self, sid: str, values: dict[str, Any]) -> None:
        from runshepherd.sweep.status import read_record

        record = read_record(self.ctx.state_dir, sid)
        if record is None or record.get("declined"):  # the plan was declined (or never answered)
            values["outcome"] = "CANCELED"
            self.say(f"sweep {sid}: nothing was submitted")
            return
        if record.get("canceled"):
            from runshepherd.sweep.cancel import reason

            values["outcome"] = "CANCELED"
            self.say(f"sweep {sid} ended CANCELED ({reason(record['canceled'])}) — 'compare the points' shows each")
            return
        if values.get("paused"):  # left at a question when the chat ended: the sweep said how on
            return
        # how the sweep itself said it ended (a point that gave up ends it NEEDS_INPUT with nothing to answer)
        values["outcome"] = record.get("outcome") or values.get("outcome")
        self.say(f"sweep {sid} ended {values['outcome']} — 'compare the points' shows the table again")

    def _start_sweep(self, request: str) -> None:
        """The same sweep as `orchestrate run --spec S --sweep …`: the plan asked here, answered here."""
        from runshepherd.chat.sweeps import SweepDriver, spec_said
        from runshepherd.cli import sweep as sw
        from runshepherd.sweep.driver import run_sweep
        from runshepherd.sweep.points import CHAT_TERMS

        spec = spec_said(request, Path.cwd()) or self._last_spec()
        if spec is None:
            self.say(
                "which spec should the sweep run? name its file, e.g. 'sweep lr over 1e-3, 3e-4 with "
                "examples/sweep-lr.yaml' (the swept keys are its `default-values:`)"
            )
            return
        said = sw.said_in(request, spec)
        sid = new_session_id()
        d = SweepDriver(
            session=sid, on_question=self._on_question, on_done=self._on_sweep_done, on_error=self._on_error
        )
        try:
            sweep = sw.prepare(
                self.ctx,
                spec=spec,
                sweeps=said.sweeps,
                repeat=said.repeat,
                max_parallel=None,
                sets=[],
                pool=None,
                session=sid,
                yes=False,
                interactive=True,
                max_fixes=None,
                cadence=self.cadence,
                prompt=d.prompt,
                quiet=True,
                terms=CHAT_TERMS,  # said in the chat's words, never as --sweep/--repeat flags
            )
        except RunShepherdError as exc:
            self.say(f"could not start the sweep: {exc}")
            return
        self.drivers[sid] = d  # type: ignore[assignment]  # duck-types RunDriver
        self.rec.runs = [*self.rec.runs, sid]
        self.rec.current = sid
        self.persist()
        self.say(f"starting sweep {sid}: {len(sweep.points)} point(s) of {spec.name}; each point is session {sid}-pN")
        d.start(lambda: run_sweep(self.ctx, sweep, as_json=False))

    def _last_spec(self) -> Path | None:
        """'run this with 3 seeds': the spec of this conversation's latest sweep, or of its current run's --spec."""
        from runshepherd.sweep.status import read_record

        for sid in reversed(self.rec.runs):
            record = read_record(self.ctx.state_dir, sid)
            path = Path(record["spec"]) if record else Path(str(self._graph_state(sid).values.get("spec_path") or ""))
            if path.name and path.is_file():
                return path
        return None

    def _graph_state(self, sid: str) -> Any:
        return self.ctx.runner(sid).snapshot()

    def reattach(self) -> None:
        """A continued conversation: re-show pending questions and continue runs stopped mid-way."""
        for sid in self.rec.runs:
            snap = self._graph_state(sid)
            if not snap.values:
                if (sweep := self._sweep_driver(sid)) is not None and sweep.values is None:
                    self._continue_sweep(sid, sweep)
                continue
            d = self._driver(sid)
            d.workflow_id = (snap.values.get("attempt") or {}).get("workflow_id")
            if snap.interrupts:
                d.waiting = {i.id: i.value for i in snap.interrupts}
                self._on_question(sid, d.question or {})  # the chat's open confirmation, if any, is shown after it
            elif snap.next:
                self.say(f"continuing session {sid} where it stopped")
                d.start(None)
            else:
                d.values = dict(snap.values)
        if self.rec.confirm and not any(d.waiting for d in self.drivers.values()):
            self.say(f"? {self.rec.confirm.text} [yes/NO]")

    @property
    def current(self) -> RunDriver | None:
        return self._driver(self.rec.current) if self.rec.current else None

    def _settle(self, d: RunDriver | None, *, until_workflow: bool = False) -> None:
        if d is None or self.interactive or not d.busy:
            return
        d.wait(SETTLE_TIMEOUT, until=(lambda: d.workflow_id is not None) if until_workflow else None)

    def _wid(self, intent: Intent) -> str | None:
        if intent.workflow:
            return self._named_run(intent.workflow)
        d = self.current
        self._settle(d, until_workflow=True)
        return d.workflow_id if d else None

    def _no_workflow(self, none_yet: str) -> str:
        """What to say when the current run has no workflow: a session that ended before submitting one (a cancel
        at the submit question, a "no") is reported with its outcome, never as "no run yet"."""
        from runshepherd.render.session import done_event, done_line

        d = self.current
        if d is None:
            return none_yet
        if d.values is not None:
            return f"{done_line(d.session, done_event(d.values))} — it submitted no workflow"
        if d.waiting:
            return f"session {d.session} has submitted no workflow yet; it waits for your answer"
        return f"session {d.session} has submitted no workflow yet"

    def _named_run(self, name: str) -> str:
        """The workflow a named run stands for: a workflow id as it is (the backend says whether it has it), a
        session's latest workflow. A name that can be neither ("../../etc") is said to be unknown — never answered
        with the current run."""
        from runshepherd.names import is_id

        d = self.drivers.get(name)
        if d is not None:
            self._settle(d, until_workflow=True)
            if d.workflow_id:
                return d.workflow_id
        elif is_id(name) and not self.ctx.runner(name).exists():
            return name
        elif is_id(name):
            ids = self.ctx.runner(name).snapshot().values.get("workflow_ids") or []
            if ids:
                return str(ids[-1])
        if d is not None or is_id(name):
            raise UsageError(f"session {name} has submitted no workflow yet — nothing to report on")
        shown = name if len(name) <= 60 else name[:57] + "…"
        raise UsageError(
            f"no run or session named {shown!r} — runs and sessions are named by ids (letters, digits, '-', '_', "
            f"'.'), never paths; this chat's runs: {self._runs()}; `orchestrate list` shows every workflow"
        )

    def _runs(self) -> str:
        """This chat's workflows, as an unknown name or workflow is answered with them."""
        return ", ".join(x.workflow_id for x in self.drivers.values() if x.workflow_id) or "none yet"

    def _in_chat_terms(self, message: str) -> str:
        """An unknown workflow said as `_named_run` says an unknown name: with this chat's runs, and `orchestrate
        list` as the shell command it is (was: "run `orchestrate list` to see the known ones", said in the chat as
        if it were something to type here)."""
        known = f"this chat's runs: {self._runs()}; `orchestrate list` in a shell shows every workflow"
        from runshepherd.backends.base import KNOWN_ONES

        return message.replace(KNOWN_ONES, known)

    # -- the loop ---------------------------------------------------------------------------------------------
    def run(self, lines: Iterable[str]) -> int:
        self.say(f"chat {self.rec.id} — continue it later with: orchestrate chat --session {self.rec.id}")
        self.reattach()
        for line in lines:
            if not line.strip():
                continue
            if not self.handle(line.rstrip("\n")):
                break
        if not self.interactive:
            for d in list(self.drivers.values()):
                d.wait(SETTLE_TIMEOUT)
        self._leave_waiting_sweeps()
        from runshepherd.chat.sweeps import SweepDriver

        for sid, d in self.drivers.items():
            if isinstance(d, SweepDriver) and d.busy:  # its points stop with this process: say how to go on
                self.say(f"sweep {sid} stops with this chat; continue it with: orchestrate resume {sid}")
        self.persist()
        if self.usage is not None and self.usage.by_node:
            self.say(f"chat {usage_line(self.usage.snapshot())}")
        waiting = [sid for sid, d in self.drivers.items() if d.waiting] + (["chat"] if self.rec.confirm else [])
        if waiting:
            self.say(f"waiting for your answer; continue with: orchestrate chat --session {self.rec.id}")
            return 3
        # a sweep left at its question when the chat ended has said how to answer it (`orchestrate resume SWEEP`)
        return (
            3
            if any(isinstance(d, SweepDriver) and (d.values or {}).get("paused") for d in self.drivers.values())
            else 0
        )

    def persist(self) -> None:
        save(self.ctx.state_dir, self.rec)

    def handle(self, line: str) -> bool:
        """One turn. False ends the conversation."""
        if len(line) > REQUEST_MAX:  # read nothing of it: the patterns that route a line are not built for 2 MB
            self.say(f"error: {too_long(line)}")
            return True
        self.rec.add_turn("person", line)
        d = self.current
        if d is not None and not self.rec.confirm and self._needs_settling(line):
            self._settle(d)
        waiting = "confirm" if self.rec.confirm else ((d.question or {}).get("kind") if d and d.waiting else None)
        question = self.rec.confirm.text if self.rec.confirm else ((d.question or {}).get("text") if d else None)
        known = [x.workflow_id for x in self.drivers.values() if x.workflow_id]
        if self.router is not None:
            intent = self.router.route(line, waiting=waiting, question=question, known=known)
        else:
            intent = route(line, waiting=waiting, known=known)
        if intent.kind == "quit":
            return False
        if intent.kind == "status" and not intent.workflow and self._current_sweep() is not None:
            intent = intent.model_copy(update={"kind": "sweep_status"})  # "what's the status" of a sweep
        try:
            getattr(self, f"do_{intent.kind}")(intent)
        except RunShepherdError as exc:  # e.g. a workflow id that does not exist: say it, the conversation goes on
            self.say(f"error: {self._in_chat_terms(str(exc))}")
        self.persist()
        return True

    def _needs_settling(self, line: str) -> bool:
        intent = route(line)
        free_text = intent.kind == "help" and intent.text.strip().lower() not in {"help", "?"}
        return free_text or intent.kind in {"answer", "download", "save_app", "explain_failure"}

    # -- intents ----------------------------------------------------------------------------------------------
    def do_help(self, intent: Intent) -> None:
        self.say(HELP)
        open_q = self.rec.confirm.text if self.rec.confirm else None
        d = self.current
        if open_q is None and d is not None and d.waiting:
            open_q = (d.question or {}).get("text")
        if open_q:
            self.say(f"still open: {open_q}")

    def do_out_of_scope(self, intent: Intent) -> None:
        from runshepherd.experts.scope import out_of_scope

        verdict = out_of_scope(intent.text)
        self.say(verdict.text() if verdict else HELP)

    def do_draft(self, intent: Intent) -> None:
        """A spec written next to the conversation (never over an existing file) and validated; nothing submitted."""
        from runshepherd.experts.base import make_expert
        from runshepherd.experts.draft import draft
        from runshepherd.request_text import enter

        entered = enter(intent.request or intent.text, left_out_of="the drafted spec")
        if entered.secret_warning:
            self.say(f"warning: {entered.secret_warning}")
        try:
            expert = make_expert(self.ctx.settings.expert, settings=self.ctx.settings)
            result = draft(entered.text, expert, Path.cwd(), not_used=entered.not_used)
        except RunShepherdError as exc:
            self.say(f"could not draft it: {exc}")
            return
        path, n = Path.cwd() / f"{result.name}.yaml", 1
        while path.exists():
            n += 1
            path = Path.cwd() / f"{result.name}-{n}.yaml"
        path.write_text(result.text, encoding="utf-8")
        self.say(f"drafted {path.name}: valid, nothing was submitted")
        for p in result.placeholders:
            self.say(f"  placeholder: {p}")
        for note in result.notes:
            self.say(f"  note: {note}")
        self.say(f"  submit it when ready: orchestrate submit {path.name}")

    def do_start(self, intent: Intent) -> None:
        from runshepherd.chat.sweeps import is_sweep_request
        from runshepherd.request_text import enter

        self._withdraw_confirmation()
        entered = enter(intent.request or intent.text, left_out_of="the session, the plan and the job")
        if is_sweep_request(entered.text):
            for said in filter(None, [entered.secret_warning, *entered.not_used]):
                self.say(f"warning: {said}")
            self._start_sweep(entered.text)
            return
        sid = new_session_id()
        d = self._driver(sid)
        self.rec.runs = [*self.rec.runs, sid]
        self.rec.current = sid
        self.persist()
        self.say(f"starting session {sid} for: {intent.request or intent.text}")
        if entered.secret_warning:
            self.say(f"warning: {entered.secret_warning}")
        first = {"request": entered.text, "request_not_used": entered.not_used, "spec_path": None}
        d.start({**first, "set_values": {}, "pool": None})

    def _withdraw_confirmation(self) -> None:
        """A new request moves on from the chat's own open question (cancel, late download or save): the next
        "yes" is read as the answer to the question shown last (the new run's), so the old one is dropped here,
        and said to be, instead of being answered by a "yes" meant for something else."""
        if self.rec.confirm is None:
            return
        conf, self.rec.confirm = self.rec.confirm, None
        self.say(f"not confirmed, so not done: {conf.text} — say it again if you still want it")

    def do_answer(self, intent: Intent) -> None:
        """Only a listed answer (or an obvious synonym) answers; other text is conversation and changes nothing."""
        from runshepherd.nodes.common import parse_answer

        if self.rec.confirm is not None:
            choice = parse_answer(intent.answer or intent.text, ["yes", "no"], "no")
            if choice is None:
                self._still_open(intent.text, self.rec.confirm.text, ["yes", "no"])
                return
            conf, self.rec.confirm = self.rec.confirm, None
            if choice == "yes":
                getattr(self, f"_confirmed_{conf.action}")(conf)
            else:
                self.say(f"ok, not doing that ({conf.action} {conf.workflow})")
            return
        d = self.current
        if d is None or not d.waiting:
            self.say("nothing is waiting for an answer right now")
            return
        q = d.question or {}
        choices = q.get("choices") or ["yes", "no"]
        choice = parse_answer(intent.answer or intent.text, choices, q.get("default", choices[0]))
        if choice is None or not (intent.answer or intent.text).strip():
            self._still_open(intent.text, q.get("text") or "", choices)
            return
        d.answer(choice)

    def _still_open(self, said: str, question: str, choices: list[str]) -> None:
        said = said.strip() if len(said.strip()) <= 80 else said.strip()[:79] + "…"
        self.say(f"I did not take {said!r} as an answer; still open: {question} — answer {' / '.join(choices)}")

    def _answer_gate(self, kind: str) -> bool:
        """A follow-up the run is asking about right now is answered yes (its own gate does the work)."""
        d = self.current
        if d is not None and d.waiting and (d.question or {}).get("kind") == kind:
            d.answer("yes")
            return True
        return False

    def _finished(self) -> tuple[str | None, dict[str, Any] | None]:
        d = self.current
        if d is None:
            return None, None
        return d.session, d.values

    def _not_this_chats_run(self, intent: Intent, what: str) -> str | None:
        """Downloads and apps here are of this chat's current run. A chat with no run, or a request naming another
        workflow, is told so and shown the command: before, "download tiny-1 to X" in a new chat said "the run has
        not finished" of a run that had completed, and with a run of its own would have offered that run's."""
        d = self.current
        mine = {d.workflow_id, d.session} if d is not None else set()
        named = intent.workflow if intent.workflow and intent.workflow not in mine else None
        if d is not None and named is None:
            return None
        whose = f"{named} is not this chat's current run" if named else "this chat has not started a run yet"
        if what == "download":
            wf = named or "WF"
            return (
                f"{whose}: downloads here are of this chat's current run — for {named or 'a workflow'}: "
                f"orchestrate status {wf} (its output URLs), then orchestrate download URL DIR"
            )
        return f"{whose}: apps here are saved from this chat's current run, at the end of its session"

    def do_download(self, intent: Intent) -> None:
        if (other := self._not_this_chats_run(intent, "download")) is not None:  # before the gate: never a yes for it
            self.say(other)
            return
        if self._answer_gate("download"):
            return
        sid, values = self._finished()
        if not values or not values.get("outputs"):
            self.say("there are no outputs to download yet" + ("" if values else " (this chat's run has not ended)"))
            return
        if values.get("downloaded"):
            self.say(f"already downloaded to {values.get('download_dir')}")
            return
        from runshepherd.downloads import fresh_dest

        wid = (values.get("attempt") or {}).get("workflow_id") or ""
        dest = fresh_dest(Path.home(), wid)
        self.rec.confirm = Confirmation(
            action="download", workflow=wid, session=sid, text=f"Download the outputs of {wid} to {dest}/?"
        )
        self.say(f"? {self.rec.confirm.text} [yes/NO]")

    def _confirmed_download(self, conf: Confirmation) -> None:
        from runshepherd.downloads import fetch, fresh_dest

        values = self._graph_state(conf.session or "").values or {}
        dest = fresh_dest(Path.home(), conf.workflow)
        got = fetch(self.ctx.backend, list(values.get("outputs") or []), dest, workflow_id=conf.workflow)
        self._audit("download", conf, dest=str(dest), files=len(got))
        self.say(f"● download  {len(got)} file(s) → {dest}")

    def do_save_app(self, intent: Intent) -> None:
        if (other := self._not_this_chats_run(intent, "save_app")) is not None:  # before the gate: never a yes for it
            self.say(other)
            return
        if self._answer_gate("save_app"):
            return
        sid, values = self._finished()
        if not values or values.get("outcome") != "COMPLETED":
            self.say("only a run that completed can be saved as an app")
            return
        if values.get("app"):
            self.say(f"already saved as app {values['app'].get('name')}")
            return
        wid = (values.get("attempt") or {}).get("workflow_id") or ""
        self.rec.confirm = Confirmation(
            action="save_app",
            workflow=wid,
            session=sid,
            text=f'Save the spec of {wid} as app "{values.get("spec_name")}"?',
        )
        self.say(f"? {self.rec.confirm.text} [yes/NO]")

    def _confirmed_save_app(self, conf: Confirmation) -> None:
        from runshepherd.apps.registry import AppRegistry, describe
        from runshepherd.backends.app_catalog import AppCreator

        values = self._graph_state(conf.session or "").values or {}
        name = values.get("spec_name") or "workflow"
        if isinstance(self.ctx.backend, AppCreator):
            made = self.ctx.backend.create_app(name, describe(name, values.get("request") or ""), values["spec"])
            self._audit("app create", conf, app=made.name, version=made.version)
            self.say(f"● app       saved {made.name} v{made.version}")
            return
        app = AppRegistry(self.ctx.state_dir / "apps").save(
            name, describe(name, values.get("request") or ""), values["spec"], source_workflow=conf.workflow
        )
        self._audit("app create", conf, app=app.name, version=app.latest)
        self.say(f"● app       saved {app.name} v{app.latest}")

    def do_cancel(self, intent: Intent) -> None:
        if not intent.workflow and (sid := self._current_sweep()) is not None:  # "cancel it", "stop the sweep"
            self._ask_cancel_sweep(sid)
            return
        from runshepherd.cancel_mark import find_target

        # this chat's run, or a session driven elsewhere named by its id or its workflow's, or a workflow: the same
        # lookup and confirmation as `orchestrate cancel` (`cancel_mark.py`)
        wid = self._wid(intent)  # the current run settled: its question asked or its workflow submitted
        target = intent.workflow or self.rec.current
        if not (target and self._waiting(target)):
            target = wid
            if not target:
                self.say("there is no run to cancel")
                return
        t = find_target(self.ctx.backend, self.ctx.state_dir, target, self.ctx.settings.checkpointer)
        if t.nothing is not None:
            self.say(t.nothing)
            return
        text = t.confirm()
        self.rec.confirm = Confirmation(action="cancel", workflow=t.workflow or "", session=t.session, text=text)
        self.say(f"? {text} [yes/NO]")

    def _waiting(self, target: str) -> Any:
        from runshepherd.graph.waiting import waiting_session

        return waiting_session(self.ctx.state_dir, target, self.ctx.settings.checkpointer)

    def _confirmed_cancel(self, conf: Confirmation) -> None:
        """The same cancel as `orchestrate cancel` and MCP's (`cancel_mark.cancel`): a session is marked canceled
        first, then its live workflow is canceled. The line is printed under the print lock, so it comes before the
        status change the cancel causes in a run this chat drives; this chat's own run paused at the question is
        continued so it ends CANCELED at once (its node sees the cancel first, nothing acts)."""
        from runshepherd.cancel_mark import cancel, find_target

        t = find_target(
            self.ctx.backend, self.ctx.state_dir, conf.workflow or conf.session or "", self.ctx.settings.checkpointer
        )
        if t.nothing is not None:
            self.say(t.nothing)
            return
        with self._print_lock:
            self._said("● " + cancel(self.ctx.backend, self.ctx.state_dir, t, via="chat", approved_by="person"))
        d = self.drivers.get(t.session or "")
        if d is not None and d.waiting:
            d.answer("withdrawn by the cancel")

    _confirmed_cancel_session = _confirmed_cancel  # a confirmation a chat stored before the two were one

    def _audit(self, what: str, conf: Confirmation, **details: Any) -> None:
        from runshepherd.audit import record

        record(
            self.ctx.state_dir,
            what,
            approved_by="person",
            session=conf.session,
            workflow=conf.workflow,
            via="chat",
            **details,
        )

    def _ask_cancel_sweep(self, sid: str) -> None:
        """The same confirmation and the same cancel as `orchestrate cancel SWEEP` (`sweep/cancel.py`)."""
        from runshepherd.sweep.cancel import question, refusal
        from runshepherd.sweep.status import point_rows, read_record

        record = read_record(self.ctx.state_dir, sid)
        if record is None:
            self.say(f"sweep {sid} has submitted nothing, so there is nothing to cancel")
            return
        if (no := refusal(self.ctx.state_dir, record, self._values_of)) is not None:
            self.say(no)
            return
        text = question(record, point_rows(record, self._values_of))
        self.rec.confirm = Confirmation(action="cancel_sweep", workflow=sid, session=sid, text=text)
        self.say(f"? {text} [yes/NO]")

    def _confirmed_cancel_sweep(self, conf: Confirmation) -> None:
        from runshepherd.sweep.cancel import cancel_sweep, told
        from runshepherd.sweep.status import read_record

        record = read_record(self.ctx.state_dir, conf.workflow)
        if record is None:
            self.say(f"sweep {conf.workflow} is gone; nothing to cancel")
            return
        points = cancel_sweep(
            self.ctx.backend, self.ctx.state_dir, record, self._values_of, via="chat", approved_by="person"
        )
        d = self.drivers.get(conf.workflow)
        if d is not None and d.waiting:  # an open question of the sweep is moot now: nothing acts on its answer
            d.stop("canceled")
        self.say("\n".join(told(conf.workflow, points)))

    def _values_of(self, sid: str) -> dict[str, Any]:
        return dict(self._graph_state(sid).values or {})

    def do_status(self, intent: Intent) -> None:
        from runshepherd.reports.build import report_for
        from runshepherd.reports.status import render_markdown

        wid = self._wid(intent)
        if not wid:
            self.say(self._no_workflow("no run yet — tell me what to train"))
            return
        report = report_for(self.ctx.backend, wid, runs_dir=self.ctx.state_dir / "runs", settings=self.ctx.settings)
        from runshepherd.reports.status import print_terminal

        text = render_markdown(report)
        with self._print_lock:
            print_terminal(self.ctx.out, report)  # terminal text; the transcript keeps the Markdown
        self.rec.add_turn("shepherd", text)

    def do_sweep_status(self, intent: Intent) -> None:
        """'how is the sweep doing?', 'compare the points': the latest sweep, one line per point, the best."""
        from runshepherd.sweep.status import latest_record, read_record, status_lines

        # the current run's sweep, else this chat's latest one, else the state dir's latest, said to be that
        ours = [r for sid in reversed(self.rec.runs) if (r := read_record(self.ctx.state_dir, sid)) is not None]
        current = self._current_sweep()
        record = read_record(self.ctx.state_dir, current) if current else (ours[0] if ours else None)
        if record is None and (record := latest_record(self.ctx.state_dir)) is not None:
            self.say(
                f"this chat has started no sweep; the latest sweep in {self.ctx.state_dir} is {record.get('sweep')}:"
            )
        if record is None:
            self.say("no sweep yet — start one: 'sweep lr over 1e-3, 3e-4 with FILE.yaml'")
            return
        self.say("\n".join(status_lines(record, self._values_of)))

    def do_pools(self, intent: Intent) -> None:
        """'list pools', 'which pools have free gpus': each pool with what a job can use now, as `orchestrate pools`."""
        from runshepherd.wording import known as n

        lines = []
        for p in self.ctx.backend.pools():
            line = f"  {p.name} ({p.status}): {n(p.effective_gpu_free())} GPUs free for a job now"
            line += f" (quota free {n(p.quota_free)}, total free {n(p.total_free)} of {n(p.total_capacity)})"
            lines.append(line + (f" — {p.description}" if p.description else ""))
            lines += [f"    note: {note}" for note in p.notes]
        self.say("pools:\n" + "\n".join(lines) if lines else "the backend reports no pools")

    def _current_sweep(self) -> str | None:
        from runshepherd.chat.sweeps import SweepDriver

        d = self.current
        return d.session if isinstance(d, SweepDriver) else None

    def do_why_pending(self, intent: Intent) -> None:
        from runshepherd.diagnosis.pending import explain_pending, request_of

        wid = self._wid(intent)
        if not wid:
            self.say(self._no_workflow("no run yet"))
            return
        b = self.ctx.backend
        ws = b.query(wid)
        if ws.status.value not in ("PENDING", "WAITING"):
            self.say(f"{wid} is {ws.status.value}, not waiting in the queue")
            return
        result = explain_pending(
            [e.line() for e in b.events(wid)], b.pools(), b.resources(None), request_of(b.spec(wid), ws.pool)
        )
        self.say("\n".join([f"{wid} is pending: {result.summary}", *[f"  - {s}" for s in result.suggestions]]))

    def do_logs(self, intent: Intent) -> None:
        from runshepherd.reports.build import digests_for

        wid = self._wid(intent)
        if not wid:
            self.say(self._no_workflow("no run yet"))
            return
        ws = self.ctx.backend.query(wid)
        names = [t.name for t in ws.tasks]
        task = intent.task if intent.task != wid else None  # "the logs of tiny-1": the workflow, not a task
        if task is not None and task not in names:
            self.say(f"{wid} has no task {task!r}; its tasks: {', '.join(names)}")
            return
        self.say_markdown(
            f"logs of {wid}{f' task {task}' if task else ''}:",
            digests_for(self.ctx.backend, ws, task=task, settings=self.ctx.settings).markdown,
        )

    def do_explain_workflow(self, intent: Intent) -> None:
        from runshepherd.reports.explain import explain_workflow

        wid = self._wid(intent)
        if not wid:
            self.say("which workflow? say its id, e.g. 'what does workflow tiny-1 do'")
            return
        self.say(explain_workflow(self.ctx.backend, wid).text)

    def do_explain_failure(self, intent: Intent) -> None:
        d = self.current
        values = (self._graph_state(d.session).values or {}) if d and not intent.workflow else {}
        diag = values.get("diagnosis")
        if diag:
            lines = [
                f"{values.get('attempt', {}).get('workflow_id')} failed: {diag['label']} ({diag['origin']}) — "
                f"{diag['explanation']}",
                *[f"    │ {e}" for e in (diag.get("evidence") or [])[:8]],
            ]
            fix = values.get("proposed_fix")
            ran = (values.get("fix_history") or [{}])[-1]
            if fix:
                lines.append(wording.proposed(str(fix.get("explanation") or "")))
            elif ran.get("label") == diag.get("label") and ran.get("reason"):  # the fix already ran: say what was done
                lines.append(f"fix applied (attempt {ran.get('attempt')}): {wording.applied(str(ran['reason']))}")
            elif (diag.get("fix") or {}).get("description"):
                lines.append(wording.proposed(str(diag["fix"]["description"])))
            self.say("\n".join(lines))
            return
        wid = self._wid(intent)
        if not wid:
            self.say(self._no_workflow("no run yet"))
            return
        ws = self.ctx.backend.query(wid)
        if not ws.status.failed():
            self.say(f"{wid} has not failed ({ws.status.value})")
            return
        from runshepherd.cli.diagnose import diagnose_workflow

        with self._print_lock:
            diagnose_workflow(self.ctx, wid, False)

    def do_list_runs(self, intent: Intent) -> None:
        if not self.rec.runs:
            self.say("no runs in this conversation yet — `orchestrate list` shows every workflow on the backend")
            return
        from runshepherd.chat.sweeps import SweepDriver

        rows = []
        for sid in self.rec.runs:
            d = self._driver(sid)
            if not isinstance(d, SweepDriver):  # a script's run still planning: its question (or workflow) is next
                self._settle(d, until_workflow=True)
            if d.waiting:  # before "busy": a sweep's worker stays alive while its question waits
                state = f"waiting for your answer — {(d.question or {}).get('text')}"
            elif d.busy:
                state = "running" if d.workflow_id or isinstance(d, SweepDriver) else "planning"
            else:
                state = (d.values or {}).get("outcome") or "stopped"
            rows.append(f"  {sid}  {d.workflow_id or '-'}  {state}{'  (current)' if sid == self.rec.current else ''}")
        self.say("runs:\n" + "\n".join(rows))


def _outcome(d: Any) -> str | None:
    """A driver's outcome (or a values dict's): None while it runs."""
    values = d if isinstance(d, dict) else d.values
    return (values or {}).get("outcome")
