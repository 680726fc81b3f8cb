"""A linear model over the error lines' words, learned from labelled real logs: it disputes confident rule readings.

A multinomial logistic regression trained on the labelled real logs of the dev corpus (``benchmarks/train_learned.py``)
reads the regions an expert is given: the root error line, its exception type, the window around it, the first
error-looking lines and the log's last lines. It never names a label: where the rules are confident and the model
gives their label almost no chance while reading another failure family, the verdict's confidence drops to the
measured share of such disputed readings that were right (``dispute``).

Until stop 64 the model also replaced the rules' unsure readings (an "unknown", a bare exception's code error below
0.8) with its own label. On the fresh verdicts of blind v32-v39 (1,319 logs, each read by the model trained without
it) that turned 27 wrong labels right and 24 right ones wrong, and it cost the synthetic corpora 2.2 and 0.7 points;
the issue's rule (keep it only if it lifts the blind split) removed it. ``benchmarks/blind_heldout.py`` keeps the
recount.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from runshepherd.diagnosis.errorblock import ErrorBlock, exception_type
from runshepherd.diagnosis.models import Diagnosis
from runshepherd.diagnosis.rules.base import Context

MODEL_FILE = "learned_model.json.gz"
UNSURE = 0.8  # a rule reading at or above this confidence is confident: the only kind the model may dispute
NEVER = frozenset({"healthy", "unknown"})  # the model's readings that never dispute, and the labels never disputed
# A confident reading of the rules (>= UNSURE) that the model gives less than DISPUTE, while itself reading another
# failure family, is disputed: its confidence drops to DISPUTED, the measured share right. Chosen on the fresh
# verdicts of blind splits v32-v35 (710 logs), each read by the model shipped at its freeze (trained without it): 18
# confident readings were disputed, 5 of them right; calibration of the rest rose from 88.7% (307/346) to 92.1%
# (302/328), and on v35 alone it stayed at 81%. Its first estimate, blind v36: 2 disputed, both right; v37, v38:
# none; v39: 2, neither right; v40: 2, both right; v41: 3, all right; v42: 3, all right. Over v32-v42, 15 of 30
# disputed readings were right, hence 0.5
# (benchmarks/blind_heldout.py recounts it). Families a scheduler states in its own words (a job state, an event, a
# limit) are not disputed: the model reads error-line words, and the rules read those statements by form.
DISPUTE = 0.2
DISPUTED = 0.5
STATED = frozenset({"timeout", "preempted", "unschedulable", "image_pull"})

_WORD = re.compile(r"[A-Za-z_][A-Za-z_]+")
_CHARS = 400  # of a line, read
_WORDS = 60  # of a line, kept


def _words(text: str, region: str) -> list[str]:
    """A line's words and word pairs, lower-cased, tagged by where the line sits."""
    ws = [w.lower() for w in _WORD.findall(text[:_CHARS])][:_WORDS]
    return [f"{region}:{w}" for w in ws] + [f"{region}:{a}_{b}" for a, b in zip(ws, ws[1:], strict=False)]


def tokens(log: ErrorBlock) -> list[str]:
    """What the model reads of a log: the same regions the extraction gives an expert."""
    out: list[str] = []
    root = log.root_line()
    if root is None:
        out.append("R:none")
    else:
        out += _words(root.text, "R")
        exc = exception_type(root.text)
        if exc is not None:
            out.append(f"X:{exc[0].lower()}")
    for ln in log.window(20, 10):
        out += _words(ln.text, "W")
    for _, ln in zip(range(5), log.errors, strict=False):
        out += _words(ln.text, "E")
    for ln in log.lines[-5:]:
        out += _words(ln.text, "L")
    return out


@dataclass(frozen=True)
class Model:
    labels: tuple[str, ...]
    rows: dict[str, tuple[float, ...]]  # a word's weight for each label
    intercepts: tuple[float, ...]
    trained_on: dict[str, Any]

    def probabilities(self, toks: list[str]) -> list[float]:
        z = list(self.intercepts)
        for t in set(toks):
            row = self.rows.get(t)
            if row is not None:
                z = [a + b for a, b in zip(z, row, strict=True)]
        top = max(z)
        e = [math.exp(v - top) for v in z]
        total = sum(e)
        return [v / total for v in e]

    def read(self, toks: list[str]) -> tuple[str, float]:
        return self.top(self.probabilities(toks))

    def top(self, p: list[float]) -> tuple[str, float]:
        """The likeliest label of probabilities ``p`` and its probability."""
        i = max(range(len(p)), key=p.__getitem__)
        return self.labels[i], p[i]


def model_from_json(doc: dict[str, Any]) -> Model:
    n = len(doc["labels"])
    w = doc["weights"]
    return Model(
        labels=tuple(doc["labels"]),
        rows={t: tuple(w[i * n : (i + 1) * n]) for i, t in enumerate(doc["vocabulary"])},
        intercepts=tuple(doc["intercepts"]),
        trained_on=doc["trained_on"],
    )


@cache
def shipped_model() -> Model:
    """The model shipped with the package, read once per process (and only when the rules are confident)."""
    raw = resources.files("runshepherd.diagnosis").joinpath(MODEL_FILE).read_bytes()
    return model_from_json(json.loads(gzip.decompress(raw)))


def dispute(ctx: Context, rules: Diagnosis, model: Model | None = None) -> Diagnosis:
    """The rules' confident verdict, its confidence lowered to ``DISPUTED`` when the model gives its label less than
    ``DISPUTE`` and reads another failure family: on logs nobody tuned on, such readings were right about two times in
    five, so they must not count as confident. The label stays the rules'; the explanation says what the model read."""
    if rules.label in NEVER | STATED or rules.confidence < UNSURE:
        return rules
    m = model or shipped_model()
    if rules.label not in m.labels:
        return rules
    probs = m.probabilities(tokens(ctx.log))
    top, p_top = m.top(probs)
    mine = probs[m.labels.index(rules.label)]
    if top in NEVER or mine >= DISPUTE:
        return rules
    said = (
        f" A model learned from labelled real logs disputes this reading (it reads the error lines as "
        f"{top}, p={p_top:.2f}, and this family at p={mine:.2f}); confident readings it disputed were "
        f"right {DISPUTED:.0%} of the time on logs it never saw, so the confidence is {DISPUTED:.2f}."
    )
    return rules.model_copy(update={"confidence": DISPUTED, "explanation": rules.explanation + said})
