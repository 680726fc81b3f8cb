"""The OSMO backend: every Protocol method through the ``osmo`` CLI, JSON where the CLI offers it.

Bounded in time everywhere: one-shot commands have ``call_timeout``; logs and events (which stream until the
workflow ends) are read for at most ``capture_timeout`` seconds, or until an idle gap when the caller only wants
what exists now. Options (config ``backends.osmo``): ``executable``, ``pool``, ``capture_timeout`` (5),
``idle_timeout`` (1), ``whole_log_idle`` (the idle gap that ends a live task's whole stream: 3 s, or 3 idle
timeouts if longer), ``call_timeout`` (60), ``download_timeout`` (3600), ``retries`` (4),
``backoff_initial`` (0.5), ``backoff_max`` (8), ``datasets``/``labels`` (override version detection).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runshepherd.backends.access import Access, AccessCheck
from runshepherd.backends.app_catalog import AppCreated, CatalogApp, description_from_show, parameters_from_show
from runshepherd.backends.base import (
    BackendError,
    Event,
    Node,
    OutOfScope,
    Pool,
    Priority,
    Status,
    Submission,
    SubmissionRejected,
    WholeLog,
    WorkflowNotFound,
    WorkflowStatus,
    WorkflowSummary,
    sleep_wait,
)
from runshepherd.backends.credentials import Credential, CredentialType, Payload, payload_files
from runshepherd.backends.osmo import parse
from runshepherd.backends.osmo.models import ListEntry, VersionResponse, WorkflowQuery
from runshepherd.backends.osmo.runner import OsmoCli, OsmoCommandError
from runshepherd.backends.osmo.store import OsmoStore
from runshepherd.backends.osmo.version import Capabilities, check_spec, label_value
from runshepherd.spec.loader import split_default_values
from runshepherd.spec.outputs import declared_outputs

if TYPE_CHECKING:  # pragma: no cover
    from runshepherd.spec.document import SpecDocument

WHOLE_LOG_LINES = 10**9  # any -n >= the server's max_log_lines means "no tail limit": the whole log, with -n as
# the skill always passes it
DEFAULT_TAIL = 10000  # the skill's `-n 10000` (on a default server config: the whole log)
KEY_LABEL = "runshepherd-key"
RECOVERY_SLACK = timedelta(seconds=5)
# A sweep's batched read (`query_many`): rows per `workflow list` page (the CLI fetches up to 1000 per server
# request), and at most this many pages before the ids still missing are queried one by one.
LIST_PAGE_MIN = 50
LIST_PAGE_MAX = 1000
LIST_PAGES = 3
_WFID_RE = re.compile(r"\{\{\s*workflow_id\s*\}\}")

# `osmo data` URL schemes (OSMO docs, supported_data_urls): what a download may name.
DATA_SCHEMES = ("s3", "gs", "azure", "tos", "swift")


class OsmoBackend:
    name = "osmo"
    runs_on_host = False  # each task runs in its own container image: a fix may add software to it
    refuses_unfit = True  # capacity validation refuses at submit; the fix loop proposes a request that fits

    def __init__(self, state_dir: Path, options: dict[str, Any] | None = None) -> None:
        opts = dict(options or {})
        self.options = opts
        self.store = OsmoStore(Path(state_dir))
        self.default_pool: str | None = opts.get("pool")
        self.capture_timeout = float(opts.get("capture_timeout", 5.0))
        self.idle_timeout = float(opts.get("idle_timeout", 1.0))
        self.download_timeout = float(opts.get("download_timeout", 3600.0))
        self.whole_log_timeout = float(opts.get("whole_log_timeout", 300.0))
        self.whole_log_max_bytes = int(opts.get("whole_log_max_bytes", 2 * 1024**3))
        self.whole_log_idle = float(opts.get("whole_log_idle", max(3.0, self.idle_timeout * 3)))
        self.cli = OsmoCli(
            executable=str(opts.get("executable") or "osmo"),
            call_timeout=float(opts.get("call_timeout", 60.0)),
            retries=int(opts.get("retries", 4)),
            backoff_initial=float(opts.get("backoff_initial", 0.5)),
            backoff_max=float(opts.get("backoff_max", 8.0)),
        )
        self._caps: Capabilities | None = None
        self._queries: dict[str, WorkflowQuery] = {}
        self._full: dict[
            str, WorkflowStatus
        ] = {}  # the last full query of each workflow (batched reads reuse its tasks)

    # ------------------------------------------------------------------------------------------ version
    @property
    def capabilities(self) -> Capabilities:
        """Detected once per process from `osmo version`; a version the CLI cannot print is 'unknown'."""
        if self._caps is None:
            try:
                res = self.cli.run(["version", "--format-type", "json"])
                version: VersionResponse | None = VersionResponse.model_validate(parse.parse_json(res.stdout))
            except (OsmoCommandError, ValueError):
                version = None
            self._caps = Capabilities.from_version(version, self.options)
        return self._caps

    # ------------------------------------------------------------------------------------------ submit
    def submit(
        self,
        spec: SpecDocument,
        pool: str | None = None,
        *,
        priority: Priority = "NORMAL",
        idempotency_key: str | None = None,
    ) -> Submission:
        declared = {t.name: [o.url for o in t.outputs if o.url] for t in spec.workflow.all_tasks()}
        if idempotency_key is not None:
            existing = self.find_by_key(idempotency_key)
            if existing is not None:
                return Submission(
                    workflow_id=existing,
                    pool=pool or self.default_pool or "",
                    outputs=_flat(declared),
                    warnings=[
                        f"already submitted with idempotency key {idempotency_key!r} as {existing}; not resubmitted"
                    ],
                )
        caps = self.capabilities
        check_spec(spec, caps)
        target = pool or self.default_pool
        args = ["workflow", "submit", "", "--format-type", "json", "--priority", priority]
        if target:
            args += ["--pool", target]
        args += _set_args(spec)
        if idempotency_key is not None and caps.labels:
            args += ["--label", f"{KEY_LABEL}={label_value(idempotency_key)}"]
        if idempotency_key is not None:
            self.store.mark_submitting(idempotency_key, spec.name, datetime.now(UTC))
        with _spec_file(spec, self.store.tmp_dir) as path:
            args[2] = str(path)
            try:
                res = self.cli.run(args, retry=True)
            except OsmoCommandError as exc:
                if idempotency_key is not None:
                    self.store.forget_key(idempotency_key)
                raise SubmissionRejected(f"OSMO refused the workflow:\n{exc.message}") from None
        sub = parse.submit_response(res.stdout)
        if sub is None:
            raise BackendError(f"`osmo workflow submit` printed no workflow id:\n{res.stdout.strip()[:500]}")
        if idempotency_key is not None:
            self.store.record_key(idempotency_key, sub.name)
        declared = {t: [_WFID_RE.sub(sub.name, u) for u in urls] for t, urls in declared.items()}
        self.store.record_outputs(sub.name, declared)
        if not target:  # the pool the server chose; kept as the workflow's last full query (a sweep's poll reuses it)
            target = self.query(sub.name).pool or ""
        warnings = list(sub.warnings)
        if priority == "LOW":
            warnings.append("LOW priority can be preempted during the run")
        return Submission(
            workflow_id=sub.name, pool=target, overview_url=sub.overview, outputs=_flat(declared), warnings=warnings
        )

    def find_by_key(self, idempotency_key: str) -> str | None:
        entry = self.store.key(idempotency_key)
        if entry is not None and entry.workflow_id:
            return entry.workflow_id
        if entry is None and not self.capabilities.labels:  # read the version here if nothing has yet
            return None
        found = self._recover(idempotency_key, entry.spec_name if entry else None, entry.since if entry else None)
        if found:
            self.store.record_key(idempotency_key, found)
        return found

    def _recover(self, key: str, spec_name: str | None, since: datetime | None) -> str | None:
        """A crash between submit and recording the id: find the workflow by label, else by name and time."""
        if self.capabilities.labels:
            res = self.cli.run(
                ["workflow", "list", "--format-type", "json", "--label", f"{KEY_LABEL}={label_value(key)}"]
            )
            rows = parse.summaries_from_list(parse.parse_json(res.stdout))
            if rows:
                return rows[0].workflow_id
        if spec_name is None or since is None:
            return None
        res = self.cli.run(["workflow", "list", "--format-type", "json", "--name", spec_name, "--count", "50"])
        rows = [
            r
            for r in parse.summaries_from_list(parse.parse_json(res.stdout))
            if r.name == spec_name and r.submit_time and r.submit_time >= since - RECOVERY_SLACK
        ]
        rows.sort(key=lambda r: r.submit_time or since)
        return rows[0].workflow_id if rows else None

    # ------------------------------------------------------------------------------------------ query, list
    def query(self, workflow_id: str) -> WorkflowStatus:
        q = self._query_raw(workflow_id)
        ws = parse.workflow_from_query(q, self._declared(workflow_id))
        self._full[workflow_id] = ws
        return ws

    def query_many(self, workflow_ids: list[str]) -> dict[str, WorkflowStatus]:
        """Several workflows from ONE `osmo workflow list -t json` (a sweep's poll tick, `BatchQuery`).

        The list has no ids filter: it is narrowed with the real CLI's filters — `--name` (the substring the
        workflows' names share; OSMO ids are `<name>-<n>`), `--submitted-after` (a day before the earliest known
        submission: the CLI reads the date in the caller's time zone) — newest first (`--order desc`), and the
        ids are picked out of it; another page (`--offset`) only when a full page still missed some. The list
        rows carry no tasks: a workflow seen for the first time, one whose listed status differs from its last
        full query, and one the list did not return are read with `workflow query` (that is where the failed
        task, its exit code and message come from); every other workflow costs nothing beyond the one list."""
        ids = list(dict.fromkeys(workflow_ids))
        rows = self._listed(ids)
        out: dict[str, WorkflowStatus] = {}
        for wid in ids:
            row, last = rows.get(wid), self._full.get(wid)
            if row is None or last is None or parse.workflow_status(row.status) is not last.status:
                out[wid] = self.query(wid)
            else:
                out[wid] = parse.workflow_from_list(row, last)
        return out

    def _listed(self, ids: list[str]) -> dict[str, ListEntry]:
        wanted = set(ids)
        count = min(LIST_PAGE_MAX, max(LIST_PAGE_MIN, 4 * len(ids)))
        args = ["workflow", "list", "--format-type", "json", "--order", "desc", "--count", str(count)]
        shared = _shared_prefix([parse.workflow_name(w) for w in ids])
        if shared:
            args += ["--name", shared]
        known = [ws.submit_time for w in ids if (ws := self._full.get(w)) is not None and ws.submit_time]
        if known and len(known) == len(ids):
            args += ["--submitted-after", (min(known) - timedelta(days=1)).strftime("%Y-%m-%d")]
        found: dict[str, ListEntry] = {}
        for page in range(LIST_PAGES):
            res = self.cli.run(args + (["--offset", str(page * count)] if page else []))
            rows = parse.list_entries(parse.parse_json(res.stdout))
            found.update({r.name: r for r in rows if r.name in wanted})
            if len(rows) < count or wanted <= found.keys():
                break
        return found

    def _query_raw(self, workflow_id: str) -> WorkflowQuery:
        try:
            res = self.cli.run(["workflow", "query", workflow_id, "--format-type", "json"])
        except OsmoCommandError as exc:
            raise self._mapped(exc, workflow_id) from None
        q = WorkflowQuery.model_validate(parse.parse_json(res.stdout))
        self._queries[workflow_id] = q
        return q

    def _declared(self, workflow_id: str) -> dict[str, list[str]]:
        """Declared output URLs, from our record or (once, then cached) from the rendered spec."""
        got = self.store.outputs(workflow_id)
        if got is None:
            try:
                got = declared_outputs(self.spec(workflow_id))
            except WorkflowNotFound:  # the query answered, the spec did not: outputs unknown, not an error
                got = {}
            self.store.record_outputs(workflow_id, got)
        return got

    def list_workflows(
        self, *, statuses: list[Status] | None = None, pool: str | None = None, limit: int = 50
    ) -> list[WorkflowSummary]:
        args = ["workflow", "list", "--format-type", "json", "--count", str(limit), "--order", "desc"]
        if statuses:
            args += ["--status", *[s.value for s in statuses]]
        if pool:
            args += ["--pool", pool]
        res = self.cli.run(args)
        rows = parse.summaries_from_list(parse.parse_json(res.stdout))
        if statuses:
            rows = [r for r in rows if r.status in statuses]
        return rows[:limit]

    # ------------------------------------------------------------------------------------------ logs, events
    def logs(
        self,
        workflow_id: str,
        task: str | None = None,
        *,
        tail: int | None = None,
        timeout: float | None = None,
    ) -> Iterator[str]:
        """Always `-n` and a capture bound: ``timeout`` s of following, else what arrives before an idle gap."""
        args = ["workflow", "logs", workflow_id, "-n", str(tail or DEFAULT_TAIL)]
        if task:
            args += ["--task", task]
        lines = parse.strip_framing(self._capture(args, workflow_id, timeout))
        if tail:
            lines = lines[-tail:]
        yield from lines

    def whole_log(self, workflow_id: str, task: str) -> WholeLog:
        """The task's full stream (`-n` beyond any server's max_log_lines) spooled to a temp file, bounded by a timeout and a byte cap.

        A live stream never ends: it is read until an idle gap (everything that exists now). A bound that cut
        the log short is reported in ``cap_reason``."""
        fd, name = tempfile.mkstemp(prefix="runshepherd-osmo-log-", suffix=".log")
        os.close(fd)
        try:
            got = self.cli.spool(
                ["workflow", "logs", workflow_id, "--task", task, "-n", str(WHOLE_LOG_LINES)],
                name,
                timeout=self.whole_log_timeout,
                idle=self.whole_log_idle,
                max_bytes=self.whole_log_max_bytes,
            )
        except OsmoCommandError as exc:
            os.unlink(name)
            raise self._mapped(exc, workflow_id) from None
        except BaseException:
            os.unlink(name)
            raise
        return WholeLog(path=Path(name), cap_reason=got.cap_reason, temporary=True)

    def events(self, workflow_id: str, task: str | None = None) -> list[Event]:
        args = ["workflow", "events", workflow_id]
        if task:
            args += ["--task", task]
        lines = parse.strip_framing(self._capture(args, workflow_id, None))
        default_task = task or self._only_task(workflow_id)
        events = parse.events_from_text(lines, default_task)
        return [e for e in events if task is None or e.task == task]

    def _capture(self, args: list[str], workflow_id: str, timeout: float | None) -> list[str]:
        bound = timeout if timeout is not None else self.capture_timeout
        idle = None if timeout is not None else self.idle_timeout
        try:
            return self.cli.capture(args, timeout=bound, idle=idle).lines
        except OsmoCommandError as exc:
            raise self._mapped(exc, workflow_id) from None

    def _only_task(self, workflow_id: str) -> str:
        """Kubernetes-style event lines name no task: attribute them to the workflow's task when there is one."""
        q = self._queries.get(workflow_id) or self._query_raw(workflow_id)
        names = [t.name for g in q.groups for t in g.tasks]
        return names[0] if len(names) == 1 else "workflow"

    # ------------------------------------------------------------------------------------------ spec, cancel
    def spec(self, workflow_id: str, *, template: bool = False) -> str:
        args = ["workflow", "spec", workflow_id] + (["--template"] if template else [])
        try:
            res = self.cli.run(args)
        except OsmoCommandError as exc:
            raise self._mapped(exc, workflow_id) from None
        return res.stdout + ("\n" if res.stdout and not res.stdout.endswith("\n") else "")

    def cancel(self, workflow_id: str) -> None:
        """`osmo workflow cancel` reports per-id failures on stdout with exit 0; read them."""
        try:
            res = self.cli.run(["workflow", "cancel", workflow_id, "--format-type", "json"], retry=True)
        except OsmoCommandError as exc:
            raise self._mapped(exc, workflow_id) from None
        failed = [ln for ln in res.lines if ln.startswith("Workflow cancelation failed")]
        if not failed:
            return
        text = failed[0]
        if "not found" in text.lower() or "does not exist" in text.lower():
            raise WorkflowNotFound(workflow_id, self.name)
        if any(w in text.lower() for w in ("finished", "completed", "already", "terminal")):
            return
        raise BackendError(text)

    # ------------------------------------------------------------------------------------------ pools, nodes
    def pools(self) -> list[Pool]:
        res = self.cli.run(["pool", "list", "--format-type", "json"])
        return parse.pools_from_json(parse.parse_json(res.stdout))

    def resources(self, pool: str | None = None) -> list[Node]:
        args = ["resource", "list", "--format-type", "json"] + (["--pool", pool] if pool else [])
        try:
            res = self.cli.run(args)
        except OsmoCommandError as exc:
            if exc.not_found and pool:
                raise BackendError(f"pool {pool!r} does not exist on OSMO — see `orchestrate pools`") from None
            raise
        return parse.nodes_from_json(parse.parse_json(res.stdout), pool)

    # ------------------------------------------------------------------------------------------ data, apps
    def download(self, url: str, dest: Path) -> list[Path]:
        """`osmo data download URL DEST`; returns the files that appeared or changed under DEST.

        Only the storage schemes OSMO's data commands support; anything else is refused before DEST is created.
        """
        scheme = url.partition("://")[0].lower() if "://" in url else ""
        if scheme not in DATA_SCHEMES:
            raise OutOfScope(
                f"{url!r}: OSMO downloads only its storage URLs ({', '.join(s + '://' for s in DATA_SCHEMES)}); "
                "see `orchestrate status WF` for a workflow's output URLs"
            )
        dest = Path(dest).expanduser()
        dest.mkdir(parents=True, exist_ok=True)
        before = _snapshot(dest)
        self.cli.run(["data", "download", url, str(dest)], timeout=self.download_timeout)
        after = _snapshot(dest)
        return sorted(p for p, stamp in after.items() if before.get(p) != stamp)

    def create_app(self, name: str, description: str, spec_text: str) -> AppCreated:
        """`osmo app create NAME --description D --file F`. App names are global across the OSMO instance."""
        with _text_file(spec_text, self.store.tmp_dir, name) as path:
            try:
                res = self.cli.run(
                    ["app", "create", name, "--description", description, "--file", str(path)], retry=True
                )
            except OsmoCommandError as exc:
                if "exist" in exc.message.lower():
                    raise SubmissionRejected(
                        f"an OSMO app named {name!r} already exists (app names are global) — choose another "
                        f"name, e.g. a prefixed one, or update it with `osmo app update {name} --file …`"
                    ) from None
                raise
        return _app_created(name, res.stdout)

    def validate(self, spec: SpecDocument, pool: str | None = None) -> list[str]:
        """`osmo workflow validate`: the server's own checks (resources, credentials), nothing submitted."""
        check_spec(spec, self.capabilities)
        target = pool or self.default_pool
        args = ["workflow", "validate", ""] + (["--pool", target] if target else []) + _set_args(spec)
        with _spec_file(spec, self.store.tmp_dir) as path:
            args[2] = str(path)
            try:
                res = self.cli.run(args, retry=True)
            except OsmoCommandError as exc:
                raise SubmissionRejected(f"OSMO says the workflow would be refused:\n{exc.message}") from None
        return [ln.strip() for ln in res.stdout.splitlines() if ln.strip().startswith("WARNING")]

    def submit_app(
        self,
        app: str,
        *,
        pool: str | None = None,
        values: dict[str, Any] | None = None,
        priority: Priority = "NORMAL",
    ) -> Submission:
        """`osmo app submit NAME[:VERSION] --set … --pool … --priority …` — same output as workflow submit."""
        target = pool or self.default_pool
        args = ["app", "submit", app, "--format-type", "json", "--priority", priority]
        if target:
            args += ["--pool", target]
        args += _pairs_args(values or {})
        try:
            res = self.cli.run(args)
        except OsmoCommandError as exc:
            raise SubmissionRejected(f"OSMO refused app {app}:\n{exc.message}") from None
        sub = parse.submit_response(res.stdout)
        if sub is None:
            raise BackendError(f"`osmo app submit` printed no workflow id:\n{res.stdout.strip()[:500]}")
        return Submission(
            workflow_id=sub.name, pool=target or "", overview_url=sub.overview, warnings=list(sub.warnings)
        )

    def check_access(self, uri: str, access: Access) -> AccessCheck:
        """`osmo data check URI --access-type READ|WRITE` → {"status": "pass"} or {"status": "fail", "error": …}."""
        scheme = uri.partition("://")[0].lower() if "://" in uri else ""
        if scheme not in DATA_SCHEMES:
            raise OutOfScope(
                f"{uri!r}: `osmo data check` takes OSMO storage URLs ({', '.join(s + '://' for s in DATA_SCHEMES)})"
            )
        args = ["data", "check", uri, "--access-type", access.upper()]
        call = "osmo " + " ".join(args)
        try:
            res = self.cli.run(args)
        except OsmoCommandError as exc:
            return AccessCheck(uri=uri, access=access, ok=False, detail=exc.message, checked_by=call)
        ok, detail = parse.data_check(res.stdout)
        return AccessCheck(uri=uri, access=access, ok=ok, detail=detail, checked_by=call)

    # ------------------------------------------------------------------------------------------ credentials
    def list_credentials(self) -> list[Credential]:
        """`osmo credential --format-type json list` (the format flag belongs to `credential`)."""
        res = self.cli.run(["credential", "--format-type", "json", "list"])
        return parse.credentials_from_json(res.stdout)

    def set_credential(self, name: str, ctype: CredentialType, payload: Payload) -> None:
        """`osmo credential set NAME --type T --payload-file k=FILE …`: values travel in 0600 files, not argv."""
        with payload_files(payload) as files:
            args = ["credential", "set", name, "--type", ctype, "--payload-file"]
            args += [f"{k}={p}" for k, p in files.items()]
            try:
                self.cli.run(args, retry=False)
            except OsmoCommandError as exc:
                raise SubmissionRejected(f"OSMO refused credential {name}:\n{exc.message}") from None

    def delete_credential(self, name: str) -> None:
        try:
            self.cli.run(["credential", "delete", name], retry=False)
        except OsmoCommandError as exc:
            if exc.not_found:
                raise BackendError(f"no OSMO credential named {name!r} — see `orchestrate credential list`") from None
            raise

    # ------------------------------------------------------------------------------------------ OSMO apps
    def catalog_apps(self) -> list[CatalogApp]:
        """`osmo app list --format-type json` → {"apps": [{name, description, owner, latest_version, …}]}."""
        data = parse.parse_json(self.cli.run(["app", "list", "--format-type", "json"]).stdout)
        rows = data.get("apps", []) if isinstance(data, dict) else []
        return [
            CatalogApp.model_validate({k: r.get(k) for k in ("name", "description", "owner", "latest_version")})
            for r in rows
            if isinstance(r, dict) and r.get("name")
        ]

    def catalog_app(self, ref: str) -> CatalogApp:
        """`osmo app info REF --format-type json` (versions) and `osmo app show REF` (description, parameters)."""
        try:
            info = parse.parse_json(self.cli.run(["app", "info", ref, "--format-type", "json"]).stdout)
            shown = self.cli.run(["app", "show", ref]).stdout
        except OsmoCommandError as exc:
            if exc.not_found or "not found" in exc.message.lower():
                raise BackendError(f"no OSMO app {ref!r} — see `orchestrate app list --backend osmo`") from None
            raise
        versions = sorted(int(v["version"]) for v in info.get("versions") or [] if str(v.get("version", "")).isdigit())
        return CatalogApp(
            name=str(info.get("name") or ref.partition(":")[0]),
            description=description_from_show(shown) or str(info.get("description") or ""),
            owner=info.get("owner"),
            latest_version=max(versions) if versions else None,
            versions=versions,
            parameters=parameters_from_show(shown),
        )

    def app_spec(self, ref: str) -> str:
        """`osmo app spec REF`: the stored YAML (to size a pool choice; nothing is changed)."""
        return self.cli.run(["app", "spec", ref]).stdout

    # ------------------------------------------------------------------------------------------ misc
    def wait_for_change(self, workflow_id: str, timeout: float) -> bool:
        return sleep_wait(timeout)

    def _mapped(self, exc: OsmoCommandError, workflow_id: str) -> BackendError:
        if exc.not_found:
            return WorkflowNotFound(workflow_id, self.name, "see `orchestrate list` (OSMO ids look like name-N)")
        return exc


