"""Every change to a person's spec is shown as a unified diff."""

from __future__ import annotations

import difflib


def spec_diff(old: str, new: str, name: str = "spec.yaml") -> str:
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), fromfile=f"a/{name}", tofile=f"b/{name}"
        )
    )


class PatchError(ValueError):
    pass


def apply_unified_diff(old: str, diff: str) -> str:
    """Apply a unified diff made against ``old`` (strict: context must match), so a shown patch is the patch used."""
    import re

    src = old.splitlines(keepends=True)
    out: list[str] = []
    pos = 0
    lines = diff.splitlines(keepends=True)
    i = 0
    hunk_re = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
    while i < len(lines):
        m = hunk_re.match(lines[i])
        if not m:
            i += 1
            continue
        start = int(m.group(1)) - (0 if m.group(2) == "0" else 1)
        if start < pos:
            raise PatchError("overlapping hunks")
        out.extend(src[pos:start])
        pos = start
        i += 1
        while i < len(lines) and not lines[i].startswith("@@"):
            tag, body = lines[i][:1], lines[i][1:]
            if tag == "\\":  # "\ No newline at end of file"
                if out and out[-1].endswith("\n"):
                    out[-1] = out[-1][:-1]
                i += 1
                continue
            if tag in (" ", "-"):
                if pos >= len(src) or src[pos].rstrip("\n") != body.rstrip("\n"):
                    raise PatchError(f"patch does not apply at line {pos + 1}")
                if tag == " ":
                    out.append(src[pos])
                pos += 1
            elif tag == "+":
                out.append(body if body.endswith("\n") or i + 1 < len(lines) else body)
            i += 1
    out.extend(src[pos:])
    return "".join(out)
