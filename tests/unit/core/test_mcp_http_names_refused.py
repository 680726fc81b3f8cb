"""`mcp --http` listens on loopback only, and a host *name* that merely starts with "127." is not loopback: DNS
decides where `127.0.0.0.0.nip.io` or `127.evil.example` resolve (0.0.0.0 or a public address would serve the
unauthenticated tools to the network). Before, any host starting with "127." was accepted."""

from __future__ import annotations

import pytest

from runshepherd.errors import UsageError
from runshepherd.mcpserver.server import parse_http


@pytest.mark.parametrize("address", ["127.0.0.0.0.nip.io:8765", "127.evil.example:8765"])
def test_a_name_that_looks_like_loopback_is_refused(address: str) -> None:
    with pytest.raises(UsageError, match="no authentication"):
        parse_http(address)


@pytest.mark.parametrize(
    ("address", "bound"), [("127.0.0.1:8765", ("127.0.0.1", 8765)), ("127.1.2.3:9", ("127.1.2.3", 9))]
)
def test_loopback_addresses_are_kept(address: str, bound: tuple[str, int]) -> None:
    assert parse_http(address) == bound
