"""OSMO's special tokens, substituted by the scheduler at run time (not by Jinja, not by `--set`)."""

from __future__ import annotations

import re

from runshepherd.errors import RunShepherdError

# {{output}}, {{input:0}}, {{workflow_id}}, {{host:master}} — spaces inside the braces are tolerated.
TOKEN_RE = re.compile(r"\{\{\s*(output|workflow_id|input:(\d+)|host:([A-Za-z0-9_-]+))\s*\}\}")
# Names a person types when they mean a special token; kept literal (and linted) instead of failing to render.
NEAR_MISSES = {
    "outputs": "{{output}}",
    "output_dir": "{{output}}",
    "outdir": "{{output}}",
    "inputs": "{{input:0}}",
    "input": "{{input:0}}",
    "workflowid": "{{workflow_id}}",
    "workflow_name": "{{workflow_id}}",
}


class TokenError(RunShepherdError):
    pass


def substitute_tokens(
    text: str,
    *,
    output: str,
    inputs: list[str],
    workflow_id: str,
    hosts: dict[str, str] | None = None,
) -> str:
    """Replace the special tokens for one task; an `{{input:N}}` beyond the task's inputs is an error."""

    def repl(m: re.Match[str]) -> str:
        kind = m.group(1)
        if kind == "output":
            return output
        if kind == "workflow_id":
            return workflow_id
        if m.group(2) is not None:
            idx = int(m.group(2))
            if idx >= len(inputs):
                raise TokenError(
                    f"{m.group(0)} refers to input {idx}, but the task has {len(inputs)} input(s) — "
                    f"inputs are numbered from 0 in the order of `inputs:`"
                )
            return inputs[idx]
        host = m.group(3)
        if hosts is None or host not in hosts:
            raise TokenError(f"{m.group(0)}: no task {host!r} in the same group to resolve a host name for")
        return hosts[host]

    return TOKEN_RE.sub(repl, text)


def find_tokens(text: str) -> list[str]:
    return [m.group(0) for m in TOKEN_RE.finditer(text)]
