"""Train the learned model (runshepherd/diagnosis/learned.py) on the real corpus's dev split, or check it is current.

    python benchmarks/train_learned.py            # needs scikit-learn: pip install -e .[train]
    python benchmarks/train_learned.py --check    # no scikit-learn: is the shipped model trained on today's dev split?

A multinomial logistic regression (L2, C=0.1, lbfgs: deterministic for the same data) over the words of each log's
extraction (``learned.tokens``), words seen in at least 10 dev logs. The choice of C and the vocabulary floor
was made by leaving each of the blind splits v20-v30 out in turn (their fresh verdicts) and is recorded in
docs/architecture.md. The model file records what it was trained on; ``--check`` fails when the dev split
changed since (a blind split retired into it), so a stale model cannot ship unnoticed.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_diagnosis import REAL, Case, load_real  # noqa: E402

from runshepherd.diagnosis.engine import log_context  # noqa: E402
from runshepherd.diagnosis.learned import MODEL_FILE, tokens  # noqa: E402

C = 0.1
MIN_DF = 10
OUT = Path(__file__).resolve().parents[1] / "runshepherd" / "diagnosis" / MODEL_FILE


def digest(cases: list[Case]) -> str:
    """What the model depends on: each dev case's name, label and log bytes."""
    h = hashlib.sha256()
    for c in sorted(cases, key=lambda c: c.name):
        h.update(f"{c.name}\0{c.label}\0".encode())
        h.update(hashlib.sha256(c.path.read_bytes()).digest())
    return h.hexdigest()


def case_tokens(c: Case) -> list[str]:
    """The tokens of a log as ``orchestrate diagnose --log`` builds its context (engine.diagnose_log_text)."""
    return tokens(log_context(c.path.read_text(encoding="utf-8", errors="replace")).log)


def train(cases: list[Case]) -> dict[str, object]:
    try:
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.linear_model import LogisticRegression
    except ImportError:
        sys.exit("training needs scikit-learn: pip install -e '.[train]'")
    docs = [set(case_tokens(c)) for c in cases]
    df = Counter(t for d in docs for t in d)
    keep = {t for t, n in df.items() if n >= MIN_DF}
    vec = DictVectorizer(sort=True)
    x = vec.fit_transform([{t: 1.0 for t in d if t in keep} for d in docs])
    y = [c.label for c in cases]
    model = LogisticRegression(C=C, max_iter=3000)
    model.fit(x, y)
    w = model.coef_.T  # (features, labels)
    return {
        "labels": [str(label) for label in model.classes_],
        "vocabulary": list(vec.feature_names_),
        "weights": [round(float(v), 4) for v in w.ravel()],
        "intercepts": [round(float(v), 4) for v in model.intercept_],
        "trained_on": {"cases": len(cases), "digest": digest(cases), "C": C, "min_df": MIN_DF},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail when the shipped model predates the dev split")
    args = ap.parse_args(argv)
    cases = load_real("dev", REAL)
    if args.check:
        shipped = json.loads(gzip.decompress(OUT.read_bytes()))["trained_on"]
        if shipped["digest"] != digest(cases):
            print(
                f"{OUT.name} was trained on {shipped['cases']} dev cases that are not today's {len(cases)}: "
                "retrain with `python benchmarks/train_learned.py` (pip install -e '.[train]')"
            )
            return 1
        print(f"{OUT.name} is current ({len(cases)} dev cases)")
        return 0
    doc = train(cases)
    OUT.write_bytes(gzip.compress(json.dumps(doc, separators=(",", ":")).encode(), mtime=0))
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes; {len(doc['vocabulary']):,} words, {len(cases)} cases)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
