"""`orchestrate app list|show|submit`: the scheduler's own apps where it hosts them (OSMO), else the local
app registry."""

from __future__ import annotations

from runshepherd.apps.registry import AppRegistry
from runshepherd.backends.app_catalog import AppCatalog
from runshepherd.backends.base import jsonable
from runshepherd.cli.context import CliContext


def _catalog(ctx: CliContext) -> AppCatalog | None:
    if ctx.settings.backend == "local":
        return None
    backend = ctx.backend
    return backend if isinstance(backend, AppCatalog) else None


def _registry(ctx: CliContext) -> AppRegistry:
    return AppRegistry(ctx.state_dir / "apps")


def list_apps(ctx: CliContext, as_json: bool) -> None:
    if (catalog := _catalog(ctx)) is not None:
        hosted = catalog.catalog_apps()
        if as_json:
            ctx.print_json({"apps": [a.model_dump() for a in hosted]})
        elif not hosted:
            ctx.out.print(f"no {ctx.settings.backend} apps visible to you", markup=False)
        for h in hosted if not as_json else []:
            ctx.out.print(f"{h.name}  v{h.latest_version}  {h.description}  (owner {h.owner or '?'})", markup=False)
        return
    apps = _registry(ctx).list_apps()
    if as_json:
        ctx.print_json(
            {"apps": [{"name": a.name, "description": a.description, "latest_version": a.latest} for a in apps]}
        )
        return
    if not apps:
        ctx.out.print("no apps saved yet — a completed session offers to save its spec as one", markup=False)
        return
    for a in apps:
        ctx.out.print(f"{a.name}  v{a.latest}  {a.description}", markup=False)


def show(ctx: CliContext, ref: str, as_json: bool) -> None:
    if (catalog := _catalog(ctx)) is not None:
        hosted = catalog.catalog_app(ref)
        if as_json:
            ctx.print_json(hosted.model_dump())
            return
        ctx.out.print(f"{hosted.name}: {hosted.description}", markup=False)
        ctx.out.print(f"versions: {', '.join(f'v{v}' for v in hosted.versions) or 'unknown'}", markup=False)
        if hosted.parameters:
            ctx.out.print("parameters (change with --set KEY=VALUE):", markup=False)
            from runshepherd.logs.redact import redact_line

            for k, v in hosted.parameters.items():
                ctx.out.print(redact_line(f"  {k} = {v}"), markup=False)
        else:
            ctx.out.print("parameters: none declared", markup=False)
        return
    from runshepherd.logs import redact

    reg = _registry(ctx)
    app = reg.get(ref.partition(":")[0])
    # shown redacted, like `explain`: a secret written literally in the spec is kept (a submit needs it), never shown
    spec = redact(reg.spec(ref), ctx.settings.logs.redaction_patterns)[0]
    if as_json:
        ctx.print_json({**app.model_dump(mode="json"), "spec": spec})
        return
    ctx.out.print(f"{app.name}: {app.description}", markup=False)
    ctx.out.print("versions: " + ", ".join(f"v{v.version} ({v.created})" for v in app.versions), markup=False)
    ctx.out.print(spec, markup=False)


def submit(ctx: CliContext, ref: str, sets: list[str], pool: str | None, as_json: bool) -> None:
    from runshepherd.cli.workflows import resolve_pool, spec_gpus
    from runshepherd.spec import load_spec_text, parse_set_values
    from runshepherd.spec.values import typed_values

    if (catalog := _catalog(ctx)) is not None:
        values = parse_set_values(sets)
        why = None
        if values:  # a parameter of the wrong type is exit 2 here, before the scheduler sees it (OSMO casts as it can)
            typed_values(values, catalog.catalog_app(ref).parameters, source=f"app {ref}")
        if pool is not None and pool.lower().startswith("auto"):
            doc = load_spec_text(catalog.app_spec(ref), source=f"app {ref}", set_values=values)
            pool, why = resolve_pool(ctx, pool, spec_gpus(doc), as_json)
        sub = catalog.submit_app(ref, pool=pool, values=values)
        if as_json:
            ctx.print_json({**jsonable(sub), "app": ref, "pool_choice": why})
        else:
            ctx.out.print(
                f"● submitted {sub.workflow_id} from {ctx.settings.backend} app {ref} to pool {sub.pool}", markup=False
            )
            if sub.overview_url:
                ctx.out.print(f"  overview: {sub.overview_url}", markup=False)
            ctx.out.print(f"  next: orchestrate status {sub.workflow_id}", markup=False)
        return

    text = _registry(ctx).spec(ref)
    doc = load_spec_text(text, source=f"app {ref}", set_values=parse_set_values(sets))
    pool, _ = resolve_pool(ctx, pool, spec_gpus(doc), as_json)
    sub = ctx.backend.submit(doc, pool)
    from runshepherd.audit import record

    record(ctx.state_dir, "submit", approved_by="person", workflow=sub.workflow_id, via=f"orchestrate app submit {ref}")
    if as_json:
        ctx.print_json(jsonable(sub))
    else:
        ctx.out.print(
            f"● submitted {sub.workflow_id} from app {ref} — next: orchestrate status {sub.workflow_id}", markup=False
        )
