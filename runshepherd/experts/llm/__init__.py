"""The LLM path: a langchain chat model behind the expert interfaces, with the deterministic layer as fallback.

Public API: :func:`build_chat_model`, :func:`parse_model_name`, :class:`LLMExpert`, :class:`UsageLedger`,
:func:`as_data`, :class:`LLMUnavailable`, :class:`LLMRejected`.
"""

from runshepherd.experts.llm.errors import LLMRejected, LLMUnavailable
from runshepherd.experts.llm.factory import build_chat_model, parse_model_name
from runshepherd.experts.llm.material import as_data
from runshepherd.experts.llm.usage import UsageLedger

__all__ = ["LLMRejected", "LLMUnavailable", "UsageLedger", "as_data", "build_chat_model", "parse_model_name"]
