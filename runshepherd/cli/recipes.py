"""`orchestrate recipe list|show`, and a request sized by a recipe's throughput: N runs of the recipe's spec,
driven as one sweep (`--repeat N`: one session, the plan asked once, one comparison, follow-ups once).
"""

from __future__ import annotations

import sys

from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError
from runshepherd.events import Planned
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
    not_used: list[str],
    sets: list[str],
    pool: str | None,
    session: str,
    yes: bool,
    as_json: bool,
    cadence: float | None = None,
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
    # ``request`` came through the door (`request_text.enter`): what it cut out is said, never read here
    warnings = [*not_used, *([f"pool chosen: {why}"] if why else [])]
    if as_json:
        planned = Planned(spec_name=doc.name, pool=pool, message=plan.explanation(), warnings=warnings)
        ctx.print_json({**planned.wire(), "session": session})
    else:
        ctx.out.print(f"● plan      {plan.explanation()}", markup=False)
        if why:
            ctx.out.print(f"● pool      {why}", markup=False)
        for note in not_used:
            ctx.out.print(f"  ! {note}", markup=False)  # as a session's plan shows its warnings
    if not yes and not sys.stdin.isatty():
        raise UsageError(f"submitting {n} workflows needs confirmation: run again with --yes")
    # N runs of one spec are a sweep (`--repeat N`): one session id, the plan asked once, each run watched,
    # diagnosed and fixed on its own, one comparison, and the follow-ups offered once (issue 16).
    from runshepherd.cli.sweep import prepare
    from runshepherd.sweep.driver import run_sweep

    path = ctx.state_dir / "recipes" / f"{session}-{recipe.name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(recipe.text(), encoding="utf-8")
    sweep = prepare(
        ctx,
        spec=path,
        sweeps=[],
        repeat=n,
        max_parallel=None,
        sets=sets,
        pool=pool,
        session=session,
        yes=yes,
        interactive=sys.stdin.isatty(),
        max_fixes=None,
        cadence=cadence,
        quiet=as_json,
    )
    return run_sweep(ctx, sweep, as_json=as_json)
