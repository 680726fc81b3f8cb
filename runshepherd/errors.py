"""Errors a person can act on. The CLI maps each to an exit code and prints `str(err)` (never a traceback)."""

from __future__ import annotations


class RunShepherdError(Exception):
    """Base class; ``exit_code`` follows docs/architecture.md §13.2 (2 = usage or bad input)."""

    exit_code = 2


class UsageError(RunShepherdError):
    exit_code = 2


class ConfigError(RunShepherdError):
    exit_code = 2


class NotImplementedYet(RunShepherdError):
    """A capability that is planned but not built; says so instead of pretending."""

    exit_code = 2
