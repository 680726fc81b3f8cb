"""An MCP tool's error names the tools and arguments the caller has, not the CLI's flags and commands.

Before: `status` of an unknown id said "run `orchestrate list` to see the known ones", `validate` with a bad
`set_values` item said "e.g. --set epochs=5", and an unknown pool said "omit --pool": things an MCP client cannot do.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from runshepherd.cli.context import CliContext
from runshepherd.mcpserver.server import build_server
from runshepherd.mcpserver.wording import MCP_TERMS

ROOT = Path(__file__).resolve().parents[3]
SPEC = ROOT / "examples" / "train-classifier.yaml"


def _errors(state: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    server = build_server(CliContext.create(config=None, state_dir=state, backend="local"))

    async def main() -> list[str]:
        said = []
        async with Client(server) as client:
            for name, args in calls:
                res = await client.call_tool(name, args)
                assert res.is_error, f"{name} should have failed: {res.structured_content}"
                said.append(" ".join(getattr(c, "text", "") for c in res.content))
        return said

    return anyio.run(main)


def test_tool_errors_name_tools_and_arguments_not_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    unknown, bad_item, bad_pool, set_on_request, run_pool = _errors(
        tmp_path / "state",
        [
            ("status", {"workflow_id": "nosuch"}),
            ("validate", {"spec_path": str(SPEC), "set_values": ["epochs"]}),
            ("validate", {"spec_path": str(SPEC), "pool": "gpu-nope"}),
            ("start_run", {"request": "train a small classifier", "set_values": ["epochs=5"]}),
            ("start_run", {"request": "train a small classifier", "pool": "gpu-nope"}),
        ],
    )
    assert unknown.endswith("call list_workflows to see the known ones"), unknown
    assert bad_item.endswith("set_values 'epochs': expected KEY=VALUE, e.g. set_values=[\"epochs=5\"]"), bad_item
    assert bad_pool.endswith("use 'local' or leave pool out"), bad_pool
    assert "(with spec_path)" in set_on_request and 'e.g. request="train' in set_on_request, set_on_request
    assert run_pool.endswith("its pools: local (the pools tool lists them)"), run_pool  # was `orchestrate pools`
    for said in (unknown, bad_item, bad_pool, set_on_request, run_pool):
        assert "--" not in said and "orchestrate " not in said, said


def test_listing_a_pool_that_is_not_there_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """list_workflows pool="gpu-nope" answered {"workflows": []} (a typo read as "nothing ran there"), while
    `orchestrate list --pool gpu-nope` and start_run's pool say the pool is not there."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (said,) = _errors(tmp_path / "state", [("list_workflows", {"pool": "gpu-nope"})])
    assert "no pool 'gpu-nope'" in said and said.endswith("its pools: local (the pools tool lists them)"), said


def test_every_cli_phrase_the_table_rewrites_is_still_one_the_product_writes() -> None:
    """A table entry whose CLI wording no longer occurs anywhere in the product would rewrite nothing, silently."""
    files = [p for p in (ROOT / "runshepherd").rglob("*.py") if p.name != "wording.py" or p.parent.name != "mcpserver"]
    source = "\n".join(p.read_text(encoding="utf-8") for p in files)  # the table itself is not the product's words
    source = source.replace("{", "").replace("}", "")  # f-string fields: `--set {key}` is written `--set key`
    for cli, _ in MCP_TERMS:
        assert re.search(cli, source), f"{cli!r} is written nowhere in runshepherd/"


