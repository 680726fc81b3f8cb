"""How far the wording of a log's root error decides its label, on the real corpus's dev split.

    python benchmarks/label_ceiling.py              # the packages / code errors / refused settings boundary
    python benchmarks/label_ceiling.py --all        # every failure label

The corpus labels a failure by the fix its source applied, and the same error worded the same way is fixed by a
pin in one thread and by a code edit in the next. This script groups the dev cases by the form of their root error
line (exception type and the message's first words, with quoted names, paths and numbers blanked), then reads each
case as the majority label of the *other* cases of its form (leave one out), beside the product's own verdict on the
same cases. A reader that only knows the root error's form cannot beat that majority on average; the product reads
more than the root line, and is tuned on these very cases, so its figure here is a fit, not an estimate. The gap
between the two, and what both reach, says how much of the blind splits' boundary misses any rule can take back.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_diagnosis import Case, load_real  # noqa: E402

from runshepherd.diagnosis.engine import diagnose_log_text, log_context  # noqa: E402

BOUNDARY = frozenset({"missing_dependency", "user_code_error", "validation_error"})
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_PATH = re.compile(r"\(/[^)]*\)|/[\w./<>-]+")
_ROOT = re.compile(r"^\s*(?:\S+\s+)?(?P<exc>[\w.]*(?:Error|Exception|Exit|Interrupt))\b:?\s*(?P<msg>.*)$")
_WORD = re.compile(r"[A-Za-z_]+|Q|P|N")


def form(line: str) -> str | None:
    """A root error line's form: its exception type and the first six words of its message, names blanked."""
    text = re.sub(r"\d+", "N", _PATH.sub("P", _QUOTED.sub("Q", line)))
    m = _ROOT.match(text)
    if m is None:
        return None
    return m.group("exc").rsplit(".", 1)[-1] + ": " + " ".join(_WORD.findall(m.group("msg"))[:6])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="every failure label, not only the boundary")
    args = ap.parse_args(argv)
    rows: list[tuple[Case, str, str]] = []  # (case, its root error's form, the product's label)
    for c in load_real("dev"):
        if c.label == "healthy" or not (args.all or c.label in BOUNDARY):
            continue
        text = c.path.read_text(encoding="utf-8", errors="replace")
        root = log_context(text).log.root_line()
        f = form(root.text) if root is not None else None
        if f is not None:
            rows.append((c, f, diagnose_log_text(text, c.name).label))
    by_form: dict[str, list[str]] = defaultdict(list)
    for c, f, _ in rows:
        by_form[f].append(c.label)
    n = majority_right = product_right = 0
    for c, f, product in rows:
        others = Counter(by_form[f])
        others[c.label] -= 1
        if sum(others.values()) == 0:
            continue  # no other case of its form: nothing to read it by
        n += 1
        majority_right += others.most_common(1)[0][0] == c.label
        product_right += product == c.label
    scope = "failures" if args.all else "boundary cases (" + ", ".join(sorted(BOUNDARY)) + ")"
    print(f"dev {scope} with a root error line: {len(rows)}; with another case of the same form: {n}")
    if n:
        print(f"majority of the same form, each case left out: {majority_right}/{n} = {100 * majority_right / n:.1f}%")
        print(
            f"the product on the same cases (a fit: tuned on them): {product_right}/{n} = {100 * product_right / n:.1f}%"
        )
    print("the commonest forms and their labels:")
    for f, labels in sorted(by_form.items(), key=lambda kv: -len(kv[1]))[:10]:
        print(f"  {len(labels):4d}  {f}: {dict(Counter(labels).most_common())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
