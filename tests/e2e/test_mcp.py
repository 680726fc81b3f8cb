"""`orchestrate mcp` driven by the MCP SDK's own client, over stdio and over streamable HTTP.

Same scenario on both transports: list the tools, read a workflow's status block (tool and resource), see that
a started session submits nothing until `answer`, then answer its questions until the run is COMPLETED.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from cli_helpers import env_for, orchestrate_bin, run, until_status
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from runshepherd.errors import UsageError

TOOLS = {
    "list_workflows",
    "status",
    "logs",
    "diagnose",
    "explain",
    "validate",
    "pools",
    "start_run",
    "session",
    "answer",
    "cancel",
}
TINY = """\
workflow:
  name: tiny
  resources:
    default: {cpu: 1, memory: 256Mi}
  tasks:
  - name: train
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["for i in 1 2 3; do echo step $i/3 loss=0.$i; done; echo ok > {{output}}/ok.txt"]
"""


def _spec(tmp_path: Path, text: str = TINY, name: str = "tiny.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


async def cancel_scenario(client: Client, tmp_path: Path) -> None:
    """`cancel` on a session whose workflow runs: the workflow is canceled and the session ends CANCELED. On a
    session waiting at its submit question: the question is withdrawn, and a later `answer` submits nothing."""
    waiting = (await _call(client, "start_run", spec_path=_spec(tmp_path)))["session"]
    assert (await _until_settled(client, waiting))["question"]["kind"] == "submit"
    withdrawn = await _call(client, "cancel", session=waiting)
    assert withdrawn["canceled"] is True and "its question (submit) is withdrawn" in withdrawn["message"], withdrawn
    # `session` says so too (it still said "waiting" with the withdrawn question; `orchestrate sessions` knew)
    seen = await _call(client, "session", session=waiting)
    assert seen["state"] == "canceled" and seen["question"] is None and "canceled by you" in seen["note"], seen
    too_late = await _error(client, "answer", session=waiting, answer="yes")  # the cancel is final
    assert "was canceled by you (mcp cancel, " in too_late and "so the answer yes was not applied" in too_late
    ended = await _until_settled(client, waiting)
    assert ended["state"] == "CANCELED" and not ended["workflow_ids"], ended
    slow = TINY.replace("name: tiny", "name: slow").replace("echo step $i/3", "sleep 1; echo step $i/3")
    sid = (
        await _call(client, "start_run", spec_path=_spec(tmp_path, slow.replace("1 2 3", "$(seq 1 60)"), "slow.yaml"))
    )["session"]
    assert (await _until_settled(client, sid))["question"]["kind"] == "submit"
    await _call(client, "answer", session=sid, answer="yes")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = await _call(client, "session", session=sid)
        if any(e.get("event") == "status" and e.get("to") == "RUNNING" for e in view["recent_events"]):
            break
        await anyio.sleep(0.2)
    done = await _call(client, "cancel", session=sid)
    assert done["canceled"] is True and done["workflow_id"] == view["workflow_ids"][0]
    view = await _until_settled(client, sid)
    assert view["state"] == "CANCELED" and not view["question"]
    audit = [json.loads(line) for line in (tmp_path / "state" / "audit.jsonl").read_text().splitlines()]
    # the session marked first, then its workflow canceled (the session may also cancel its own on seeing the mark)
    mine = [e["what"] for e in audit if e.get("via") == "mcp cancel" and e.get("session") == sid]
    assert mine == ["cancel session", "cancel"], audit


async def _call(client: Client, name: str, **args: Any) -> dict[str, Any]:
    res = await client.call_tool(name, args)
    assert not res.is_error, f"{name}: {res.content}"
    assert res.structured_content is not None
    return res.structured_content


async def _error(client: Client, name: str, **args: Any) -> str:
    res = await client.call_tool(name, args)
    assert res.is_error, f"{name} should have failed: {res.structured_content}"
    return " ".join(getattr(c, "text", "") for c in res.content)


async def _until_settled(client: Client, sid: str, timeout: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = await _call(client, "session", session=sid)
        if view["state"] != "running":
            return view
        await anyio.sleep(0.2)
    raise AssertionError(f"session {sid} still running after {timeout}s")


async def scenario(client: Client, workflow_id: str, spec: str) -> None:
    tools = await client.list_tools()
    assert {t.name for t in tools.tools} == TOOLS
    by_name = {t.name: t for t in tools.tools}
    assert by_name["status"].output_schema is not None and "workflow_id" in json.dumps(by_name["status"].input_schema)

    status = await _call(client, "status", workflow_id=workflow_id)
    assert status["report"]["workflow_id"] == workflow_id and status["report"]["status"] == "COMPLETED"
    assert f"Run: {workflow_id}" in status["markdown"] and "State:" in status["markdown"]
    resource = await client.read_resource(f"runshepherd://status/{workflow_id}")
    assert f"Run: {workflow_id}" in resource.contents[0].text  # type: ignore[union-attr]

    logs = await _call(client, "logs", workflow_id=workflow_id)
    assert logs["raw_tail"] is None and logs["digests"]  # the digest, no raw lines unless asked
    raw = await _call(client, "logs", workflow_id=workflow_id, tail=3)
    assert 0 < len(raw["raw_tail"]) <= 3
    assert "tail must be between" in await _error(client, "logs", workflow_id=workflow_id, tail=10**6)
    assert "not a valid id" in await _error(client, "status", workflow_id="../../etc")

    started = await _call(client, "start_run", spec_path=spec)
    sid = started["session"]
    view = await _until_settled(client, sid)
    assert view["state"] == "waiting" and view["question"]["kind"] == "submit"
    listed = await _call(client, "list_workflows")
    assert [w["workflow_id"] for w in listed["workflows"]] == [workflow_id]  # asked, so nothing submitted yet
    assert "not" in (await _error(client, "answer", session=sid, answer="maybe")).lower()
    listed = await _call(client, "list_workflows")
    assert len(listed["workflows"]) == 1  # a refused answer submits nothing either

    asked = []
    while view["state"] == "waiting":
        kind = view["question"]["kind"]
        asked.append(kind)
        await _call(client, "answer", session=sid, answer="yes" if kind == "submit" else "no")
        view = await _until_settled(client, sid)
    assert view["state"] == "COMPLETED", view
    assert asked[0] == "submit" and len(view["workflow_ids"]) == 1
    assert any(e.get("event") == "submitted" for e in view["recent_events"])
    listed = await _call(client, "list_workflows")
    assert len(listed["workflows"]) == 2


def _submitted(tmp_path: Path) -> str:
    res = run(tmp_path, "submit", _spec(tmp_path), "--json")
    assert res.returncode == 0, res.stderr
    wid = json.loads(res.stdout)["workflow_id"]
    if until_status(tmp_path, wid, {"COMPLETED"}, 90) != "COMPLETED":
        raise AssertionError(f"{wid} did not complete")
    return wid


def test_stdio_tools_status_and_a_session_driven_by_answers(tmp_path: Path) -> None:
    wid = _submitted(tmp_path)
    cmd = orchestrate_bin()
    params = StdioServerParameters(
        command=cmd[0], args=[*cmd[1:], "mcp", "--cadence", "0.2"], env=env_for(tmp_path), cwd=str(tmp_path)
    )

    async def main() -> str:
        async with Client(params) as client:
            await scenario(client, wid, _spec(tmp_path))
            # the client goes away right after starting a session: the id it was given must name a stored session
            return str((await _call(client, "start_run", spec_path=_spec(tmp_path)))["session"])

    left = anyio.run(main)
    listed = json.loads(run(tmp_path, "sessions", "--json").stdout)["sessions"]
    stored = next((s for s in listed if s["session"] == left), {})
    assert stored.get("state") in ("stopped", "waiting"), listed  # stopped at a safe point: `resume` continues it


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_streamable_http_same_tools_same_session_flow(tmp_path: Path) -> None:
    wid = _submitted(tmp_path)
    port = _free_port()
    proc = subprocess.Popen(
        [*orchestrate_bin(), "mcp", "--http", f"127.0.0.1:{port}", "--cadence", "0.2"],
        cwd=tmp_path,
        env=env_for(tmp_path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "server.log").open("w"),
    )
    try:
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    pytest.fail("mcp --http did not start: " + (tmp_path / "server.log").read_text()[-2000:])
                time.sleep(0.2)

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await scenario(client, wid, _spec(tmp_path))
                await cancel_scenario(client, tmp_path)

        anyio.run(main)
    finally:
        proc.terminate()
        proc.wait(timeout=15)


def test_bad_http_address_is_a_usage_error(tmp_path: Path) -> None:
    res = run(tmp_path, "mcp", "--http", "localhost")
    assert res.returncode == 2 and "HOST:PORT" in res.stderr


@pytest.mark.parametrize("address", ["0.0.0.0:8765", "[::]:8765", "192.168.1.5:8765"])
def test_an_address_others_can_reach_is_refused(address: str) -> None:
    """No authentication: before, `--http 0.0.0.0:PORT` served start_run/answer/cancel to the whole network."""
    from runshepherd.mcpserver.server import parse_http

    with pytest.raises(UsageError, match="no authentication .* use 127.0.0.1:8765 .*ssh -L 8765:127.0.0.1:8765"):
        parse_http(address)
    assert parse_http("127.0.0.1:8765") == ("127.0.0.1", 8765) and parse_http("[::1]:9") == ("::1", 9)
