"""A small learned second opinion for when the rules are unsure (issue 14, item 4).

A linear model over normalised tokens of the same extraction the rules and the LLM path read (error block, events,
failure message, exit codes, status, exception types and modules, the rules' candidate families). It is trained on
the real corpus' dev split by ``scripts/train_diagnosis_fallback.py`` and shipped as ``fallback_model.json``; scoring
is pure Python (a dict lookup per feature), deterministic and offline.

It speaks only when the rules are unsure — an ``unknown`` verdict, or a failure verdict below the model file's
``rule_confidence_below`` — and only with a failure label: it never produces ``healthy`` and never touches a healthy
verdict. Its verdict says it is a model guess, carries a modest confidence (below 0.8, so the calibration of
confident verdicts is the rules' alone) and quotes verbatim log lines as evidence.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from runshepherd.diagnosis.errorblock import exception_type, strip_prefix
from runshepherd.diagnosis.models import Diagnosis, Fix
from runshepherd.diagnosis.rules import FAMILIES, Context

MODEL_PATH = Path(__file__).with_name("fallback_model.json")
# the sha256 of the shipped file, as ``scripts/train_diagnosis_fallback.py`` wrote it (a retrain updates both)
MODEL_SHA256 = "081f3702c0adb34cc0be923502fd2099d43891338266ab25ae1b64c48f458bfa"
GUESS_PREFIX = "Model guess"  # how a fallback verdict's explanation starts (and how it is recognised)
MAX_CONFIDENCE = 0.6  # a model guess never reaches the 0.8 band whose calibration the issue bars
READ_FIRST = "This is a model guess: read the full log around the quoted lines before acting on it."
NOT_GUESSES = ("healthy", "unknown")
_enabled: bool | None = None  # None: what the model file says (``enabled``)

# plain words for families whose own text is built from the matched line (a guess has no matched line)
_PLAIN = {
    "file_not_found": "A file or directory the task needs was not found.",
    "missing_dependency": "A package, library or command the program needs is missing or has the wrong version.",
}
_PLAIN_FIX = {"missing_dependency": "Install or pin the missing package in the image or in an install step."}

_HEX = re.compile(r"\b0x[0-9a-f]+\b|\b[0-9a-f]{8,}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f-]{14,}\b", re.IGNORECASE)
_DIRS = re.compile(r"(?:[\w.~+-]*/)+")  # directory part of a path or URL: only the last component carries over
_WORD = re.compile(r"[a-z][a-z_]+")
_MODULE = re.compile(r"^[a-z_][\w]*(?:\.[a-z_][\w]*)*$")


_model_override: dict[str, Any] | None = None


@contextmanager
def fallback_enabled(on: bool, model: dict[str, Any] | None = None) -> Iterator[None]:
    """Force the fallback on or off inside this block (training, cross-validation, tests), optionally with another
    model than the shipped one."""
    global _enabled, _model_override
    before = _enabled, _model_override
    _enabled, _model_override = on, model
    try:
        yield
    finally:
        _enabled, _model_override = before


def is_enabled() -> bool:
    if _enabled is not None:
        return _enabled
    model = load_model()
    return bool(model and model.get("enabled"))


# ------------------------------------------------------------------------------------------------ features
def _words(text: str) -> list[str]:
    text = _DIRS.sub(" ", _HEX.sub(" ", strip_prefix(text).lower()))
    return _WORD.findall(text)


def line_features(text: str) -> list[str]:
    """Tokens of one line: words (numbers, hex, ids and directories dropped), adjacent pairs, exception type."""
    words = _words(text)
    feats = [f"w:{w}" for w in words]
    feats += [f"b:{a}_{b}" for a, b in zip(words, words[1:], strict=False)]
    exc = exception_type(strip_prefix(text))
    if exc is not None:
        typ = exc[0]
        feats.append(f"exc:{typ.rsplit('.', 1)[-1].lower()}")
        if "." in typ and _MODULE.match(typ.rsplit(".", 1)[0].lower()):
            feats.append(f"excmod:{typ.split('.', 1)[0].lower()}")
    return feats


@dataclass
class Extracted:
    features: list[str]
    lines: list[str]  # the verbatim log lines the features came from (evidence is quoted from these)


def extract_features(ctx: Context) -> Extracted:
    """Features of one context, read through the extraction the LLM path is shown (``extract.extract_context``)."""
    from runshepherd.diagnosis.extract import extract_context  # extract imports the engine, which imports us

    x = extract_context(ctx)
    feats: list[str] = []
    if x.status:
        feats.append(f"status:{x.status.lower()}")
    codes = set(x.exit_codes_in_log) | ({x.exit_code} if x.exit_code else set())
    feats += [f"exit:{c}" for c in sorted(codes)]
    feats += [f"cand:{c.label}" for c in x.candidates]
    if not x.candidates:
        feats.append("cand:none")
    if x.unexplained:
        feats.append("unexplained")
    lines = [x.failure_message] if x.failure_message else []
    lines += [*x.events, *x.error_block]
    for ln in lines:
        feats += line_features(ln)
    return Extracted(sorted(set(feats)), [ln for ln in x.error_block if ln.strip()])


# ------------------------------------------------------------------------------------------------ the model
@lru_cache(maxsize=4)
def _load(path: str) -> dict[str, Any] | None:
    p = Path(path)
    if not p.is_file():
        return None
    return json.loads(p.read_text(encoding="utf-8"))


def load_model(path: Path = MODEL_PATH) -> dict[str, Any] | None:
    """The shipped model (labels, bias, weights per feature, thresholds), or None when the file is absent."""
    if _model_override is not None and path == MODEL_PATH:
        return _model_override
    return _load(str(path))


def probabilities(model: dict[str, Any], features: list[str]) -> dict[str, float]:
    """Softmax over the labels of the linear score: bias + the weights of the features present, divided by the square
    root of the number of features (a long error block does not shout louder than a short one)."""
    labels: list[str] = model["labels"]
    weights: dict[str, list[float]] = model["weights"]
    total = [0.0] * len(labels)
    for f in set(features):
        w = weights.get(f)
        if w is not None:
            total = [t + wi for t, wi in zip(total, w, strict=True)]
    scale = 1.0 / math.sqrt(len(set(features))) if features else 0.0
    scores = [b + scale * t for b, t in zip(model["bias"], total, strict=True)]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    z = sum(exps)
    return {lab: e / z for lab, e in zip(labels, exps, strict=True)}


def guess(model: dict[str, Any], features: list[str]) -> tuple[str, float]:
    """The most likely failure family and the model's probability of it (``healthy`` is never a guess: healthy needs
    positive evidence, which is the rules' job; but its probability mass counts, so a log that reads as routine
    gives a weak guess)."""
    probs = {lab: p for lab, p in probabilities(model, features).items() if lab not in NOT_GUESSES}
    return max(probs.items(), key=lambda kv: (kv[1], kv[0]))


def _evidence(model: dict[str, Any], label: str, lines: list[str], limit: int = 2) -> list[str]:
    """The verbatim lines whose own features push hardest towards ``label``."""
    k = model["labels"].index(label)
    weights: dict[str, list[float]] = model["weights"]
    scored = []
    for i, ln in enumerate(lines):
        s = sum(weights[f][k] for f in set(line_features(ln)) if f in weights)
        if s > 0:
            scored.append((-s, i, ln))
    return [ln.rstrip() for _, _, ln in sorted(scored)[:limit]]


def is_model_guess(d: Diagnosis) -> bool:
    """Whether a verdict is the fallback's guess rather than the rules' finding (the session does not spend an
    unchanged resubmission on a guess)."""
    return d.explanation.startswith(GUESS_PREFIX)


def unsure(d: Diagnosis, threshold: float) -> bool:
    """The rules are unsure: they found no family (``unknown``), or a failure family with low confidence."""
    return d.label == "unknown" or (d.label != "healthy" and d.confidence < threshold)


def second_opinion(ctx: Context, d: Diagnosis, *, failed: bool | None, allowed: set[str] | None = None) -> Diagnosis:
    """The rules' verdict, or the model's guess when the rules are unsure and the model is sure enough."""
    if failed is False or d.label == "healthy" or not is_enabled():
        return d
    model = load_model()
    if model is None or not unsure(d, model["rule_confidence_below"]):
        return d
    x = extract_features(ctx)
    label, p = guess(model, x.features)
    if p < model["min_probability"] or label == d.label:
        return d
    if allowed is not None and label not in allowed:
        return d
    evidence = _evidence(model, label, x.lines)
    if not evidence:
        return d
    # the line the rules quoted (an error no family explains) stays first: the guess adds to it, never hides it
    evidence = list(dict.fromkeys([*d.evidence[:2], *evidence]))[:3]
    fam = FAMILIES[label]
    expl = fam.explanation if isinstance(fam.explanation, str) else _PLAIN.get(label, "")
    fix = fam.fix_description if isinstance(fam.fix_description, str) else _PLAIN_FIX.get(label)
    rules_said = (
        "the rules found no failure family that explains the log"
        if d.label == "unknown"
        else f"the rules leaned to {d.label} with low confidence ({d.confidence:.2f})"
    )
    return d.model_copy(
        update={
            "label": label,
            "origin": fam.origin,
            "confidence": round(min(MAX_CONFIDENCE, p), 3),
            "evidence": evidence,
            "explanation": (
                f"{GUESS_PREFIX} ({p:.0%} likely): {rules_said}; a model trained on real failure "
                f"logs reads it as {label}" + (f". If so: {expl[0].lower()}{expl[1:]}" if expl else ".")
            ),
            "fix": Fix(
                kind=fam.fix_kind,
                description=f"{READ_FIRST} If it holds: {fix[0].lower()}{fix[1:]}" if fix else READ_FIRST,
            ),
            "what_would_confirm": fam.what_would_confirm,
        }
    )
