"""`orchestrate chat`: a conversation that starts normal graph sessions and answers their questions inline.

Public API: :func:`route` (deterministic intent router), :class:`Intent`, :class:`ModelRouter` (the
tool-calling router when a model is configured), :class:`ChatSession` (the conversation driver).
"""

from runshepherd.chat.intents import Intent, route

__all__ = ["Intent", "route"]
