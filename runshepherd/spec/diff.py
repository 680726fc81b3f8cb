"""Every change to a person's spec is shown as a unified diff."""

from __future__ import annotations

import difflib


def spec_diff(old: str, new: str, name: str = "spec.yaml") -> str:
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), fromfile=f"a/{name}", tofile=f"b/{name}"
        )
    )
