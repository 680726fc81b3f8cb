"""`orchestrate credential list|set|delete`: the scheduler's credential store (OSMO: `osmo credential`).

Values are never printed, logged or stored by RunShepherd; reports name each key's source instead.
"""

from __future__ import annotations

import sys

from runshepherd.backends.credentials import (
    INSTEAD,
    Credential,
    CredentialStore,
    CredentialType,
    build_payload,
    describe,
)
from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError


def _store(ctx: CliContext) -> CredentialStore:
    backend = ctx.backend
    if isinstance(backend, CredentialStore):
        return backend
    name = getattr(backend, "name", "this")
    instead = INSTEAD.get(name, f"the {name} backend has no credential store")
    raise UsageError(f"no credentials to manage here: {instead}. (OSMO: `--backend osmo` uses `osmo credential`.)")


def _table(creds: list[Credential]) -> list[str]:
    if not creds:
        return ["no credentials stored"]
    w = max(len(c.name) for c in creds)
    return [f"{c.name:<{w}}  {c.type:<8}  {c.profile or '-'}" for c in creds]


def list_credentials(ctx: CliContext, as_json: bool) -> None:
    creds = _store(ctx).list_credentials()
    if as_json:
        ctx.print_json({"credentials": [c.model_dump() for c in creds]})
        return
    for line in _table(creds):
        ctx.out.print(line, markup=False)


def set_credential(
    ctx: CliContext,
    name: str,
    ctype: str,
    *,
    registry: str | None,
    username: str | None,
    from_env: list[str],
    from_file: list[str],
    values: list[str],
    as_json: bool,
) -> None:
    kind = ctype.upper()
    if kind not in ("REGISTRY", "DATA", "GENERIC"):
        raise UsageError(f"--type {ctype!r}: use REGISTRY, DATA or GENERIC")
    typed: CredentialType = kind  # type: ignore[assignment]  # checked just above
    store = _store(ctx)
    payload = build_payload(
        typed, from_env=from_env, from_file=from_file, values=values, registry=registry, username=username
    )
    existing = store.list_credentials()  # what is there first, as the skill does: update, or a new one beside
    same = next((c for c in existing if c.name == name), None)
    store.set_credential(name, typed, payload)
    shown = describe(payload)
    action = "updated" if same else "created"
    if as_json:
        ctx.print_json({"name": name, "type": kind, "action": action, "payload": shown})
        return
    ctx.out.print(f"{action} {kind} credential {name}", markup=False)
    for k, v in shown.items():
        ctx.out.print(f"  {k}: {v}", markup=False)
    others = [c for c in existing if c.name != name and c.type == kind]
    if others:
        listed = ", ".join(f"{c.name} ({c.profile or '-'})" for c in others)
        ctx.out.print(f"  other {kind} credentials already stored: {listed}", markup=False)
    ctx.out.print("  values are not shown and were not written anywhere by RunShepherd", markup=False)


def delete_credential(ctx: CliContext, name: str, yes: bool, as_json: bool) -> None:
    store = _store(ctx)
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError(f"deleting credential {name} needs confirmation: run again with --yes")
        import typer

        if not typer.confirm(f"Delete credential {name}? Workflows that use it will stop pulling/reading.", False):
            ctx.out.print("not deleted", markup=False)
            return
    store.delete_credential(name)
    if as_json:
        ctx.print_json({"name": name, "action": "deleted"})
    else:
        ctx.out.print(f"deleted credential {name}", markup=False)
