"""How the diagnosis patterns' time grows with a padded line: a pattern that retries every split of a run of spaces
or marks is fast on real logs and takes seconds to hours on one hostile line (stop 34 found three: 9 s for one
"inference done" line padded with 300 spaces, 45 s for a table rule of 1,600 dashes, both through the CLI).

Every compiled pattern reachable from the modules of ``runshepherd.diagnosis`` (module globals and the rule objects
they hold) is searched on padded shapes at two lengths, SHORT and LONG (4x). The ratio LONG/SHORT of each pattern's
time is the baseline measured in the same run: about 4 for a linear pattern, 16 for a quadratic one (bounded by the
10,000-character line cap), 64 for a cubic one. The bar: no pattern grows faster than quadratic (ratio above
``BAR_RATIO``) while taking more than ``FLOOR_S`` on the long shape (tiny times are noise).

    python benchmarks/bench_pattern_growth.py
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

import runshepherd.diagnosis as diagnosis

SHORT, LONG = 100, 400
BAR_RATIO = 32.0  # halfway, geometrically, between quadratic (16) and cubic (64): timing noise moves a ratio by ~5
FLOOR_S = 0.01

# padded shapes: a run of one character or word, then something the pattern cannot take at the end
SHAPES: dict[str, Callable[[int], str]] = {
    "spaces then x": lambda n: " " * n + "x",
    "letters then !": lambda n: "a" * n + "!",
    "words then !": lambda n: "a " * n + "!",
    "'done' then spaces": lambda n: "inference done" + " " * n + "x",
    "digits then x": lambda n: "1" * n + "x",
    "dotted digits": lambda n: "1." * n + "x",
    "dotted letters": lambda n: "a." * n + " ",
    "dashes then x": lambda n: "-" * n + "x",
    "tabs then x": lambda n: "\t" * n + "x",
    "numbers then x": lambda n: "0.5 " * n + "x",
    "open brackets": lambda n: "[" * n,
    "keys then NUL": lambda n: "a: " * n + "\x00",
    "metrics then nan": lambda n: "loss: 0.1 " * n + "nan x",
    "errors then NUL": lambda n: "Error " * n + "\x00",
    "path segments": lambda n: "/a" * n + " ",
    "quoted words": lambda n: "'a' " * n + "x",
    "assignments": lambda n: "a=1, " * n + "\x00",
    "column bars": lambda n: "| " * n + "x",
    "letters then rror": lambda n: "e" * n + "rror",
    "mixed word chars": lambda n: "aA1_" * n + "!",
}


def patterns() -> dict[str, tuple[re.Pattern[str], str]]:
    """Every compiled pattern of the diagnosis package, by its source, with a name saying where it was found."""
    found: dict[str, tuple[re.Pattern[str], str]] = {}
    seen: set[int] = set()

    def walk(obj: Any, name: str, depth: int) -> None:
        if id(obj) in seen or depth > 4:
            return
        seen.add(id(obj))
        if isinstance(obj, re.Pattern):
            found.setdefault(obj.pattern, (obj, name))
            return
        items: Iterable[tuple[Any, Any]]
        if isinstance(obj, dict):
            items = obj.items()
        elif isinstance(obj, (list, tuple, set, frozenset)):
            items = enumerate(obj)
        elif type(obj).__module__.startswith("runshepherd") and not isinstance(obj, type):
            slots = getattr(type(obj), "__slots__", ())
            items = vars(obj).items() if hasattr(obj, "__dict__") else ((s, getattr(obj, s, None)) for s in slots)
        else:
            return
        for key, value in items:
            walk(value, f"{name}.{key}", depth + 1)

    for info in pkgutil.walk_packages(diagnosis.__path__, "runshepherd.diagnosis."):
        module = importlib.import_module(info.name)
        for key, value in vars(module).items():
            if not key.startswith("__"):
                walk(value, f"{info.name}.{key}", 0)
    return found


def _seconds(pattern: re.Pattern[str], text: str, repeats: int = 1) -> float:
    """The best of ``repeats`` searches (one is enough to see that a pattern is fast)."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        pattern.search(text)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> int:
    found = patterns()
    t0 = time.process_time()
    worst: list[tuple[float, float, str, str]] = []
    for pattern, name in found.values():
        for shape, make in SHAPES.items():
            if _seconds(pattern, make(LONG)) <= FLOOR_S:
                continue
            short, long = _seconds(pattern, make(SHORT), 3), _seconds(pattern, make(LONG), 3)  # best of 3: less noise
            if long > FLOOR_S:
                worst.append((long / max(short, 1e-6), long, name, shape))
    worst.sort(reverse=True)
    over = [w for w in worst if w[0] > BAR_RATIO]
    print(
        f"{len(found)} patterns x {len(SHAPES)} shapes at {SHORT} and {LONG} characters ({time.process_time() - t0:.1f} s CPU)"
    )
    print(
        f"slowest growth (ratio {LONG}/{SHORT} of the time; ~4 linear, ~16 quadratic, ~64 cubic), above {FLOOR_S * 1000:.0f} ms:"
    )
    for ratio, long, name, shape in worst[:10]:
        flag = "  OVER THE BAR" if ratio > BAR_RATIO else ""
        print(f"  x{ratio:5.1f}  {long * 1000:7.1f} ms  {name}  [{shape}]{flag}")
    print(f"bar: no pattern grows faster than x{BAR_RATIO:.0f}: {'met' if not over else f'NOT met ({len(over)})'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
