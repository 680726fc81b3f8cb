"""Cheap per-line triage: which extractors need to look at a line at all.

A line is lowercased, punctuation becomes spaces, and its words are intersected with fixed cue sets —
one pass whatever the number of cues, unlike testing dozens of substrings or a big regex alternation.
Most lines of a training log (bars, metric prints) hit no cue and skip the error, event and redaction work.
"""

from __future__ import annotations

import string

_PUNCT_TO_SPACE = str.maketrans({c: " " for c in string.punctuation})

ERROR_WORDS = frozenset(
    {
        "traceback",
        "fatal",
        "critical",
        "killed",
        "kill",
        "sigkill",
        "oomkilled",
        "signal",
        "segmentation",
        "fault",
        "sigsegv",
        "sigabrt",
        "dumped",
        "illegal",
        "bus",
        "found",
        "such",
        "memory",
        "allocate",
        "alloc",
        "nccl",
        "cuda",
        "ibv",
        "socketstartconnect",
        "denied",
        "accessdenied",
        "unauthorized",
        "forbidden",
        "expiredtoken",
        "invalidaccesskeyid",
        "exit",
        "exited",
        "panic",
        "import",
        "space",
        "quota",
        "e",
        "abort",
        "aborted",
        "aborting",
        "assert",
    }
)
EVENT_WORDS = frozenset(
    {
        "checkpoint",
        "checkpointing",
        "resuming",
        "resumed",
        "resume",
        "restoring",
        "restored",
        "downloading",
        "downloaded",
        "download",
        "uploading",
        "uploaded",
        "upload",
        "killed",
        "oomkilled",
        "oom",
        "kill",
        "process",
        "nccl",
        "ncclcomminitrank",
        "training",
        "runtime",
        "saving",
        "saved",
        "loaded",
        "loading",
        "fetching",
        "started",
        "starting",
        "start",
        "stopped",
        "finished",
        "completed",
        "complete",
        "done",
        "evaluation",
        "evaluating",
        "validation",
        "validating",
        "installing",
        "install",
        "initializing",
        "building",
        "setting",
        "preparing",
        "container",
        "application",
        "beginning",
        "running",
    }
)
SECRET_WORDS = frozenset(
    {
        "password",
        "passwd",
        "pwd",
        "passphrase",
        "token",
        "secret",
        "key",
        "apikey",
        "accesskey",
        "secretkey",
        "credential",
        "credentials",
        "bearer",
        "authorization",
        "accountkey",
        "sharedaccesskey",
        "sig",
        "private",
    }
)
# Secret shapes that are not words of their own (provider prefixes, URL credentials, JWT headers).
SECRET_SUBSTRINGS = (
    "sk-",
    "hf_",
    "gh",
    "xox",
    "nvapi-",
    "AKIA",
    "ASIA",
    "AIza",
    "ya29.",
    "eyJ",
    "@",
    "hooks.slack",
    "webhooks/",
    "glpat-",
    "gldt-",
    "glrt-",
    "glptt-",
    "glft-",
    "npm_",
    "pypi-",
)
ALL_WORDS = ERROR_WORDS | EVENT_WORDS | SECRET_WORDS


def words_of(low: str) -> frozenset[str]:
    """The cue words of a lowercased line (the intersection is small, so this stays cheap)."""
    return ALL_WORDS.intersection(low.translate(_PUNCT_TO_SPACE).split())


def may_hold_secret(text: str, hits: frozenset[str]) -> bool:
    return not SECRET_WORDS.isdisjoint(hits) or any(map(text.__contains__, SECRET_SUBSTRINGS))


def may_be_error(low: str, hits: frozenset[str]) -> bool:
    return "error" in low or "exception" in low or not ERROR_WORDS.isdisjoint(hits)


def may_be_event(hits: frozenset[str]) -> bool:
    return not EVENT_WORDS.isdisjoint(hits)
