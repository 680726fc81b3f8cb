"""Follow-ups after COMPLETED: offer the download (count and size shown), then offer to save the spec as an app.
Each side effect is its own node after its question."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote, urlparse

from langgraph.runtime import Runtime
from langgraph.types import Command

from runshepherd.apps.registry import AppRegistry, describe
from runshepherd.backends.app_catalog import AppCreator
from runshepherd.downloads import fetch, fresh_dest
from runshepherd.events import AppSaved, Downloaded
from runshepherd.graph.context import Deps, deps_of
from runshepherd.graph.state import AppRecord, SessionState, last_status, submitted_id
from runshepherd.nodes.common import ask, emit, say


def _local_size(urls: list[str]) -> tuple[int, int] | None:
    """(files, bytes) for file:// outputs; None when the backend's storage cannot be measured from here."""
    files = size = 0
    for url in urls:
        parsed = urlparse(url)
        if parsed.scheme != "file":
            return None
        p = Path(unquote(parsed.path))
        items = [p] if p.is_file() else [q for q in p.rglob("*") if q.is_file()] if p.is_dir() else []
        files += len(items)
        size += sum(q.stat().st_size for q in items)
    return files, size


def _human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def _canceled(deps: Deps, state: SessionState) -> Command[Any] | None:
    """The person canceled the session (`orchestrate cancel SESSION`) while a follow-up question waited: the
    question is not asked (or, resumed after the cancel withdrew it, not answered); the session ends CANCELED."""
    if why := deps.halt_reason():
        wid = submitted_id(state)
        say("info", f"not downloaded or saved: {why}")
        reason = f"{why}; {wid} had completed, its outputs were not downloaded nor the spec saved as an app"
        return Command(goto="finish", update={"outcome": "CANCELED", "outcome_reason": reason})
    return None


def offer_download(state: SessionState, runtime: Runtime[Deps]) -> Command[Literal["download", "offer_app", "finish"]]:
    deps = deps_of(runtime)
    if (halt := _canceled(deps, state)) is not None:
        return halt
    outputs = list(state.get("outputs") or [])
    wid = submitted_id(state)
    if not outputs:
        say("info", f"{wid} wrote no outputs to download")
        return Command(goto="offer_app")
    dest = fresh_dest(deps.download_root, wid)  # a folder that already holds something is never written into
    kept = f" ({deps.download_root / wid}/ already exists and is left alone)" if dest.name != wid else ""
    measured = _local_size(outputs)
    what = (
        f"{measured[0]} file{'s' if measured[0] != 1 else ''}, {_human(measured[1])}"
        if measured
        else f"{len(outputs)} location{'s' if len(outputs) != 1 else ''}, size unknown"
    )
    if ask(deps, "download", f"Download the outputs ({what}) to {dest}/{kept}?", default="yes") == "yes":
        return Command(goto="download", update={"download_dir": str(dest)})
    return Command(goto="offer_app")


def download(state: SessionState, runtime: Runtime[Deps]) -> dict[str, Any]:
    deps = deps_of(runtime)
    dest = Path(state.get("download_dir") or deps.download_root / submitted_id(state))
    wid = submitted_id(state)
    got = [str(p) for p in fetch(deps.backend, list(state.get("outputs") or []), dest, workflow_id=wid)]
    deps.audit("download", approved_by=deps.approved_by("download"), workflow=wid, dest=str(dest), files=len(got))
    emit(Downloaded(workflow_id=wid, dest=str(dest), files=len(got)))
    return {"downloaded": got[:200], "downloaded_count": len(got)}


def offer_app(state: SessionState, runtime: Runtime[Deps]) -> Command[Literal["save_app", "finish"]]:
    deps = deps_of(runtime)
    if (halt := _canceled(deps, state)) is not None:
        return halt
    name = state.get("spec_name") or "workflow"
    desc = describe(name, state.get("request") or "")
    if ask(deps, "save_app", f'Save this spec as app "{name}" ("{desc}")?', default="no") == "yes":
        return Command(goto="save_app", update={"app": {"name": name, "description": desc}})
    return Command(goto="finish")


def save_app(state: SessionState, runtime: Runtime[Deps]) -> dict[str, Any]:
    deps = deps_of(runtime)
    meta = state.get("app")
    if meta is None:  # only offer_app routes here, always with the app to save
        raise RuntimeError("save_app without an app to save")
    if isinstance(deps.backend, AppCreator):  # a scheduler with its own app registry (OSMO): the app lives there
        made = deps.backend.create_app(meta["name"], meta["description"], state["spec"])
        url = made.url
        saved: AppRecord = {"name": made.name, "version": made.version, "description": meta["description"], "url": url}
        shown: dict[str, Any] = {"url": url}
    else:
        app = AppRegistry(deps.state_dir / "apps").save(
            meta["name"], meta["description"], state["spec"], source_workflow=submitted_id(state)
        )
        saved = {"name": app.name, "version": app.latest, "description": app.description}
        shown = {}
    deps.audit(
        "app create",
        approved_by=deps.approved_by("save_app"),
        workflow=submitted_id(state),
        app=saved["name"],
        version=saved["version"],
    )
    emit(AppSaved(name=saved["name"], version=saved["version"], **shown))
    return {"app": saved}


def finish(state: SessionState, runtime: Runtime[Deps]) -> dict[str, Any]:
    deps = deps_of(runtime)
    from runshepherd.nodes.report import write_report

    outcome = state.get("outcome")
    update: dict[str, Any] = {}
    if outcome is None:
        if last_status(state) == "FAILED_CANCELED":
            outcome = "CANCELED"
            wid = submitted_id(state)
            if why := deps.halt_reason():  # the person canceled the session, or the sweep it is a point of
                update["outcome_reason"] = f"{wid} canceled: {why}; not resubmitted"
                say("info", f"{wid} canceled: {why}; it stays canceled")
            else:  # not through a door of this state dir, which marks the session before it cancels: who did it,
                # as `diagnose` says it, from the audit log (a workflow canceled by id before its submit was
                # audited), never assumed
                from runshepherd.audit import canceled_by

                who = canceled_by(deps.state_dir, str(wid)) if wid else None
                said = (
                    f"{wid} was canceled {who}"
                    if who
                    else f"{wid} was canceled outside RunShepherd (no cancel of it is recorded in this state dir)"
                )
                update["outcome_reason"] = f"{said}; not resubmitted"
                say("info", f"{said}; it stays canceled")
        else:
            outcome = "COMPLETED" if last_status(state) == "COMPLETED" else "FAILED"
    path = state.get("report_path") or write_report(state, deps)
    return {**update, "outcome": outcome, "report_path": path}
