"""`orchestrate app list|show|submit`: the local app registry."""

from __future__ import annotations

from runshepherd.apps.registry import AppRegistry
from runshepherd.backends.base import jsonable
from runshepherd.cli.context import CliContext


def _registry(ctx: CliContext) -> AppRegistry:
    return AppRegistry(ctx.state_dir / "apps")


def list_apps(ctx: CliContext, as_json: bool) -> None:
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
    reg = _registry(ctx)
    app = reg.get(ref.partition(":")[0])
    spec = reg.spec(ref)
    if as_json:
        ctx.print_json({**app.model_dump(mode="json"), "spec": spec})
        return
    ctx.out.print(f"{app.name}: {app.description}", markup=False)
    ctx.out.print("versions: " + ", ".join(f"v{v.version} ({v.created})" for v in app.versions), markup=False)
    ctx.out.print(spec, markup=False)


def submit(ctx: CliContext, ref: str, sets: list[str], pool: str | None, as_json: bool) -> None:
    from runshepherd.spec import load_spec_text, parse_set_values

    text = _registry(ctx).spec(ref)
    doc = load_spec_text(text, source=f"app {ref}", set_values=parse_set_values(sets))
    sub = ctx.backend.submit(doc, pool)
    from runshepherd.audit import record

    record(ctx.state_dir, "submit", approved_by="person", workflow=sub.workflow_id, via=f"orchestrate app submit {ref}")
    if as_json:
        ctx.print_json(jsonable(sub))
    else:
        ctx.out.print(
            f"● submitted {sub.workflow_id} from app {ref} — next: orchestrate status {sub.workflow_id}", markup=False
        )
