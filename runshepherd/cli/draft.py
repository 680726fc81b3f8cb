"""`orchestrate draft "REQUEST" [-o FILE]`: a validated spec for a request, written and never submitted."""

from __future__ import annotations

import sys
from pathlib import Path

from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError
from runshepherd.request_text import check_request, without_controls


def draft(ctx: CliContext, request: str, output: Path | None, force: bool, as_json: bool) -> int:
    from runshepherd.cli.session import _out_of_scope
    from runshepherd.experts.base import make_expert
    from runshepherd.experts.draft import draft as make_draft
    from runshepherd.request_text import enter

    request = check_request(request) or ""
    if not without_controls(request).strip():
        raise UsageError('say what to draft, e.g. orchestrate draft "train with train.py on 2 GPUs" -o train.yaml')
    # before: the secret was dropped from the drafted spec without a word (`HF_TOKEN=hf_…` → no HF_TOKEN at all)
    entered = enter(request, left_out_of="the drafted spec")
    if (refused := _out_of_scope(ctx, entered.text, as_json)) is not None:
        return refused
    if output is not None and output.is_dir():  # was "exists; … pass --force to replace it": --force cannot
        raise UsageError(f"-o {output} is a folder — give a file path for the spec, e.g. -o {output / 'job.yaml'}")
    if output is not None and (output.exists() or output.is_symlink()) and not force:
        # a link to nowhere does not "exist", yet writing to it creates the file it points at, elsewhere
        what = "exists" if output.exists() else f"is a link to {output.readlink()}, where the spec would be written"
        raise UsageError(f"{output} {what}; choose another -o FILE or pass --force to replace it")
    warning = entered.secret_warning
    expert = make_expert(ctx.settings.expert, settings=ctx.settings)
    result = make_draft(entered.text, expert, Path.cwd(), not_used=entered.not_used)
    if output is not None:
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
            if output.is_symlink():  # --force replaces the link itself, never the file it points at
                output.unlink()
            output.write_text(result.text, encoding="utf-8")
        except OSError as exc:  # a folder, /proc, a read-only place: say where and what to do, not "a bug"
            raise UsageError(
                f"-o {output}: cannot write the spec there ({exc.strerror or exc}) — choose a writable file path"
            ) from None
    if as_json:
        ctx.print_json(
            {
                "name": result.name,
                "file": str(output) if output else None,
                "spec": None if output else result.text,
                "valid": True,
                "submitted": False,
                "placeholders": result.placeholders,
                "notes": result.notes,
                "warnings": [warning] if warning else [],
            }
        )
        return 0
    if output is None:
        sys.stdout.write(result.text)
    say = ctx.err.print if output is None else ctx.out.print
    where = f" → {output}" if output else ""
    say(f"● drafted {result.name}{where}: valid, nothing was submitted", markup=False)
    if warning:
        say(f"  warning: {warning}", markup=False)
    for p in result.placeholders:
        say(f"  placeholder: {p}", markup=False)
    for n in result.notes:
        say(f"  note: {n}", markup=False)
    target = output or "FILE"
    # the backend this draft was made for (before: always `--backend osmo`, exit 4 where no osmo CLI is installed)
    on = f" --backend {ctx.settings.backend}"
    say(f"  next: orchestrate validate {target}{on}, then orchestrate submit {target}{on}", markup=False)
    return 0
