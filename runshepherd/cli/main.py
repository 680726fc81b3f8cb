"""`orchestrate`: the typer app. Parsing and rendering only; the work happens in the packages it calls.

Heavy imports (langgraph, the backends) happen inside commands so `orchestrate --help` starts fast.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from runshepherd.cli.options import COMMON, Common, ConfigOpt, StateDirOpt, common_options
from runshepherd.errors import RunShepherdError, UsageError
from runshepherd.watch import RUNS_SHAPE

app = typer.Typer(
    name="orchestrate",
    help=(
        "RunShepherd: take an ML job from a sentence to results.\n\n"
        'Run `orchestrate "train a small classifier for 3 epochs"` or use a command below.'
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
    rich_markup_mode=None,
)
app_cmd = typer.Typer(help="Reusable apps: saved, versioned workflow specs.", no_args_is_help=True)
app.add_typer(app_cmd, name="app")
credential_cmd = typer.Typer(
    help="Scheduler credentials (OSMO: `osmo credential`); values from env or files, never shown.",
    no_args_is_help=True,
)
app.add_typer(credential_cmd, name="credential")
recipe_cmd = typer.Typer(help="Workload recipes shipped with RunShepherd (OSMO templates).", no_args_is_help=True)
app.add_typer(recipe_cmd, name="recipe")
data_cmd = typer.Typer(help="Storage locations: access checks (OSMO: `osmo data`).", no_args_is_help=True)
app.add_typer(data_cmd, name="data")

# Options every subcommand accepts (docs/architecture.md §13.1): --config/--state-dir/--backend come from
# @common_options (runshepherd/cli/options.py); the rest are declared once here and used by name.
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="Template value KEY=VALUE (repeatable).")]
CheckpointerOpt = Annotated[
    str | None,
    typer.Option(
        "--checkpointer",
        help="Sessions in PostgreSQL (postgresql://USER@HOST:PORT/DB) instead of SQLite in the state dir.",
        show_default=False,
    ),
]
YesOpt = Annotated[
    bool,
    typer.Option(
        "--yes", "-y", help="Take each question's default (submit, fix, download); never runs something else."
    ),
]
NoInputOpt = Annotated[
    bool, typer.Option("--no-input", help="Never prompt: pause at a question (exit 3) and print how to answer it.")
]


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        print(f"orchestrate (runshepherd) {version('runshepherd')}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_version, is_eager=True)
    ] = False,
) -> None:
    """RunShepherd: take an ML job from a sentence to results."""


_LIST_WF = "`orchestrate list` shows the workflows"
_LIST_SESSIONS = "`orchestrate sessions` the sessions and sweeps"
# A command run without its id: one line naming what to pass and where to find it (exit 2), not click's usage.
_NEEDS = {
    "status": f"say which run: orchestrate status WORKFLOW (or SWEEP) — {_LIST_WF}, {_LIST_SESSIONS}",
    "logs": f"say which workflow: orchestrate logs WORKFLOW — {_LIST_WF}",
    "explain": f"say which workflow: orchestrate explain WORKFLOW — {_LIST_WF}",
    "cancel": f"say what to cancel: orchestrate cancel WORKFLOW, SESSION or SWEEP — {_LIST_WF}, {_LIST_SESSIONS}",
    "resume": "say which session: orchestrate resume SESSION — `orchestrate sessions` lists them",
    "attach": "say which session: orchestrate attach SESSION — `orchestrate sessions` lists them",
}


def _given(command: str, value: str | None) -> str:
    if value is None:
        raise UsageError(_NEEDS[command])
    return value


def _session_id(value: str | None) -> str | None:
    from runshepherd.names import check_id

    return None if value is None else check_id(value, "session id")


MIN_CADENCE = 0.1  # seconds: closer polls only load the scheduler
MAX_CADENCE = 86400.0  # a day: a poll further apart than that watches nothing


def _cadence(value: float | None) -> float | None:
    """`--cadence`, the one range check: click's own `min=` read nan as "should be greater than or equal to 0.1"
    (nan compares false) and let inf through, either of which would never poll."""
    import math

    if value is None or (math.isfinite(value) and MIN_CADENCE <= value <= MAX_CADENCE):
        return value
    if not math.isfinite(value):
        why = "not a number of seconds"
    elif value < MIN_CADENCE:
        why = f"below {MIN_CADENCE} s"
    else:
        why = "more than a day"
    raise UsageError(
        f"--cadence {value:g}: {why}; give the seconds between status polls as a number from {MIN_CADENCE} to "
        f"{MAX_CADENCE:.0f} (a day), e.g. --cadence 30; leave it out for the adaptive default"
    )


CadenceOpt = Annotated[
    float | None,
    typer.Option(
        "--cadence",
        help=f"Seconds between status polls, {MIN_CADENCE} to {MAX_CADENCE:.0f} (default: adaptive).",
        callback=_cadence,
    ),
]


def _workflow_id(value: str | None) -> str | None:
    from runshepherd.names import check_id

    return None if value is None else check_id(value, "workflow id")


def _app_ref(value: str) -> str:
    from runshepherd.names import check_id

    check_id(value.partition(":")[0], "app name")
    return value


WorkflowArg = Annotated[str | None, typer.Argument(help="Workflow id.", callback=_workflow_id, show_default=False)]


# ------------------------------------------------------------------------------------------------ workflows
@app.command()
@common_options
def submit(
    spec: Annotated[Path, typer.Argument(help="Workflow spec (OSMO YAML).")],
    set_: SetOpt = None,
    pool: Annotated[
        str | None, typer.Option("--pool", help="A pool, or auto[:GPU_TYPE] to pick one with free GPUs.")
    ] = None,
    priority: Annotated[str, typer.Option("--priority", help="HIGH | NORMAL | LOW")] = "NORMAL",
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Submit a spec as it is (no graph, no questions) and print the workflow id."""
    from runshepherd.cli import workflows

    workflows.submit(opts.ctx(), spec, set_ or [], pool, priority.upper(), json_)


