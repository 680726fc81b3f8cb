"""Watching runs that already exist: a monitor that owns polling, keeps a short status artifact fresh, notifies
on state changes and escalations, and stops at a terminal state or when scheduler auth is blocked."""
