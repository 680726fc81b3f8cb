"""How a number a person typed is read, and when it looks like a slip: one place for every way a number comes in —
the request's words, `--set K=V`, an app's parameters, `--sweep K=V1,V2` and a drafted spec.

The rule: a number is written with the digits 0-9 (a sign, a point, an exponent). Python's `int()` and `float()` also
read other scripts' digits ("٣", full-width "３") — a value written so is never read silently as a number: where a
number is expected it is refused, naming the field and the same number in 0-9 to type instead. A whole number
written as a float ("1e9", "3.0") is that whole number where a whole number is expected.

A value far beyond any usual run ("epochs=1e9", "lr 30") is kept as given (a proposal is a proposal: nothing is
changed silently), and the plan says it looks unintended (`implausible`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

# Arabic decimal and thousands separators, the full-width point and comma: part of a number written in those digits
_SEPARATORS = {"\u066b": ".", "\u066c": ",", "\uff0e": ".", "\uff0c": ","}


def other_digits(text: str) -> str | None:
    """``text`` with its digits in 0-9 when it is a number written with other digits ("٣" → "3"), else None."""
    if all(ch.isascii() for ch in text) or not any(ch.isdigit() and not ch.isascii() for ch in text):
        return None
    ascii_form = "".join(
        _SEPARATORS.get(ch) or str(unicodedata.decimal(ch, "")) or ch if not ch.isascii() else ch for ch in text
    ).strip()
    try:
        float(ascii_form.replace(",", ""))
    except ValueError:
        return None
    return ascii_form


def other_digits_hint(text: str, example: str) -> str:
    """What to say of a number written with other digits: ``example`` is how to type it (e.g. "--set epochs=3")."""
    return f"{text!r} is written with digits other than 0-9, which are not read as a number — type {example}"


def read_number(text: str) -> Any:
    """'3' → 3, '1e-3' → 0.001, '1e9' → 1e9; anything else — not a number, not finite ('1e999' stays as typed, so
    an error quotes it, not 'inf'), or written with digits other than 0-9 — stays the text as typed."""
    if other_digits(text) is not None:
        return text
    for conv in (int, float):
        try:
            value = conv(text)
        except ValueError:
            continue
        return value if not isinstance(value, float) or math.isfinite(value) else text
    return text


def whole(value: Any) -> int | None:
    """``value`` as a whole number when it is one (3, 3.0, 1e9), else None (booleans are not numbers here)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


# Beyond these a value is almost surely a slip ("epochs=1e9", "lr 30"): planned as given, never changed, but the plan
# says so. Generous on purpose: a long pretraining run takes ~1e6 steps and a few hundred epochs at most.
PLAUSIBLE_MAX: dict[str, float] = {
    "epochs": 10_000,
    "steps": 100_000_000,
    "lr": 10,
    "batch_size": 1_000_000,
    "gpus": 4096,
}
# The names the same setting goes by in specs, flags and scripts (`--num_train_epochs`, `learning-rate`).
_NAMES = {
    "epochs": ("epochs", "epoch", "num_epochs", "num_train_epochs", "max_epochs", "n_epochs", "train_epochs"),
    "steps": ("steps", "max_steps", "num_steps", "train_steps", "num_train_steps", "total_steps", "training_steps"),
    "lr": ("lr", "learning_rate", "base_lr", "max_lr"),
    "batch_size": ("batch_size", "per_device_train_batch_size", "train_batch_size", "global_batch_size", "bs"),
    "gpus": ("gpus", "gpu", "num_gpus", "n_gpus", "gpus_per_node"),
}
_SETTING = {name: key for key, names in _NAMES.items() for name in names}


def setting_of(name: str) -> str | None:
    """The setting a key or flag names (`--learning-rate` → lr), or None."""
    return _SETTING.get(name.lstrip("-").replace("-", "_").lower())


_WORD = re.compile(r"[\s=:]+")
UNINTENDED = "looks unintended"  # the warning's words, read back by `not_yet_warned`


def implausible(name: str, value: Any, said: str) -> str | None:
    """The plan's warning when ``value`` for the setting ``name`` is far beyond any usual run, else None. ``said`` is
    how the person gave it ("epochs 1e9", "--set epochs=1e9", "--epochs 1000000000 in the drafted spec")."""
    key = setting_of(name)
    if key is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = read_number(value.strip())
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if value < 0:  # no count, rate or size is negative: a slip of the sign, or a range read as one value
        return f"{said} {UNINTENDED} (below zero); it is planned as you said it — check the value before you submit"
    if value <= (most := PLAUSIBLE_MAX[key]):
        return None
    exact = whole(value) if key != "lr" else None
    shown = f"{exact:,}" if exact is not None else f"{value:g}"
    return (
        f"{said}{'' if shown in _WORD.split(said) else f' = {shown}'} {UNINTENDED} (runs rarely go above "
        f"{most:,.0f}); it is planned as you said it — check the value before you submit"
    )


def spec_implausible(spec_text: str) -> list[tuple[str, str]]:
    """(setting, warning) for a spec's own values (default-values, and `--flag value` in task commands and args): what
    an expert wrote, e.g. an LLM's draft, is checked like what a person typed."""
    import yaml

    from runshepherd.spec.raw_tasks import raw_tasks

    try:
        data = yaml.safe_load(spec_text)
    except yaml.YAMLError:
        return []
    if not isinstance(data, dict):
        return []
    out: list[tuple[str, str]] = []
    for key, value in (
        (data.get("default-values") or {}).items() if isinstance(data.get("default-values"), dict) else ()
    ):
        if w := implausible(str(key), value, f"{key}: {value} in default-values"):
            out.append((str(setting_of(str(key))), w))
    for task in raw_tasks(data.get("workflow")):
        if not isinstance(task, dict):
            continue
        words = [str(w) for part in ("command", "args") for w in task.get(part) or [] if w is not None]
        for i, word in enumerate(words):
            flag, eq, inline = word.partition("=")
            if not flag.startswith("--"):
                continue
            value = inline if eq else (words[i + 1] if i + 1 < len(words) else "")
            if w := implausible(flag, value, f"{flag} {value} in task {task.get('name', '?')}"):
                out.append((str(setting_of(flag)), w))
    return list(dict.fromkeys(out))


def not_yet_warned(written: list[tuple[str, str]], notes: list[str]) -> list[str]:
    """The warnings of `spec_implausible` (``written``) for settings no note already warns of: a value the request's
    own reading warned of ("epochs 1e9 … looks unintended") is said once, not again for the spec it was drafted into.
    A request's warning starts with the setting's first word (`implausible`'s ``said``: "epochs", "batch size")."""
    said = {n.split(" ", 1)[0] for n in notes if UNINTENDED in n}
    return list(dict.fromkeys(w for key, w in written if key.split("_")[0] not in said))
