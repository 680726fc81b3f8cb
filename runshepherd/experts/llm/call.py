"""One model call, made safe: the ceiling is checked first, provider failures become LLMUnavailable, answers
are accepted only as the offered structured result or a read-only tool (anything else is LLMRejected), and the
tokens are recorded per node."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from runshepherd.experts.llm.errors import LLMRejected, LLMUnavailable
from runshepherd.experts.llm.material import as_data
from runshepherd.experts.llm.schemas import tool_spec
from runshepherd.experts.llm.usage import UsageLedger

MAX_TOOL_TURNS = 6
ToolFn = Callable[[BaseModel], str]


def _estimate_tokens(messages: list[Any]) -> int:
    from runshepherd.logs import count_tokens

    return sum(count_tokens(str(getattr(m, "content", m))) for m in messages)


def invoke(model: Any, messages: list[Any], tools: list[dict[str, Any]], *, node: str, ledger: UsageLedger) -> Any:
    """The AIMessage, or LLMUnavailable (ceiling reached, provider error, timeout, rate limit)."""
    reason = ledger.exhausted()
    if reason:
        raise LLMUnavailable(reason)
    try:
        msg = model.bind_tools(tools).invoke(messages)
    except Exception as exc:  # any provider failure is a fallback, never a crash of the run
        raise LLMUnavailable(f"{type(exc).__name__}: {str(exc)[:200]}") from exc
    usage = getattr(msg, "usage_metadata", None) or {}
    ledger.record(
        node,
        usage.get("input_tokens") or _estimate_tokens(messages),
        usage.get("output_tokens") or _estimate_tokens([msg]),
    )
    return msg


def _parse(schema: type[BaseModel], args: dict[str, Any]) -> BaseModel:
    try:
        return schema.model_validate(args)
    except ValidationError as exc:
        raise LLMRejected(f"{schema.__name__} did not validate: {exc.errors(include_url=False)[0]['msg']}") from None


def _checked_calls(msg: Any, allowed: set[str]) -> list[dict[str, Any]]:
    calls = list(getattr(msg, "tool_calls", None) or [])
    if not calls:
        raise LLMRejected("the model answered in prose instead of the structured result")
    unknown = sorted({c["name"] for c in calls} - allowed)
    if unknown:
        raise LLMRejected(f"the model asked for tools it was not offered ({', '.join(unknown)}); nothing was run")
    return calls


def structured(
    model: Any, messages: list[Any], schema: type[BaseModel], *, node: str, ledger: UsageLedger
) -> BaseModel:
    """Exactly one structured result of ``schema``."""
    msg = invoke(model, messages, [tool_spec(schema)], node=node, ledger=ledger)
    call = _checked_calls(msg, {schema.__name__})[0]
    return _parse(schema, call["args"])


def tool_loop(
    model: Any,
    messages: list[Any],
    final: type[BaseModel],
    tools: dict[str, tuple[type[BaseModel], ToolFn]],
    *,
    node: str,
    ledger: UsageLedger,
    patterns: list[str],
) -> BaseModel:
    """Let the model use read-only tools until it answers with ``final`` (bounded turns)."""
    from langchain_core.messages import ToolMessage

    specs = [tool_spec(final)] + [tool_spec(schema, name) for name, (schema, _) in tools.items()]
    allowed = {final.__name__, *tools}
    convo = list(messages)
    for _ in range(MAX_TOOL_TURNS):
        msg = invoke(model, convo, specs, node=node, ledger=ledger)
        calls = _checked_calls(msg, allowed)
        done = next((c for c in calls if c["name"] == final.__name__), None)
        if done is not None:
            return _parse(final, done["args"])
        convo.append(msg)
        for c in calls:
            schema, fn = tools[c["name"]]
            result = fn(_parse(schema, c["args"]))
            convo.append(ToolMessage(content=as_data(f"tool:{c['name']}", result, patterns), tool_call_id=c["id"]))
    raise LLMRejected(f"no {final.__name__} within {MAX_TOOL_TURNS} turns")
