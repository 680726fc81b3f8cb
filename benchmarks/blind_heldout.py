"""What the learned model did on blind splits it never saw, from their fresh verdicts: its label replacements (until
stop 64, when they were removed for netting +3 over v32-v39) and its disputes of confident rule readings
(runshepherd/diagnosis/learned.py).

    python benchmarks/blind_heldout.py            # the tables, with the shipped DISPUTE threshold
    python benchmarks/blind_heldout.py --dispute 0.3

``benchmarks/data/blind_fresh/vN.jsonl`` holds, for each case of blind split vN, what ``orchestrate diagnose --log
--json`` printed at the split's freeze commit (the product's label, confidence and reading; the rules' label and
confidence, from the rules-alone run or from the learned verdict's own explanation) and what the model shipped at that
commit, trained without the split, reads in the log (its top label, its probability, its probability for the rules'
label). Those are measurements taken once, at the freeze; this script only counts them, so the constants in learned.py
can be checked against the numbers they were chosen on.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from runshepherd.diagnosis.learned import DISPUTE, NEVER, STATED, UNSURE  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "blind_fresh"
FREEZES = {
    "v32": "22e26629",
    "v33": "6aae45d5",
    "v34": "9035605c",
    "v35": "087c8241",
    "v36": "36d8b20c",
    "v37": "fba6c7c5",
    "v38": "d7b29622",
    "v39": "9bde2d19",
    "v40": "ab74573d",
    "v41": "50a0d6d7",
    "v42": "4f49bd78",
}


@dataclass(frozen=True)
class Tally:
    replaced: int
    wrong_to_right: int
    right_to_wrong: int
    by_direction: Counter[tuple[str, str, str]]  # (rules, learned, "right"|"rules right"|"neither") -> count
    confident: int
    confident_right: int
    disputed: int
    disputed_right: int


def load(split: str) -> list[dict[str, object]]:
    with (DATA / f"{split}.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def is_disputed(row: dict[str, object], threshold: float) -> bool:
    """learned.dispute's test, on the recorded readings (the product's own reading must be the rules')."""
    p = row["model_p_rules"]
    return (
        row["reading"] == "rules"
        and float(row["rules_confidence"]) >= UNSURE  # type: ignore[arg-type]
        and row["rules"] not in NEVER | STATED
        and row["model_top"] not in NEVER
        and p is not None
        and float(p) < threshold  # type: ignore[arg-type]
    )


def tally(rows: list[dict[str, object]], threshold: float) -> Tally:
    learned = [r for r in rows if r["reading"] == "learned"]
    by: Counter[tuple[str, str, str]] = Counter()
    for r in learned:
        outcome = "right" if r["product"] == r["gold"] else "rules right" if r["rules"] == r["gold"] else "neither"
        by[(str(r["rules"]), str(r["product"]), outcome)] += 1
    confident = [r for r in rows if r["reading"] == "rules" and float(r["rules_confidence"]) >= UNSURE]  # type: ignore[arg-type]
    disputed = [r for r in confident if is_disputed(r, threshold)]
    return Tally(
        replaced=len(learned),
        wrong_to_right=sum(1 for r in learned if r["product"] == r["gold"] and r["rules"] != r["gold"]),
        right_to_wrong=sum(1 for r in learned if r["product"] != r["gold"] and r["rules"] == r["gold"]),
        by_direction=by,
        confident=len(confident),
        confident_right=sum(1 for r in confident if r["rules"] == r["gold"]),
        disputed=len(disputed),
        disputed_right=sum(1 for r in disputed if r["rules"] == r["gold"]),
    )


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dispute", type=float, default=DISPUTE, help="the model's probability below which it disputes")
    args = ap.parse_args(argv)
    total = Tally(0, 0, 0, Counter(), 0, 0, 0, 0)
    print(
        f"{'split':6} {'replaced':>8} {'W->R':>5} {'R->W':>5} {'confident':>10} {'calibration':>12} "
        f"{'disputed':>9} {'right':>6} {'calibration after':>18}"
    )
    for split, commit in FREEZES.items():
        t = tally(load(split), args.dispute)
        kept, kept_right = t.confident - t.disputed, t.confident_right - t.disputed_right
        print(
            f"{split:6} {t.replaced:8d} {t.wrong_to_right:5d} {t.right_to_wrong:5d} {t.confident:10d} "
            f"{_pct(t.confident_right, t.confident):>12} {t.disputed:9d} {t.disputed_right:6d} "
            f"{_pct(kept_right, kept):>18}  (freeze {commit})"
        )
        total = Tally(
            total.replaced + t.replaced,
            total.wrong_to_right + t.wrong_to_right,
            total.right_to_wrong + t.right_to_wrong,
            total.by_direction + t.by_direction,
            total.confident + t.confident,
            total.confident_right + t.confident_right,
            total.disputed + t.disputed,
            total.disputed_right + t.disputed_right,
        )
    kept, kept_right = total.confident - total.disputed, total.confident_right - total.disputed_right
    print(
        f"{'all':6} {total.replaced:8d} {total.wrong_to_right:5d} {total.right_to_wrong:5d} {total.confident:10d} "
        f"{_pct(total.confident_right, total.confident):>12} {total.disputed:9d} {total.disputed_right:6d} "
        f"{_pct(kept_right, kept):>18}"
    )
    print(f"disputed readings right: {total.disputed_right} of {total.disputed} (threshold {args.dispute})")
    print("replacements by direction (rules -> learned: outcome):")
    for (rules, learned, outcome), n in sorted(total.by_direction.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"  {rules} -> {learned}: {outcome} {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
