"""`orchestrate mcp`: the product's tools over MCP (the official `mcp` SDK), on stdio or streamable HTTP.

Wiring only: the tools are `tools.py` (read-only digests) and `sessions.py` (start_run, session, answer, cancel).
A tool that fails on bad input returns an MCP tool error with the one-line message the CLI prints, its flags and
commands said as this server's tools and arguments (`wording.py`).
"""

from __future__ import annotations

from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError, UnexpectedToolError
from mcp_types import ToolAnnotations
from pydantic import ValidationError

from runshepherd.cli.context import CliContext
from runshepherd.errors import RunShepherdError, UsageError
from runshepherd.mcpserver import tools as t
from runshepherd.mcpserver.sessions import CancelResult, Sessions, SessionView
from runshepherd.reports.explain import Explanation

INSTRUCTIONS = """RunShepherd runs ML training jobs (local, Slurm, NVIDIA OSMO) from a sentence to results.
Read-only tools return digests, never whole logs: list_workflows, status, logs, diagnose, explain, validate, pools.
start_run starts a session in the background and returns its id at once; poll `session` for its state and
open question. Nothing is submitted, resubmitted, downloaded or canceled unless the person's answer is passed
to `answer`, or `cancel` is called. Ask the person before answering a question on their behalf."""

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=True)
ACTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=True)
CANCELS = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=True)


