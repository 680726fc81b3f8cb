"""An error written for the command line, said in this server's tool and argument names.

The product writes each error once, in the CLI's words (`--set`, `--pool`, `orchestrate list`): that is where most
people meet it. An MCP caller has tools and arguments, not flags, so telling it to "omit --pool" or "run
`orchestrate list`" names something it cannot do. This table is the one place those words are translated; a test
checks that every phrase it rewrites is still one the product writes, so it cannot go stale unnoticed.
"""

from __future__ import annotations

import re

from runshepherd.backends.base import KNOWN_ONES

MCP_TERMS: tuple[tuple[str, str], ...] = (
    # (the CLI's words, as a regex over the error line; the tool's words)
    (re.escape(KNOWN_ONES), "call list_workflows to see the known ones"),
    (r"e\.g\. --set (\S+)", r'e.g. set_values=["\1"]'),
    (r"pass --set (\S+)", r'pass "\1" in set_values'),
    (r"so --answer ('[^']*'|\S+) was not (applied|used)", r"so the answer \1 was not \2"),
    (r"`orchestrate resume (\S+)` without --answer shows its result", "`session` shows its result"),
    (r"--set\b", "set_values"),
    (r"or omit --pool\b", "or leave pool out"),
    (r"--pool\b", "pool"),
    (r"\(`orchestrate pools` lists them\)", "(the pools tool lists them)"),
    (r"--spec FILE\b", "spec_path"),
    (r'e\.g\. orchestrate "', 'e.g. request="'),
)
_COMPILED = tuple((re.compile(cli), mcp) for cli, mcp in MCP_TERMS)


def in_tool_terms(message: str) -> str:
    """The message with each CLI flag or command it names replaced by the MCP tool or argument that does it."""
    for cli, mcp in _COMPILED:
        message = cli.sub(mcp, message)
    return message
