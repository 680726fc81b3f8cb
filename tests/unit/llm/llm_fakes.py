"""A scripted langchain chat model that records every message it receives, for the LLM-path tests.

`script(messages, tool_names)` decides each reply; helpers below build the usual replies. Setting
`recorder.down = True` makes every later call raise, like a provider that was killed mid-run.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

Script = Callable[[list[BaseMessage], list[str]], AIMessage]
_ids = itertools.count(1)


@dataclass
class Recorder:
    calls: list[tuple[list[BaseMessage], list[str]]] = field(default_factory=list)
    down: bool = False

    def text(self) -> str:
        """Everything the model was ever sent, as one string."""
        return "\n".join(str(m.content) for msgs, _ in self.calls for m in msgs)

    def tools_offered(self) -> list[list[str]]:
        return [tools for _, tools in self.calls]


class RecordingFake(BaseChatModel):
    script: Any
    recorder: Any
    tools: list[str] = []

    @property
    def _llm_type(self) -> str:
        return "recording-fake"

    def bind_tools(self, tools: Any, **kwargs: Any) -> RecordingFake:  # type: ignore[override]
        names = [t["function"]["name"] if isinstance(t, dict) else getattr(t, "__name__", str(t)) for t in tools]
        return self.model_copy(update={"tools": names})

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        self.recorder.calls.append((list(messages), list(self.tools)))
        if self.recorder.down:
            raise ConnectionError("provider connection refused")
        msg = self.script(messages, self.tools)
        msg.usage_metadata = {"input_tokens": 100, "output_tokens": 20, "total_tokens": 120}
        return ChatResult(generations=[ChatGeneration(message=msg)])


def call(name: str, **args: Any) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"c{next(_ids)}"}])


def by_tool(**handlers: Callable[[list[BaseMessage]], AIMessage]) -> Script:
    """Reply with the handler of the first offered tool that has one (the step's own result comes first)."""

    def script(messages: list[BaseMessage], tools: list[str]) -> AIMessage:
        for name in tools:
            if name in handlers:
                return handlers[name](messages)
        return AIMessage(content="I do not know.")

    return script


def fake(script: Script) -> tuple[RecordingFake, Recorder]:
    rec = Recorder()
    return RecordingFake(script=script, recorder=rec), rec