def _guard(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """A RunShepherd error (bad input, unknown workflow, backend down) becomes a tool error the caller reads."""
    try:
        return fn(*args, **kwargs)
    except RunShepherdError as exc:
        from runshepherd.logs.redact import redact_line  # an error may quote a value the caller passed
        from runshepherd.mcpserver.wording import in_tool_terms  # the CLI's flags said as this server's arguments

        raise ToolError(redact_line(in_tool_terms(str(exc)))) from None


_JSON_TYPES = {"integer": "an integer", "number": "a number", "string": "a string", "boolean": "a boolean"}


def _expected(schema: dict[str, Any]) -> str:
    """What an argument's JSON schema takes, in words ("an integer", "a list of strings or a mapping")."""
    if "anyOf" in schema:
        said = [_expected(s) for s in schema["anyOf"] if s.get("type") != "null"]
        return " or ".join([", ".join(said[:-1]), said[-1]] if len(said) > 2 else said)
    kind = schema.get("type")
    if kind == "array":
        item = _expected(schema.get("items") or {})
        return f"a list of {item.split(' ', 1)[1]}s" if item.startswith(("a ", "an ")) else "a list"
    if kind == "object" and isinstance(values := schema.get("additionalProperties"), dict):
        return f"a mapping whose values are each {_expected(values)}"
    return _JSON_TYPES.get(str(kind), "a mapping" if kind == "object" else "another value")


def _given(value: Any) -> str:
    """The JSON type of a value the caller passed: never the value, which may hold a secret."""
    kinds: list[tuple[type, str]] = [(bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "a string")]
    kinds += [(list, "a list"), (dict, "a mapping"), (type(None), "null")]
    return next((said for kind, said in kinds if isinstance(value, kind)), "another value")


def argument_problems(
    tool: str, schema: dict[str, Any], arguments: dict[str, Any], exc: ValidationError | None = None
) -> str | None:
    """What is wrong with a call's arguments, said per argument and without the values; None when nothing is. An
    argument the tool does not take is named before the call (the SDK drops it silently); ``exc``, the SDK's own
    check failing, is said here too: pydantic's text quotes each rejected value (a token in `set_values`, a path)
    and links its docs, which tells a caller nothing to do."""
    props = schema.get("properties") or {}
    not_taken = f"is not one {tool} takes ({', '.join(props) or 'it takes none'})"
    said = {k: f"argument {k} {not_taken}" for k in arguments or {} if k not in props}
    for err in exc.errors() if exc is not None else []:
        name = str(err["loc"][0]) if err["loc"] else "arguments"
        if err["type"] == "missing":
            said.setdefault(name, f"argument {name} is required")
        elif name in props:
            given = _given(arguments.get(name))
            said.setdefault(name, f"argument {name}: expected {_expected(props[name])}, got {given}")
        else:
            said.setdefault(name, f"argument {name} {not_taken}")
    return f"Error executing tool {tool}: " + "; ".join(said.values()) if said else None


class _Server(MCPServer):
    _schemas: dict[str, dict[str, Any]] | None = None  # each tool's input schema by name, read once

    async def _schema(self, name: str) -> dict[str, Any] | None:
        if self._schemas is None or name not in self._schemas:  # a tool added since is read then
            self._schemas = {t.name: t.input_schema for t in await self.list_tools()}
        return self._schemas.get(name)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Every tool's argument check, said in one place (`argument_problems`), whatever the argument's type. An
        argument the tool does not take is refused by name before the call (the SDK drops it silently: `answer`
        with extra="…" answered as if it were not there)."""
        schema = await self._schema(name)
        if schema is not None and (problems := argument_problems(name, schema, arguments)):
            raise ToolError(problems)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            problems = argument_problems(name, schema or {}, arguments, cause) or str(exc)
            raise ToolError(problems) from cause  # the SDK logs field names


SetValues = list[str] | dict[str, str | int | float | bool] | None


def _pairs(set_values: SetValues) -> list[str] | None:
    """``set_values`` as the KEY=VALUE list every door reads: a caller may pass {"epochs": 5} as well as
    ["epochs=5"] (another shape is refused by the argument check, `argument_problems`)."""
    if isinstance(set_values, dict):
        return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in set_values.items()]
    return set_values


def build_server(ctx: CliContext, *, cadence: float | None = None, sessions: Sessions | None = None) -> MCPServer:
    server: MCPServer = _Server("runshepherd", instructions=INSTRUCTIONS)
    sessions = sessions or Sessions(ctx, cadence=cadence)

    @server.tool(annotations=READ_ONLY)
    def list_workflows(statuses: list[str] | None = None, pool: str | None = None) -> t.WorkflowList:
        """Recent workflows with pool, status and duration (optionally only these statuses or this pool)."""
        return _guard(t.list_workflows, ctx, statuses, pool)

    @server.tool(annotations=READ_ONLY)
    def status(workflow_id: str) -> t.StatusResult:
        """A workflow's status, what its logs show and the status block (also written as its status file)."""
        return _guard(t.status, ctx, workflow_id)

    @server.tool(annotations=READ_ONLY)
    def logs(workflow_id: str, task: str | None = None, tail: int | None = None) -> t.LogsResult:
        """A digest of the logs (stage, progress, metrics, error block). Raw lines only when `tail` is given
        (at most 2000, redacted)."""
        return _guard(t.logs, ctx, workflow_id, task, tail)

    @server.tool(annotations=READ_ONLY)
    def diagnose(workflow_id: str) -> t.DiagnoseResult:
        """Why a workflow failed or is stuck: label, evidence lines, confidence and a proposed fix (not applied)."""
        return _guard(t.diagnose, ctx, workflow_id)

    @server.tool(annotations=READ_ONLY)
    def explain(workflow_id: str) -> Explanation:
        """What a workflow does, how, and what it produces."""
        return _guard(t.explain, ctx, workflow_id)

    @server.tool(annotations=READ_ONLY)
    def validate(spec_path: str, set_values: SetValues = None, pool: str | None = None) -> t.ValidateResult:
        """Check a spec file (template values as ["KEY=VALUE", …] or {"KEY": VALUE}) without submitting it."""
        return _guard(t.validate, ctx, spec_path, _pairs(set_values), pool)

    @server.tool(annotations=READ_ONLY)
    def pools() -> t.PoolsResult:
        """Pools with GPU quota and capacity."""
        return _guard(t.pools, ctx)

    @server.tool(annotations=ACTS)
    def start_run(
        request: str | None = None,
        spec_path: str | None = None,
        set_values: SetValues = None,
        pool: str | None = None,
        session: str | None = None,
    ) -> SessionView:
        """Start a session (plan, then ask before submitting) in the background; returns its id at once.
        Poll `session` and pass the person's answers to `answer`."""
        return _guard(sessions.start, request, spec_path, _pairs(set_values), pool, session)

    @server.tool(annotations=READ_ONLY)
    def session(session: str) -> SessionView:
        """A session's state, workflows, recent progress and the open question (if it waits for one)."""
        return _guard(sessions.view, session)

    @server.tool(annotations=ACTS)
    def answer(session: str, answer: str) -> SessionView:
        """Answer the session's open question with one of its listed choices; the session continues."""
        return _guard(sessions.answer, session, answer)

    @server.tool(annotations=CANCELS)
    def cancel(session: str | None = None, workflow_id: str | None = None) -> CancelResult:
        """Cancel the live workflow of a session, every point of a sweep (its id as session), or a workflow by id.
        The person's cancel is final: a canceled sweep starts, resubmits and fixes nothing more."""
        return _guard(sessions.cancel, session, workflow_id)

    @server.resource(
        "runshepherd://status/{workflow_id}",
        name="status",
        description="A run's status file (markdown): status, log digest, status block",
        mime_type="text/markdown",
    )
    def status_file(workflow_id: str) -> str:
        try:
            return t.status_artifact(ctx, workflow_id)
        except RunShepherdError as exc:
            raise ResourceError(str(exc)) from None

    return server


LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def _loopback_ip(host: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_http(value: str) -> tuple[str, int]:
    """HOST:PORT on this machine's loopback only: the server has no authentication, and its tools start, answer
    and cancel runs (code runs on this host), so an address others can reach is refused, not warned about."""
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--http {value!r}: use HOST:PORT, e.g. 127.0.0.1:8765")
    host = host.strip("[]")
    if host not in LOOPBACK and not _loopback_ip(host):  # a name like 127.x.example.com may resolve anywhere
        raise UsageError(
            f"--http {value!r}: the MCP server has no authentication and its tools start and cancel runs, so it "
            f"listens on this machine only — use 127.0.0.1:{port} (from another machine: an SSH tunnel, "
            f"ssh -L {port}:127.0.0.1:{port} HOST)"
        )
    return host, int(port)


def serve(ctx: CliContext, *, http: str | None = None, cadence: float | None = None) -> None:
    sessions = Sessions(ctx, cadence=cadence)
    server = build_server(ctx, sessions=sessions)
    try:
        if http is None:
            server.run("stdio")
        else:
            host, port = parse_http(http)
            server.run("streamable-http", host=host, port=port)
    finally:  # the client went away (or Ctrl-C): its sessions stop where they can resume, never mid-step
        sessions.close()
