"""The literal gates of the shipped patterns, worked out ahead of time (``gates.json``).

Working out a gate re-parses its regex (:func:`prefilter.gate_for`); over the ~800 patterns the diagnosis modules
build at import that took ~0.2 s of CPU, a quarter of importing the diagnoser, in every process that reads a log
(`orchestrate diagnose --log` took ~1.5 s, most of it imports). The table holds each pattern's gate and, for the
alternations split into their branches (:class:`prefilter.Alternatives`), the branches, keyed by the pattern's text
and flags. A pattern missing from it (a new or edited rule) has its gate worked out as before, so a stale table is
only slower, never wrong. It is used only on the Python minor version that wrote it (the gate is read off
``re``'s parser, whose output may change between versions).

``python -m runshepherd.diagnosis.gatetable --write`` rewrites it; ``--check`` exits 1 when it is not what the current
patterns and code give (a test runs that).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

FILE = Path(__file__).with_name("gates.json")
PYTHON = f"{sys.version_info[0]}.{sys.version_info[1]}"
KINDS = ("gates", "splits")

RECORD_ENV = "RS_GATE_TABLE_RECORD"  # set by :func:`build` in the child process that works the table out

_table: dict[str, dict[str, Any]] | None = None
# in that child: the table is not read, and every entry worked out is recorded here
_recorded: dict[str, dict[str, Any]] | None = (
    {kind: {} for kind in KINDS} if os.environ.get(RECORD_ENV) == "1" else None
)


def _key(pattern: str, flags: int) -> str:
    return f"{flags}:{pattern}"


def _load() -> dict[str, dict[str, Any]]:
    global _table
    if _table is None:
        _table = {kind: {} for kind in KINDS}
        try:
            data = json.loads(FILE.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # no table (a source checkout mid-edit): every gate is worked out
            return _table
        if isinstance(data, dict) and data.get("python") == PYTHON:
            _table = {kind: dict(data.get(kind) or {}) for kind in KINDS}
    return _table


def cached(kind: str, pattern: str, flags: int, work_out: Callable[[], Any]) -> Any:
    """The table's entry of ``kind`` for the pattern, else ``work_out()`` (a JSON value)."""
    key = _key(pattern, flags)
    if _recorded is not None:
        value = work_out()
        _recorded[kind][key] = value
        return value
    table = _load()[kind]
    if key in table:
        return table[key]
    return work_out()


_CHILD = """
import importlib, json, pkgutil, sys
import runshepherd.diagnosis as package
for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    importlib.import_module(info.name)
from runshepherd.diagnosis import gatetable
json.dump(gatetable._recorded, sys.stdout)
"""


def build() -> dict[str, Any]:
    """The table the current patterns and code give: every diagnosis module imported in a fresh process that works
    every gate out (none read from the table) and records it."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD],
        env={**os.environ, RECORD_ENV: "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"working the gate table out failed: {done.stderr.strip()[-2000:]}")
    seen = json.loads(done.stdout)
    return {"python": PYTHON, **{kind: dict(sorted(seen[kind].items())) for kind in KINDS}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"rewrite {FILE.name}")
    mode.add_argument("--check", action="store_true", help=f"exit 1 when {FILE.name} is not current")
    args = parser.parse_args(argv)
    table = build()
    text = json.dumps(table, ensure_ascii=False, indent=0, sort_keys=False) + "\n"
    if args.write:
        FILE.write_text(text, encoding="utf-8")
        print(f"{FILE}: {len(table['gates'])} gates, {len(table['splits'])} splits (Python {PYTHON})")
        return 0
    try:
        shipped = json.loads(FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"{FILE}: unreadable ({exc}); run: python -m runshepherd.diagnosis.gatetable --write", file=sys.stderr)
        return 1
    problems = []
    for kind in KINDS:
        have, want = shipped.get(kind) or {}, table[kind]
        wrong = [k for k in want if k in have and have[k] != want[k]]
        missing = [k for k in want if k not in have]
        stale = [k for k in have if k not in want]
        for what, keys in (("wrong", wrong), ("missing", missing), ("no longer used", stale)):
            if keys:
                problems.append(f"{kind}: {len(keys)} {what}, e.g. {keys[0][:100]!r}")
    if shipped.get("python") != PYTHON:
        problems.append(f"written by Python {shipped.get('python')}, this is {PYTHON}")
    if problems:
        print(f"{FILE} is not current:\n  " + "\n  ".join(problems), file=sys.stderr)
        print("run: python -m runshepherd.diagnosis.gatetable --write", file=sys.stderr)
        return 1
    print(f"{FILE}: current ({len(table['gates'])} gates, {len(table['splits'])} splits)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