@app.command()
@common_options
def validate(
    spec: Annotated[Path, typer.Argument(help="Workflow spec (OSMO YAML).")],
    set_: SetOpt = None,
    pool: Annotated[
        str | None, typer.Option("--pool", help="A pool, or auto[:GPU_TYPE] to pick one with free GPUs.")
    ] = None,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Check a spec (and, where the scheduler can, its resources) without submitting it."""
    from runshepherd.cli import workflows

    workflows.validate(opts.ctx(), spec, set_ or [], pool, json_)


@app.command()
@common_options
def download(
    url: Annotated[str, typer.Argument(help="Output location (file://, s3://, … as the backend knows it).")],
    dest: Annotated[Path, typer.Argument(help="Local folder.")] = Path("."),
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Replace files already in DEST (otherwise asks, or refuses: exit 2).")
    ] = False,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Download outputs from the backend's storage (`osmo data download` on OSMO)."""
    from runshepherd.cli import workflows

    workflows.download(opts.ctx(), url, dest, json_, overwrite)


@app.command()
@common_options
def status(
    workflow: WorkflowArg = None,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Status first, then what the logs show, then the status block."""
    from runshepherd.cli import workflows

    workflows.status(opts.ctx(), _given("status", workflow), json_)


@app.command("list")
@common_options
def list_(
    status_: Annotated[list[str] | None, typer.Option("--status", help="Only these statuses.")] = None,
    pool: Annotated[str | None, typer.Option("--pool", help="Only this pool.")] = None,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Recent workflows with pool, status and duration."""
    from runshepherd.cli import workflows

    workflows.list_workflows(opts.ctx(), status_ or [], pool, json_)


@app.command()
@common_options
def logs(
    workflow: WorkflowArg = None,
    task: Annotated[str | None, typer.Option("--task", help="Only this task.")] = None,
    raw: Annotated[bool, typer.Option("--raw", help="Print the raw lines (bounded by --tail).")] = False,
    tail: Annotated[int, typer.Option("--tail", help="Last N lines.")] = 200,
    follow: Annotated[
        bool, typer.Option("--follow", "-f", help="Keep printing new raw lines until the workflow ends (Ctrl-C stops).")
    ] = False,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """A digest of the logs (stage, progress, errors); --raw for the lines themselves; -f to follow them."""
    from runshepherd.cli import workflows

    raise typer.Exit(workflows.logs(opts.ctx(), _given("logs", workflow), task, raw, tail, json_, follow) or 0)


@app.command()
@common_options
def cancel(
    workflow: Annotated[
        str | None,
        typer.Argument(
            help="Workflow id, session id, or sweep id (every point; SWEEP-pN cancels one point).",
            callback=_workflow_id,
            show_default=False,
        ),
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    json_: JsonOpt = False,
    opts: Common = COMMON,
    checkpointer: CheckpointerOpt = None,
) -> None:
    """Cancel a workflow, a session's workflow, or a whole sweep (asks first unless --yes). Final."""
    from runshepherd.cli import workflows

    workflows.cancel(opts.ctx(checkpointer), _given("cancel", workflow), yes, json_)


@app.command()
@common_options
def pools(
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Pools with GPU quota and capacity (free = min(quota free, total free))."""
    from runshepherd.cli import workflows

    workflows.pools(opts.ctx(), json_)


@app.command()
@common_options
def resources(
    pool: Annotated[str | None, typer.Argument(help="Pool (default: all).")] = None,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Nodes with CPU, memory and GPUs: total and free."""
    from runshepherd.cli import workflows

    workflows.resources(opts.ctx(), pool, json_)


# ------------------------------------------------------------------------------------------------ graph-driven
def _run_args(
    request: str | None,
    spec: Path | None,
    sets: list[str],
    pool: str | None,
    yes: bool,
    max_fixes: int | None,
    cadence: float | None,
    config: Path | None,
    backend: str | None,
) -> list[str]:
    """The `run` options a detached session is started with (it always runs with --json --no-input)."""
    args = [request] if request else []
    args += ["--spec", str(spec.resolve())] if spec else []
    for item in sets:
        args += ["--set", item]
    args += ["--pool", pool] if pool else []
    args += ["--yes"] if yes else []
    args += ["--max-fixes", str(max_fixes)] if max_fixes is not None else []
    args += ["--cadence", str(cadence)] if cadence is not None else []
    args += ["--config", str(config.resolve())] if config else []
    args += ["--backend", backend] if backend else []
    return args


@app.command()
@common_options
def run(
    request: Annotated[str | None, typer.Argument(help="What to do, in a sentence.")] = None,
    spec: Annotated[Path | None, typer.Option("--spec", help="Use this spec unchanged.")] = None,
    set_: SetOpt = None,
    pool: Annotated[
        str | None, typer.Option("--pool", help="A pool, or auto[:GPU_TYPE] to pick one with free GPUs.")
    ] = None,
    session: Annotated[
        str | None, typer.Option("--session", help="Use this session id (default: a new one).", callback=_session_id)
    ] = None,
    yes: YesOpt = False,
    no_input: NoInputOpt = False,
    json_: JsonOpt = False,
    max_fixes: Annotated[
        int | None, typer.Option("--max-fixes", help="Automatic fix attempts before asking you (default 3).")
    ] = None,
    cadence: CadenceOpt = None,
    notify: Annotated[
        list[str] | None,
        typer.Option(
            "--notify", help="Send state changes, questions and the end to https://…, mailto:…, desktop, file:PATH."
        ),
    ] = None,
    detach: Annotated[
        bool, typer.Option("--detach", help="Run the session in the background; print its id and return.")
    ] = False,
    sweep: Annotated[
        list[str] | None,
        typer.Option("--sweep", help="Run one workflow per value: KEY=V1,V2 (repeatable; the cartesian product)."),
    ] = None,
    repeat: Annotated[
        int, typer.Option("--repeat", help="Run each point N times (distinct seeds where the spec has one).")
    ] = 1,
    max_parallel: Annotated[
        int | None, typer.Option("--max-parallel", help="Sweep points running at once (default: all).")
    ] = None,
    opts: Common = COMMON,
    checkpointer: CheckpointerOpt = None,
) -> None:
    """Plan, submit, watch, diagnose, fix and follow up — the end-to-end session."""
    from runshepherd.cli import session as s

    ctx = opts.ctx(checkpointer)
    if notify:  # a run's and a sweep's (every point's) state changes, questions and end
        from runshepherd.notify import parse_targets

        parse_targets(notify, ctx.settings.smtp)  # a bad target is an error before anything is submitted
        ctx.settings = ctx.settings.model_copy(update={"notify": [*ctx.settings.notify, *notify]})
    if not sweep and repeat == 1 and request:
        from runshepherd.cli import sweep as sw

        said = sw.said_in(request, spec)  # "sweep lr over 1e-3, 3e-4", "run this with 3 seeds"
        if said is not None:
            sweep, repeat = said.sweeps, said.repeat
    if sweep or repeat != 1:
        from runshepherd.cli import sweep as sw

        if detach and checkpointer:  # to the background process through its environment, never argv (ps)
            import os

            os.environ["RUNSHEPHERD_CHECKPOINTER"] = checkpointer
        raise typer.Exit(
            sw.run(
                ctx,
                request=request,
                spec=spec,
                sweeps=sweep or [],
                repeat=repeat,
                max_parallel=max_parallel,
                sets=set_ or [],
                pool=pool,
                session=session,
                yes=yes,
                no_input=no_input,
                as_json=json_,
                max_fixes=max_fixes,
                cadence=cadence,
                detach=detach,
                config=opts.config,
                backend=opts.backend,
            )
        )
    if max_parallel is not None:  # only a sweep has points to run at once: never silently ignored
        raise UsageError("--max-parallel applies to a sweep: add --sweep KEY=V1,V2 or --repeat N")
    if detach:
        import os

        from runshepherd.cli import detached
        from runshepherd.logs import redact

        if checkpointer:  # to the background process through its environment: argv is visible to others (ps)
            os.environ["RUNSHEPHERD_CHECKPOINTER"] = checkpointer
        if notify:  # the same: a webhook URL carries its token (the config's targets and --notify's, as a sweep)
            import json

            os.environ["RUNSHEPHERD_NOTIFY"] = json.dumps(ctx.settings.notify)

        request = redact(request)[0] if request else request  # argv is visible to other users (ps)
        args = _run_args(request, spec, set_ or [], pool, yes, max_fixes, cadence, opts.config, opts.backend)
        sid = session or s.new_session_id()
        s.check_new_session(ctx, request=request, spec=spec, sets=set_ or [], session=session, pool=pool)
        raise typer.Exit(detached.start(ctx, sid, args, json_))
    code = s.run(
        ctx,
        request=request,
        spec=spec,
        sets=set_ or [],
        pool=pool,
        session=session,
        yes=yes,
        no_input=no_input,
        as_json=json_,
        max_fixes=max_fixes,
        cadence=cadence,
    )
    raise typer.Exit(code)


@app.command()
@common_options
def draft(
    request: Annotated[str, typer.Argument(help="What the workflow should do, in a sentence.")],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the spec here (default: stdout).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing -o FILE.")] = False,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Write and validate a spec for a request without submitting it (URL inputs/outputs, image, topology)."""
    from runshepherd.cli import draft as d

    raise typer.Exit(d.draft(opts.ctx(), request, output, force, json_))


@app.command()
@common_options
def resume(
    session: Annotated[
        str | None, typer.Argument(help="Session or sweep id.", callback=_session_id, show_default=False)
    ] = None,
    answer: Annotated[
        str | None, typer.Option("--answer", help="Answer the waiting question (one of its listed answers).")
    ] = None,
    yes: YesOpt = False,
    no_input: NoInputOpt = False,
    json_: JsonOpt = False,
    opts: Common = COMMON,
    checkpointer: CheckpointerOpt = None,
) -> None:
    """Continue a session where it stopped (answer a waiting question with --answer)."""
    from runshepherd.cli import session as s

    code = s.resume(
        opts.ctx(checkpointer),
        session=_given("resume", session),
        answer=answer,
        yes=yes,
        no_input=no_input,
        as_json=json_,
    )
    raise typer.Exit(code)


@app.command()
@common_options
def attach(
    session: Annotated[
        str | None,
        typer.Argument(help="A session started with `run --detach`.", callback=_session_id, show_default=False),
    ] = None,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Follow a detached session's events until it ends (Ctrl-C leaves it running)."""
    from runshepherd.cli import detached

    raise typer.Exit(detached.attach(opts.ctx(), _given("attach", session), json_))


@app.command()
@common_options
def sessions(
    json_: JsonOpt = False,
    opts: Common = COMMON,
    checkpointer: CheckpointerOpt = None,
) -> None:
    """Sessions with their state and waiting question."""
    from runshepherd.cli import session as s

    s.sessions(opts.ctx(checkpointer), json_)


@app.command("migrate-sessions")
def migrate_sessions(
    to: Annotated[str, typer.Argument(help="The PostgreSQL to copy into: postgresql://USER@HOST:PORT/DB")],
    json_: JsonOpt = False,
    config: ConfigOpt = None,
    state_dir: StateDirOpt = None,
) -> None:
    """Copy every session from the state dir's SQLite into PostgreSQL (sessions already there are skipped)."""
    from runshepherd.cli import session as s

    s.migrate(Common(config, state_dir).ctx(with_backend=False), to, json_)


@app.command()
@common_options
def diagnose(
    targets: Annotated[list[str] | None, typer.Argument(help="WORKFLOW, or log files with --log.")] = None,
    log: Annotated[bool, typer.Option("--log", help="The arguments are log files: diagnose from their text.")] = False,
    rules_only: Annotated[
        bool,
        typer.Option(
            "--rules-only",
            help="With --log: the rules' reading alone, without the learned model's disputed confidence or a configured "
            "model expert's second look.",
        ),
    ] = False,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Why a workflow failed or is stuck, with the evidence and a fix; or diagnose log files (--log)."""
    from runshepherd.cli import diagnose as d

    targets = targets or []
    if not targets:
        raise UsageError("say what to diagnose: orchestrate diagnose WORKFLOW, or --log FILE [FILE ...]")
    if rules_only and not log:
        raise UsageError("--rules-only reads log files: orchestrate diagnose --log FILE [FILE ...] --rules-only")
    if log:
        code = d.diagnose_files(opts.ctx(), [Path(t) for t in targets], json_, rules_only=rules_only)
    elif len(targets) == 1:
        code = d.diagnose_workflow(opts.ctx(), targets[0], json_)
    else:
        raise UsageError("one workflow at a time; for log files use --log FILE [FILE ...]")
    raise typer.Exit(code)


@app.command()
@common_options
def watch(
    ids: Annotated[
        list[str] | None, typer.Argument(help="Workflow id, Slurm job/array id, or OSMO workflow id.")
    ] = None,
    detach: Annotated[bool, typer.Option("--detach", help="Hand it to a background monitor and return.")] = False,
    list_: Annotated[bool, typer.Option("--list", help="Background monitors and what they last saw.")] = False,
    stop: Annotated[str | None, typer.Option("--stop", help="Stop the background monitor of this run.")] = None,
    notify: Annotated[
        list[str] | None,
        typer.Option("--notify", help="Send state changes to https://…, mailto:…, desktop or file:PATH (repeatable)."),
    ] = None,
    runs: Annotated[
        Path | None, typer.Option("--runs", help=f"A YAML file of several runs to watch — {RUNS_SHAPE}.")
    ] = None,
    cadence: CadenceOpt = None,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Follow a run to its end (started here or not): status block, digest, diagnosis, runs/<id>-status.md."""
    from runshepherd.cli import watch as w

    ctx = opts.ctx()
    if list_:
        raise typer.Exit(w.list_watches(ctx, json_))
    if stop is not None:
        raise typer.Exit(w.stop_watch(ctx, stop, json_))
    code = w.watch(
        ctx,
        ids or [],
        runs_file=runs,
        detach=detach,
        notify=notify or [],
        cadence=cadence,
        config=opts.config,
        as_json=json_,
    )
    raise typer.Exit(code)


@app.command()
@common_options
def explain(
    workflow: WorkflowArg = None,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """What a workflow does, how, and what it produces."""
    from runshepherd.cli import workflows

    workflows.explain(opts.ctx(), _given("explain", workflow), json_)


@app.command()
@common_options
def chat(
    opts: Common = COMMON,
    session: Annotated[
        str | None, typer.Option("--session", help="Continue this conversation.", callback=_session_id)
    ] = None,
    new: Annotated[bool, typer.Option("--new", help="Start a new conversation named by --session.")] = False,
    cadence: CadenceOpt = None,
    checkpointer: CheckpointerOpt = None,
) -> None:
    """A conversation that starts, inspects, explains and steers runs."""
    from runshepherd.cli import chat as c

    raise typer.Exit(c.chat(opts.ctx(checkpointer), session=session, new=new, cadence=cadence))


@app.command()
@common_options
def mcp(
    http: Annotated[
        str | None, typer.Option("--http", help="Serve streamable HTTP on HOST:PORT instead of stdio.")
    ] = None,
    cadence: CadenceOpt = None,
    opts: Common = COMMON,
    checkpointer: CheckpointerOpt = None,
) -> None:
    """Serve the tools to a coding agent over MCP (stdio; --http HOST:PORT for streamable HTTP)."""
    from runshepherd.mcpserver.server import parse_http, serve

    if http is not None:
        parse_http(http)  # a bad address is exit 2 before anything starts
    serve(opts.ctx(checkpointer), http=http, cadence=cadence)


@app_cmd.command("list")
@common_options
def app_list(json_: JsonOpt = False, opts: Common = COMMON) -> None:
    """Apps with their latest version: the scheduler's own (OSMO) or the local registry."""
    from runshepherd.cli import apps

    apps.list_apps(opts.ctx(), json_)


@app_cmd.command("show")
@common_options
def app_show(
    name: Annotated[str, typer.Argument(help="NAME or NAME:VERSION", callback=_app_ref)],
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """An app's description, versions and parameters (OSMO) or spec (local registry)."""
    from runshepherd.cli import apps

    apps.show(opts.ctx(), name, json_)


@app_cmd.command("submit")
@common_options
def app_submit(
    name: Annotated[str, typer.Argument(help="NAME or NAME:VERSION", callback=_app_ref)],
    set_: SetOpt = None,
    pool: Annotated[
        str | None, typer.Option("--pool", help="A pool, or auto[:GPU_TYPE] to pick one with free GPUs.")
    ] = None,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Submit an app (latest version unless NAME:VERSION); --pool auto[:GPU_TYPE] picks a pool with free GPUs."""
    from runshepherd.cli import apps

    apps.submit(opts.ctx(), name, set_ or [], pool, json_)


@credential_cmd.command("list")
@common_options
def credential_list(json_: JsonOpt = False, opts: Common = COMMON) -> None:
    """Stored credentials: name, type and what they apply to (never values)."""
    from runshepherd.cli import credentials

    credentials.list_credentials(opts.ctx(), json_)


@credential_cmd.command("set")
@common_options
def credential_set(
    name: Annotated[str, typer.Argument(help="Credential name (letters, digits, - and _).")],
    type_: Annotated[str, typer.Option("--type", help="REGISTRY | DATA | GENERIC")] = "GENERIC",
    registry: Annotated[
        str | None, typer.Option("--registry", help="REGISTRY: the registry host, e.g. nvcr.io")
    ] = None,
    username: Annotated[
        str | None, typer.Option("--username", help="REGISTRY: user name (nvcr.io: $oauthtoken by default)")
    ] = None,
    from_env: Annotated[
        list[str] | None, typer.Option("--from-env", help="KEY=ENV_VARIABLE: the value of a variable (repeatable).")
    ] = None,
    from_file: Annotated[
        list[str] | None, typer.Option("--from-file", help="KEY=PATH: the contents of a file (repeatable).")
    ] = None,
    value: Annotated[
        list[str] | None,
        typer.Option("--value", help="KEY=VALUE for non-secret keys only (registry, username, endpoint, region)."),
    ] = None,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Create or update a credential. An nvcr.io REGISTRY credential takes $NGC_CLI_API_KEY when no auth is given."""
    from runshepherd.cli import credentials

    credentials.set_credential(
        opts.ctx(),
        name,
        type_,
        registry=registry,
        username=username,
        from_env=from_env or [],
        from_file=from_file or [],
        values=value or [],
        as_json=json_,
    )


@credential_cmd.command("delete")
@common_options
def credential_delete(
    name: Annotated[str, typer.Argument()],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Delete a credential (asks first unless --yes)."""
    from runshepherd.cli import credentials

    credentials.delete_credential(opts.ctx(), name, yes, json_)


@recipe_cmd.command("list")
def recipe_list(json_: JsonOpt = False) -> None:
    """Recipes: kind, summary and per-run throughput where known."""
    from runshepherd.cli import recipes

    recipes.list_cmd(COMMON.ctx(), json_)


@recipe_cmd.command("show")
def recipe_show(name: Annotated[str, typer.Argument()], json_: JsonOpt = False) -> None:
    """A recipe's parameters, throughput (with its source) and template."""
    from runshepherd.cli import recipes

    recipes.show_cmd(COMMON.ctx(), name, json_)


@data_cmd.command("check")
@common_options
def data_check(
    uri: Annotated[
        str, typer.Argument(help="s3://…, gs://…, azure://… on OSMO; a path or file:// URL on local/Slurm.")
    ],
    access: Annotated[str, typer.Option("--access", help="read | write")] = "read",
    json_: JsonOpt = False,
    opts: Common = COMMON,
) -> None:
    """Check read or write access to a storage location (exit 0 yes, 1 no)."""
    from runshepherd.cli import workflows

    raise typer.Exit(workflows.check_access(opts.ctx(), uri, access, json_))


# ------------------------------------------------------------------------------------------------ entry point
ALIASES = {"version": "--version", "help": "--help"}


def _split_by_the_shell(words: list[str], command: str | None, options: list[str]) -> str:
    """What to say of a request typed without quotes: the shell handed each word on separately. The command to type
    instead keeps the person's options after the quoted request."""
    import shlex

    typed = shlex.join([*([command] if command else []), " ".join(words), *options])
    return (
        f"the shell split your request into {len(words)} arguments — put the whole request in one pair of quotes: "
        f"orchestrate {typed}"
    )


def _argv_with_default_command(argv: list[str]) -> list[str]:
    """`orchestrate "train X" --yes` means `orchestrate run "train X" --yes`.

    A bare request is a sentence (two words or more); one word is a mistyped command (did-you-mean) or needs
    `run`, so `orchestrate version` or `orchestrate stauts x` never plans a job."""
    import difflib
    import itertools

    if not argv:
        return argv
    first = argv[0]
    group = typer.main.get_group(app)
    commands = set(group.commands)
    if first == "run":
        _refuse_script_flags_outside_the_request(group.commands["run"], argv[1:])
    if first in commands or first.startswith("-"):
        return argv
    words = first.split()
    if len(words) >= 2:
        _refuse_script_flags_outside_the_request(group.commands["run"], argv)
        return ["run", *argv]
    if not words:
        raise UsageError('the request is empty — say what to run, e.g. orchestrate "train a small classifier"')
    if first.lower() in ALIASES:
        raise UsageError(f"no command {first!r} — did you mean `orchestrate {ALIASES[first.lower()]}`?")
    visible = sorted(n for n, c in group.commands.items() if not getattr(c, "hidden", False))
    near = difflib.get_close_matches(first.lower(), visible, n=1, cutoff=0.6)
    if near:
        raise UsageError(
            f"no command {first!r} — did you mean `orchestrate {near[0]}`? (`orchestrate --help` lists them)"
        )
    words_after = list(itertools.takewhile(lambda a: not a.startswith("-"), argv[1:]))
    if words_after:  # `orchestrate train a small classifier --yes`: a sentence the shell split, not one word
        words, rest = [first, *words_after], argv[1 + len(words_after) :]
        raise UsageError(f"{first!r} is not a command, and {_split_by_the_shell(words, None, rest)}")
    raise UsageError(
        f"{first!r} is not a command, and one word is not a request — describe the job in a sentence "
        f'(orchestrate "train a small classifier"), or plan it as written with: orchestrate run {first!r}'
    )


def _refuse_script_flags_outside_the_request(command: Any, args: list[str]) -> None:
    """`orchestrate run train.py --epochs 2`: the flags are meant for the script, but the shell hands them to
    `run`, which has no `--epochs`. Say how to pass them (inside the quotes) instead of listing run's options."""
    import difflib
    import shlex

    takes_value: dict[str, bool] = {}
    for param in command.params:
        if param.param_type_name == "option":
            for opt in [*param.opts, *param.secondary_opts]:
                takes_value[opt] = not (param.is_flag or param.count)
    request: list[str] = []
    known: list[str] = []
    unknown: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        name = token.split("=", 1)[0]
        if token == "--":
            request += args[i + 1 :]
            break
        if token.startswith("-") and name in takes_value:
            value = takes_value[name] and "=" not in token and i + 1 < len(args)
            known += args[i : i + 2] if value else [token]
            i += 2 if value else 1
            continue
        if token.startswith("--") and len(token) > 2:
            unknown.append(token)
            while i + 1 < len(args) and not args[i + 1].startswith("-"):  # its values
                i += 1
                unknown.append(args[i])
        else:
            request.append(token)
        i += 1
    flags = " ".join(t.split("=", 1)[0] for t in unknown if t.startswith("--"))
    if len(request) > 1 and not unknown and "--help" not in known:  # was click's "Got unexpected extra argument(s)"
        raise UsageError(_split_by_the_shell(request, "run", known))
    if not unknown or not request or "--help" in known:
        return
    if any(difflib.get_close_matches(f, takes_value, n=1, cutoff=0.8) for f in flags.split()):
        return  # a typo of run's own option (`--yse`): click's did-you-mean says it better
    fixed = shlex.join([" ".join([*request, *unknown]), *known])
    raise UsageError(
        f"{flags}: not an option of `orchestrate run` — to give flags to your script, put them inside the "
        f"request's quotes: orchestrate run {fixed}"
    )


_TAKES_A_WORKFLOW = {"status", "logs", "diagnose", "explain", "watch"}


def _file_hint(exc: RunShepherdError, args: list[str]) -> str:
    """`diagnose job.log`, `explain train.yaml`: a file where a workflow id belongs. Say the command for the file
    (before: "no workflow 'job.log' on the local backend" or "… is not a valid id", and nothing more)."""
    if len(args) < 2 or args[0] not in _TAKES_A_WORKFLOW or args[1].startswith("-") or repr(args[1]) not in str(exc):
        return ""
    name = args[1]
    try:
        is_file = Path(name).expanduser().is_file()
    except OSError:
        return ""
    if not is_file:
        return ""
    if name.endswith((".yaml", ".yml")):
        return f"; {name} is a file here — a spec: orchestrate validate {name} checks it, orchestrate run --spec {name} runs it"
    return f"; {name} is a file here — a log: orchestrate diagnose --log {name}"


def _session_hint(exc: RunShepherdError, args: list[str]) -> str:
    """`status 1a2b3c4d` names a session, not a workflow: say which workflow it ran (SQLite sessions only)."""
    from runshepherd.backends.base import WorkflowNotFound

    state_dir = _state_dir_of(args)
    if not isinstance(exc, WorkflowNotFound) or state_dir is None:
        return ""
    from runshepherd.graph.checkpoint import has_session
    from runshepherd.graph.runner import SessionRunner

    sid = exc.workflow_id
    command = args[0] if args else "status"
    if re.fullmatch(r"[A-Za-z0-9][\w.-]*", sid) and (state_dir / "sweeps" / sid / "sweep.json").is_file():
        return f"; {sid} is a sweep — `orchestrate status {sid}` lists its points, each with its workflow id"
    try:
        if not has_session(state_dir, sid):
            return ""
        values = SessionRunner(state_dir, sid).snapshot().values or {}
    except Exception:  # noqa: BLE001 - a hint must never hide the error it adds to
        return ""
    wid = (values.get("attempt") or {}).get("workflow_id")
    if not wid:
        return f"; {sid} is a session that has submitted nothing yet (`orchestrate sessions` shows it)"
    return f"; {sid} is a session — its workflow is {wid}: orchestrate {command} {wid}"


def _state_dir_of(args: list[str]) -> Path | None:
    """The state dir this invocation uses, read without running the command (for the crash dump's place)."""
    import os

    for i, a in enumerate(args):
        if a == "--state-dir" and i + 1 < len(args):
            return Path(args[i + 1]).expanduser()
        if a.startswith("--state-dir="):
            return Path(a.partition("=")[2]).expanduser()
    if os.environ.get("RUNSHEPHERD_STATE_DIR"):
        return Path(os.environ["RUNSHEPHERD_STATE_DIR"]).expanduser()
    try:
        from runshepherd.config import load_settings

        return load_settings(None, flags={}).resolved_state_dir()
    except Exception:  # noqa: BLE001 - a broken config must not hide the crash being reported
        return None


def _crash_file(state_dir: Path | None) -> Any:
    """An open file for the crash dump: under the state dir (`crashes/`), the temp dir only if that fails."""
    import tempfile
    from datetime import UTC, datetime

    if state_dir is not None:
        try:
            folder = state_dir / "crashes"
            folder.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
            return tempfile.NamedTemporaryFile("w", dir=folder, prefix=f"crash-{stamp}-", suffix=".txt", delete=False)
        except OSError:
            pass
    return tempfile.NamedTemporaryFile("w", prefix="runshepherd-crash-", suffix=".txt", delete=False)


def _internal_error(exc: BaseException, state_dir: Path | None = None) -> int:
    import traceback

    from runshepherd.environment import environment_problem
    from runshepherd.render.safe import visible

    problem = environment_problem(exc)
    if problem is not None:  # the machine's refusal (disk full, read-only, damaged file): not a bug of ours
        print(visible(f"error: {problem}"), file=sys.stderr)
        return problem.exit_code
    with _crash_file(state_dir) as fh:
        traceback.print_exception(exc, file=fh)
    print(
        visible(f"internal error: {type(exc).__name__}: {exc}") + "\n"
        f"This is a bug in RunShepherd, not in your job; details are in {fh.name}. Sessions and workflows are "
        "kept: `orchestrate sessions` lists them and `orchestrate resume ID` continues one.",
        file=sys.stderr,
    )
    return 1


def main(argv: list[str] | None = None) -> int:
    """Entry point. Errors a person can act on print one line (no traceback) and set the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _argv_with_default_command(args)
        app(args=args, prog_name="orchestrate")
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except RunShepherdError as exc:
        from runshepherd.logs.redact import redact_line  # an error may quote a value typed by mistake (--set lr=$TOKEN)
        from runshepherd.render.safe import visible  # a path or id it quotes can hold an escape sequence

        hint = _session_hint(exc, args) or _file_hint(exc, args)
        print(visible(f"error: {redact_line(str(exc))}{hint}"), file=sys.stderr)
        code = exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        code = 130
    except Exception as exc:  # a bug of ours: say so plainly, keep the details in a file, not on the screen
        code = _internal_error(exc, _state_dir_of(args))
    if argv is None:
        sys.exit(code)
    return code


if __name__ == "__main__":  # pragma: no cover
    main()