# ---------------------------------------------------------------------------------------------- helpers
def _shared_prefix(names: list[str]) -> str:
    """The longest prefix all the names share (a `--name` substring every one of them contains), or ''."""
    return os.path.commonprefix(names) if names else ""


def _flat(per_task: dict[str, list[str]]) -> list[str]:
    return list(dict.fromkeys(u for urls in per_task.values() for u in urls))


def _is_scalar(v: Any) -> bool:
    return isinstance(v, (str, int, float, bool))


def _set_args(spec: SpecDocument) -> list[str]:
    """``values`` as OSMO flags: numbers via --set (OSMO casts), numeric-looking strings via --set-string."""
    _, defaults, _ = split_default_values(spec.template_text, spec.source)
    extra = {k: v for k, v in spec.values.items() if k not in defaults or defaults[k] != v}
    for k, v in extra.items():
        if not _is_scalar(v):
            raise SubmissionRejected(f"value {k!r} is a {type(v).__name__}; OSMO's --set takes only plain values")
    return _pairs_args({**{k: v for k, v in spec.values.items() if _is_scalar(v)}, **extra})


def _pairs_args(values: dict[str, Any]) -> list[str]:
    sets, strings = [], []
    for k, v in values.items():
        text = str(v).lower() if isinstance(v, bool) else str(v)
        if isinstance(v, str) and _looks_numeric(v):
            strings.append(f"{k}={text}")
        else:
            sets.append(f"{k}={text}")
    return (["--set", *sets] if sets else []) + (["--set-string", *strings] if strings else [])