def test_a_plans_warning_names_the_argument_not_the_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: MCP's `session` showed "--set epochs=1000000000 … looks unintended" to a caller that passed set_values."""
    import time

    monkeypatch.setenv("HOME", str(tmp_path))
    server = build_server(CliContext.create(config=None, state_dir=tmp_path / "state", backend="local"), cadence=0.2)

    async def main() -> list[str]:
        async with Client(server) as client:
            spec = str(ROOT / "examples" / "templated.yaml")  # its default-values take epochs
            started = await client.call_tool("start_run", {"spec_path": spec, "set_values": ["epochs=1000000000"]})
            sid = started.structured_content["session"]
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                view = (await client.call_tool("session", {"session": sid})).structured_content
                planned = [e for e in view["recent_events"] if e.get("event") == "planned"]
                if planned and view["state"] != "running":
                    await client.call_tool("cancel", {"session": sid})
                    return list(planned[0]["warnings"])
                await anyio.sleep(0.2)
        raise AssertionError("the session never planned")

    warnings = anyio.run(main)
    unintended = [w for w in warnings if "1000000000" in w]
    assert unintended and all("set_values epochs=1000000000" in w and "--set" not in w for w in unintended), warnings


TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"


def test_a_wrong_typed_argument_is_said_per_argument_without_its_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the SDK's argument check answered with pydantic's raw text, which quotes each rejected value (a token
    passed as a single `set_values` string came back whole) and links pydantic's docs. One place now says it for
    every tool and type: the argument, what it takes, what came (its type, never its value)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    said = _errors(
        tmp_path / "state",
        [
            ("logs", {"workflow_id": "x", "tail": "abc"}),
            ("start_run", {"request": "train a small classifier", "session": 5}),
            ("validate", {"spec_path": str(SPEC), "set_values": f"token={TOKEN}"}),
            ("validate", {"spec_path": str(SPEC), "set_values": {"epochs": {"nested": TOKEN}}}),
            ("status", {"workflow_id": [TOKEN]}),
            ("logs", {}),
        ],
    )
    for text in said:
        assert TOKEN[:8] not in text and "pydantic" not in text and "input_value" not in text, text
    assert said[0] == "Error executing tool logs: argument tail: expected an integer, got a string"
    assert said[1].endswith("argument session: expected a string, got an integer")
    assert said[2].endswith(
        "argument set_values: expected a list of strings or a mapping "
        + "whose values are each a string, an integer, a number or a boolean, got a string"
    )
    assert "argument set_values: expected" in said[3]
    assert said[4].endswith("argument workflow_id: expected a string, got a list")
    assert said[5].endswith("argument workflow_id is required")


def test_an_unknown_session_and_an_unknown_argument_are_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: "no session 'nope'" with no word of where ids come from, and an argument a tool does not take
    (answer's extra="…") dropped without a word by the SDK."""
    monkeypatch.setenv("HOME", str(tmp_path))
    nope, extra = _errors(
        tmp_path / "state",
        [("session", {"session": "nope"}), ("answer", {"session": "nope", "answer": "yes", "extra": "x"})],
    )
    assert nope.endswith("no session 'nope' — a session's id is the `session` that start_run returned"), nope
    assert extra == "Error executing tool answer: argument extra is not one answer takes (session, answer)", extra


def test_tool_calls_read_the_tool_list_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: every call listed every tool (building each one's schema) to find its own schema: twice for a call
    whose arguments the SDK refused. The unknown-argument message is still said, by `argument_problems` alone."""
    from mcp.server.mcpserver.exceptions import ToolError

    monkeypatch.setenv("HOME", str(tmp_path))
    server = build_server(CliContext.create(config=None, state_dir=tmp_path / "state", backend="local"))
    listed = 0
    real = type(server).list_tools

    async def counted(self: Any) -> Any:
        nonlocal listed
        listed += 1
        return await real(self)

    monkeypatch.setattr(type(server), "list_tools", counted)

    async def main() -> list[str]:
        said = []
        for args in ({"session": "nope", "answer": "yes", "extra": "x"}, {"session": 3, "answer": "yes"}) * 3:
            with pytest.raises(ToolError) as err:
                await server.call_tool("answer", args)
            said.append(str(err.value))
        return said

    said = anyio.run(main)
    assert listed == 1, listed
    assert said[0] == "Error executing tool answer: argument extra is not one answer takes (session, answer)"
    assert said[1].endswith("argument session: expected a string, got an integer"), said[1]
