"""An MCP caller may give set_values as a mapping ({"epochs": 5}) as well as a list (["epochs=5"]).

Before: a mapping was refused by the SDK's argument check before any RunShepherd code ran, with pydantic's raw
"1 validation error for start_runArguments … Input should be a valid list … https://errors.pydantic.dev/…", which
quoted the values unredacted (a token passed as a value was echoed back and logged) and named nothing to do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from runshepherd.cli.context import CliContext
from runshepherd.mcpserver.server import build_server

ROOT = Path(__file__).resolve().parents[3]
SPEC = str(ROOT / "examples" / "templated.yaml")  # its default-values take epochs


def _calls(state: Path, calls: list[tuple[str, dict[str, Any]]]) -> list[tuple[bool, str, Any]]:
    server = build_server(CliContext.create(config=None, state_dir=state, backend="local"))

    async def main() -> list[tuple[bool, str, Any]]:
        out = []
        async with Client(server) as client:
            for name, args in calls:
                res = await client.call_tool(name, args)
                out.append(
                    (res.is_error, " ".join(getattr(c, "text", "") for c in res.content), res.structured_content)
                )
        return out

    return anyio.run(main)


def test_a_mapping_is_read_as_key_value_pairs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (ok, _, _), (bad, said, _) = [
        (not err, text, sc)
        for err, text, sc in _calls(
            tmp_path / "state",
            [
                ("validate", {"spec_path": SPEC, "set_values": {"epochs": 5}}),
                ("validate", {"spec_path": SPEC, "set_values": {"nokey": "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"}}),
            ],
        )
    ]
    assert ok
    assert not bad and "nokey" in said and "pydantic" not in said and "hf_AbCd" not in said, said