def _looks_numeric(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


class _spec_file:
    """The template text in a temp file; beside the spec when it uses `localpath:` files (the CLI resolves them
    relative to the spec file), else in our state dir."""

    def __init__(self, spec: SpecDocument, tmp_dir: Path) -> None:
        uses_local = any(f.localpath for t in spec.workflow.all_tasks() for f in t.files)
        self.folder = spec.base_dir if uses_local and spec.base_dir else tmp_dir
        self.text = spec.template_text
        self.name = spec.name

    def __enter__(self) -> Path:
        fd, name = tempfile.mkstemp(prefix=f".runshepherd-{self.name}-", suffix=".yaml", dir=self.folder)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(self.text)
        self.path = Path(name)
        return self.path

    def __exit__(self, *exc: object) -> None:
        self.path.unlink(missing_ok=True)


class _text_file(_spec_file):
    def __init__(self, text: str, tmp_dir: Path, name: str) -> None:
        self.folder, self.text, self.name = tmp_dir, text, name


def _snapshot(root: Path) -> dict[Path, tuple[int, int]]:
    out = {}
    for p in root.rglob("*"):
        if p.is_file():
            st = p.stat()
            out[p] = (st.st_size, st.st_mtime_ns)
    return out


def _app_created(name: str, text: str) -> AppCreated:
    version = re.search(r"(?:App Version|Version)\s*[-:]\s*(\d+)", text)
    url = re.search(r"(?:App URL|URL)\s*[-:]\s*(\S+)", text)
    return AppCreated(
        name=name,
        version=int(version.group(1)) if version else None,
        url=url.group(1) if url else None,
        message=text.strip(),
    )
