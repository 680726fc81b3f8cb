"""Two ways a model call can fail, each with its own fallback reason shown to the person."""

from __future__ import annotations


class LLMUnavailable(Exception):
    """The provider did not answer (error, timeout, rate limit) or the session's ceiling was reached."""


class LLMRejected(Exception):
    """The model answered, but not with a valid result (wrong tool, bad schema, evidence not in the material)."""
