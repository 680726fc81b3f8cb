"""`orchestrate recipe list|show`, and a request sized by a recipe's throughput: N submissions, asked once.

A session drives one workflow today (several workflows per session is issue 16), so a target that needs N runs
is submitted here as N workflows of the same spec, each reported by id, and followed with `orchestrate watch`.
"""

from __future__ import annotations

import sys

from runshepherd.audit import record
from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError
from runshepherd.events import Message, Planned, Submitted
from runshepherd.recipes import RecipePlan, get_recipe, list_recipes


def list_cmd(ctx: CliContext, as_json: bool) -> None:
    recipes = list_recipes()
    if as_json:
        ctx.print_json({"recipes": [r.model_dump(exclude={"template"}) for r in recipes]})
        return
    for r in recipes:
        tp = f" — {r.throughput.per_run} {r.throughput.unit} per run" if r.throughput else ""
        ctx.out.print(f"{r.name:<18} {r.kind:<16} {r.summary}{tp}", markup=False)


def show_cmd(ctx: CliContext, name: str, as_json: bool) -> None:
    r = get_recipe(name)
    if as_json:
        ctx.print_json({**r.model_dump(), "spec": r.text()})
        return
    ctx.out.print(f"{r.name} ({r.kind}): {r.summary}", markup=False)
    if r.throughput:
        ctx.out.print(f"throughput: {r.throughput.per_run} {r.throughput.unit} per run ({r.throughput.source})")
    ctx.out.print("parameters (change with --set KEY=VALUE):", markup=False)
    for k, doc in r.parameters.items():
        ctx.out.print(f"  {k}: {doc}", markup=False)
    ctx.out.print(r.text(), markup=False)


def run_plan(
    ctx: CliContext,
    plan: RecipePlan,
    *,
    request: str,
    sets: list[str],
    pool: str | None,
    session: str,
    yes: bool,
    as_json: bool,
) -> int:
    from runshepherd.backends.pool_choice import choose_pool, parse_auto, requested_gpu_type
    from runshepherd.cli.workflows import spec_gpus
    from runshepherd.spec import load_spec_text, parse_set_values

    recipe = plan.recipe
    doc = load_spec_text(recipe.text(), source=f"recipe {recipe.name}", set_values=parse_set_values(sets))
    n = plan.submissions
    why = None
    auto, gpu_type = parse_auto(pool)
    if pool is None or auto:
        choice = choose_pool(ctx.backend.pools(), gpu_type or requested_gpu_type(request), spec_gpus(doc) * n)
        pool, why = choice.pool, choice.reason
    if as_json:
        warnings = [f"pool chosen: {why}"] if why else []
        planned = Planned(spec_name=doc.name, pool=pool, message=plan.explanation(), warnings=warnings)
        ctx.print_json({**planned.wire(), "session": session})
    else:
        ctx.out.print(f"● plan      {plan.explanation()}", markup=False)
        if why:
            ctx.out.print(f"● pool      {why}", markup=False)
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError(f"submitting {n} workflows needs confirmation: run again with --yes")
        import typer

        if not typer.confirm(f"Submit {n} workflows of {recipe.name} to pool {pool}?", default=True):
            ctx.out.print("nothing submitted", markup=False)
            return 1
    ids: list[str] = []
    for i in range(1, n + 1):
        try:
            sub = ctx.backend.submit(doc, pool, idempotency_key=f"{session}-{i}")
        except Exception:
            done = ", ".join(ids) or "none"
            print(f"error: submission {i} of {n} failed; submitted before it: {done}", file=sys.stderr)
            raise
        ids.append(sub.workflow_id)
        record(ctx.state_dir, "submit", approved_by="person", workflow=sub.workflow_id, via=f"recipe {recipe.name}")
        if as_json:
            reused = any("already submitted" in w for w in sub.warnings)
            event = Submitted(attempt=1, workflow_id=sub.workflow_id, reused=reused, reason="initial")
            ctx.print_json({**event.wire(), "session": session})
        else:
            ctx.out.print(f"● submitted {sub.workflow_id} ({i}/{n}) to pool {sub.pool}", markup=False)
    follow = "orchestrate watch " + " ".join(ids)
    if as_json:
        text = f"{n} workflows submitted to pool {pool}: {', '.join(ids)}; follow them with: {follow}"
        ctx.print_json({**Message(level="info", text=text).wire(), "session": session})
    else:
        ctx.out.print(f"● {n} workflows submitted; follow them to the end with: {follow}", markup=False)
    return 0
