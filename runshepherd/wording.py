"""Small words printed everywhere: "1 GPU", "2 GPUs", "512Mi" (never "1 GPUs", never "memory: 0Gi")."""

from __future__ import annotations

import math
import re

_IRREGULAR = {"GiB of memory": "GiB of memory", "memory": "memory"}


def count(n: float, noun: str) -> str:
    """``n`` and the noun in the right number: count(1, "GPU") == "1 GPU", count(2.5, "CPU") == "2.5 CPUs"."""
    shown = f"{n:g}" if isinstance(n, float) else str(n)
    if noun in _IRREGULAR or n == 1:
        return f"{shown} {noun}"
    return f"{shown} {noun}es" if noun.endswith(("s", "sh", "ch", "x")) else f"{shown} {noun}s"


def known(value: object) -> str:
    """A value a backend reported, or "unknown" when it reported none (never "None")."""
    return "unknown" if value is None else str(value)


def amount(n: float) -> str:
    """A resource amount as written, never in exponent notation: 128 → "128", 0.5 → "0.5", 1e6 → "1000000",
    1.53 → "1.53" (at most two decimals, or two significant digits below 1: 0.0098)."""
    if n and abs(n) < 1:
        return f"{n:.2g}"
    return f"{n:.2f}".rstrip("0").rstrip(".")


def memory(gi: float) -> str:
    """A memory request a spec accepts, rounded down so it still fits: whole Gi, else Mi (at least 1Mi)."""
    if gi >= 1:
        return f"{math.floor(gi)}Gi"
    return f"{max(1, math.floor(gi * 1024))}Mi"


# A fix's description is the bare action ("Lower …", "Install …"): the framings below add the tense, so the same
# words read as a proposal before the fix runs and as what was done after. One table, so every fix kind reads the
# same once it was applied.
_DONE = {
    "add": "Added",
    "ask": "Asked",
    "change": "Changed",
    "double": "Doubled",
    "drop": "Dropped",
    "halve": "Halved",
    "increase": "Increased",
    "install": "Installed",
    "lower": "Lowered",
    "raise": "Raised",
    "reduce": "Reduced",
    "remove": "Removed",
    "replace": "Replaced",
    "resize": "Resized",
    "set": "Set",
    "size": "Sized",
    "use": "Used",
}
_ALTERNATIVE = (" (not applied automatically", "; or ", " — or ")


def applied(text: str) -> str:
    """A fix's action as what was done: 'Lower the learning rate ×0.1 (lr 1.0 → 0.1)' → 'Lowered the learning
    rate ×0.1 (lr 1.0 → 0.1)'; 'Install X …; or bake it into the image.' → 'Installed X …' (the alternatives not
    taken are dropped). A text with no verb we know (a model's own words) reads 'Applied: …'."""
    body = text.strip()
    if body.startswith("Applied") or body.split(" ", 1)[0] in _DONE.values():
        return body  # already told as done (a fix history kept by an older version)
    for cut in _ALTERNATIVE:
        if cut in body:
            body = body.split(cut, 1)[0].rstrip(" ;,") + "."
    verb, _, rest = body.partition(" ")
    if verb.lower() in _DONE:
        return f"{_DONE[verb.lower()]} {rest}".rstrip()
    return f"Applied: {body}" if body else "Applied a fix."


def proposed(text: str) -> str:
    """A fix not yet applied, told as a proposal with one closing period: 'Lower the learning rate ×0.1
    (--lr 1.0 → 0.1).' → 'Proposed: lower the learning rate ×0.1 (--lr 1.0 → 0.1).'. A model's own words keep
    their wording behind 'Proposed: '."""
    body = text.strip().rstrip(" .")
    if not body:
        return "Proposed: no change."
    if body.startswith("Proposed:"):
        return body + "."
    verb, _, rest = body.partition(" ")
    if verb.lower() in _DONE:
        body = f"{verb.lower()} {rest}".rstrip()
    return f"Proposed: {body}."


def sentence_start(text: str) -> str:
    """``text`` with a capital first letter when its first word is a plain lowercase word ("train a model" →
    "Train a model"); a path, file name, command or identifier keeps its case ("train.py for 2 epochs", "python
    train.py", "bert-base on imdb", "eval_v2 …"), and nothing after the first letter ever changes case."""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    plain = re.fullmatch(r"[a-z]+[,;:]?", first) and first.rstrip(",;:") not in _COMMANDS
    return text[0].upper() + text[1:] if plain else text


_COMMANDS = {"python", "python3", "bash", "sh", "torchrun", "accelerate", "deepspeed", "srun", "sbatch", "osmo"}


_CLOSED = re.compile(r"[.!?…][)\"'`»]*$")


def sentences(parts: list[str], *, close: bool = False) -> str:
    """Parts joined as sentences with exactly one period between them: a part that already ends a sentence
    ("… the exact change.)", "… stopped.") gets no second one ("…change.). risk" was printed). Empty parts are
    left out; ``close`` ends the last part with a period too."""
    kept = [p.strip() for p in parts if p and p.strip()]
    out = [p if _CLOSED.search(p) or (i == len(kept) - 1 and not close) else p + "." for i, p in enumerate(kept)]
    return " ".join(out)
