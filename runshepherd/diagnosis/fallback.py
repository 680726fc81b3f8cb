"""A small learned second opinion for logs the rules cannot name (issue 14, item 4).

A linear model (sparse multinomial logistic regression) over normalised tokens of the same extraction the rules and
the LLM path read: the error block, the first unexplained error line, exception types and their modules, exit codes
and signals, the scheduler status, the rules' candidate families. Words and word pairs are lowercased with numbers,
paths, hex and ids dropped, so "memory", "allocate", "Killed" or "No such file" count whatever the wording around
them. ``scripts/train_diagnosis_fallback.py`` fits it on the real corpus' TRAIN parts and writes
``fallback_model.json``; scoring here is pure Python (a dict lookup per feature), deterministic and offline.

It speaks only when the rules are unsure (``unknown``, or a failure verdict below the model file's
``rule_confidence_below`` when cross-validation chose one), never says ``healthy`` and never touches a healthy
verdict, and only when its probability reaches the file's ``min_probability``. Its verdict says it is a model's guess,
has a confidence below 0.8 (the calibration of confident verdicts stays the rules'), quotes verbatim log lines, and
takes its fix from the family's own fixer.

Whether it is on: the model file's ``enabled`` (what cross-validation decided), overridden by the setting
``diagnosis.fallback`` (config file, or ``RUNSHEPHERD_DIAGNOSIS__FALLBACK=on|off`` in the environment, which is also
read directly where no settings are loaded).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from runshepherd.diagnosis.errorblock import exception_type, strip_prefix
from runshepherd.diagnosis.models import Diagnosis, Fix
from runshepherd.diagnosis.rules import FAMILIES, Context, Signal, fix_for

MODEL_PATH = Path(__file__).with_name("fallback_model.json")
# the sha256 of the shipped file, as ``scripts/train_diagnosis_fallback.py`` wrote it (a retrain updates both)
MODEL_SHA256 = "38248a6b76325ee9de29f3d1373b8be19faeaf22becc80ce410bc5a4875f0446"
ENV = "RUNSHEPHERD_DIAGNOSIS__FALLBACK"  # the setting ``diagnosis.fallback`` (config.py), as an environment variable
GUESS_MARK = "a model trained on"  # every fallback explanation says this (and is recognised by it)
MAX_CONFIDENCE = 0.6  # a model guess never reaches the 0.8 band whose calibration the issue bars
NOT_GUESSES = ("healthy", "unknown")

# plain words for families whose own text is built from the matched line (a guess has no matched line)
_PLAIN = {
    "file_not_found": "A file or directory the task needs was not found.",
    "missing_dependency": "A package, library or command the program needs is missing or has the wrong version.",
}
_PLAIN_FIX = {"missing_dependency": "Install or pin the missing package in the image or in an install step."}

_forced: bool | None = None
_configured: bool | None = None
_model_override: dict[str, Any] | None = None

_HEX = re.compile(r"\b0x[0-9a-f]+\b|\b[0-9a-f]{8,}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f-]{14,}\b", re.IGNORECASE)
_DIRS = re.compile(r"(?:[\w.~+-]*/)+")  # directory part of a path or URL: only the last component carries over
_WORD = re.compile(r"[a-z][a-z_]+")
_MODULE = re.compile(r"^[a-z_]\w*(?:\.[a-z_]\w*)*$")


@contextmanager
def fallback_enabled(on: bool, model: dict[str, Any] | None = None) -> Iterator[None]:
    """Force the fallback on or off inside this block (training, cross-validation, tests), optionally with another
    model than the shipped one."""
    global _forced, _model_override
    before = _forced, _model_override
    _forced, _model_override = on, model
    try:
        yield
    finally:
        _forced, _model_override = before


def configure(on: bool | None) -> None:
    """Apply the setting ``diagnosis.fallback`` (the CLI does, once its settings are loaded); None: the file decides."""
    global _configured
    _configured = on


def is_enabled() -> bool:
    """On or off: forced by ``fallback_enabled``, else the setting, else the shipped file's decision."""
    if _forced is not None:
        return _forced
    if _configured is not None:
        return _configured
    env = os.environ.get(ENV, "").strip().lower()
    if env in ("on", "1", "yes", "true"):
        return True
    if env in ("off", "0", "no", "false"):
        return False
    model = load_model()
    return bool(model and model.get("enabled"))


# ------------------------------------------------------------------------------------------------ features
def _words(text: str) -> list[str]:
    return _WORD.findall(_DIRS.sub(" ", _HEX.sub(" ", strip_prefix(text).lower())))


def line_features(text: str) -> list[str]:
    """Tokens of one line: words (numbers, hex, ids and directories dropped), adjacent pairs, the exception type
    (whole) and its top module."""
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
    feats += [f"signal:{c - 128}" for c in sorted(codes) if 128 < c < 160]
    feats += [f"signal:{-c}" for c in sorted(codes) if -32 < c < 0]
    feats += [f"cand:{c.label}" for c in x.candidates]
    if not x.candidates:
        feats.append("cand:none")
    if x.unexplained:
        feats += [f"u:{w}" for w in _words(x.unexplained)]
    lines = [x.failure_message] if x.failure_message else []
    lines += [*x.events, *x.error_block]
    for ln in lines:
        feats += line_features(ln)
    return Extracted(sorted(set(feats)), [ln for ln in [*x.events, *x.error_block] if ln.strip()])


# ------------------------------------------------------------------------------------------------ the model
@lru_cache(maxsize=4)
def _load(path: str) -> dict[str, Any] | None:
    p = Path(path)
    if not p.is_file():
        return None
    model: dict[str, Any] = json.loads(p.read_text(encoding="utf-8"))
    return model


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
    uniq = set(features)
    for f in sorted(uniq):  # a fixed order: float sums must not depend on the process's string hash seed
        w = weights.get(f)
        if w is not None:
            total = [t + wi for t, wi in zip(total, w, strict=True)]
    scale = 1.0 / math.sqrt(len(uniq)) if uniq else 0.0
    scores = [b + scale * t for b, t in zip(model["bias"], total, strict=True)]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    z = sum(exps)
    return {lab: e / z for lab, e in zip(labels, exps, strict=True)}


def guess(model: dict[str, Any], features: list[str]) -> tuple[str, float]:
    """The most likely failure family and its probability. ``healthy`` is never a guess (healthy needs positive
    evidence, the rules' job), but its probability mass counts: a log that reads as routine gives a weak guess."""
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


def guess_fix(ctx: Context, label: str, lines: list[str]) -> tuple[str, str]:
    """The fix the family's own fixer gives for this log, read from the extraction's verbatim lines (what the
    training script's cross-validation scores too)."""
    fam = FAMILIES[label]
    words = fam.fix_description if isinstance(fam.fix_description, str) else _PLAIN_FIX.get(label, "")
    expl = fam.explanation if isinstance(fam.explanation, str) else _PLAIN.get(label, "")
    kind, text = fix_for(ctx, Signal(fam.label, fam.origin, 0.5, 0, list(lines), expl, fam.fix_kind, words))
    return kind, text


def is_model_guess(d: Diagnosis) -> bool:
    """Whether a verdict is the fallback's guess rather than the rules' finding (the session does not spend an
    unchanged resubmission on a guess)."""
    return GUESS_MARK in d.explanation and d.explanation.startswith(("No rule matched", "The rules leaned"))


def unsure(d: Diagnosis, threshold: float) -> bool:
    """The rules are unsure: they found no family (``unknown``), or a failure family with low confidence."""
    return d.label == "unknown" or (d.label != "healthy" and d.confidence < threshold)


def second_opinion(ctx: Context, d: Diagnosis, *, failed: bool | None, allowed: set[str] | None = None) -> Diagnosis:
    """The rules' verdict, or the model's guess when the rules are unsure and the model is sure enough."""
    if failed is False or d.label == "healthy" or not is_enabled():
        return d
    model = load_model()
    if model is None or not unsure(d, float(model["rule_confidence_below"])):
        return d
    x = extract_features(ctx)
    label, p = guess(model, x.features)
    if p < float(model["min_probability"]) or label == d.label or (allowed is not None and label not in allowed):
        return d
    found = _evidence(model, label, x.lines)
    if not found:
        return d
    # the line the rules quoted (an error no family explains) stays first: the guess adds to it, never hides it
    evidence = list(dict.fromkeys([*d.evidence[:2], *found]))[:3]
    fam = FAMILIES[label]
    expl = fam.explanation if isinstance(fam.explanation, str) else _PLAIN.get(label, "")
    fix_kind, fix_words = guess_fix(ctx, label, x.lines)
    n = int(model["trained_on"]["cases"])
    said = (
        "No rule matched"
        if d.label == "unknown"
        else f"The rules leaned to {d.label} with low confidence ({d.confidence:.2f})"
    )
    return d.model_copy(
        update={
            "label": label,
            "origin": fam.origin,
            "confidence": round(min(MAX_CONFIDENCE, p), 3),
            "evidence": evidence,
            "explanation": (
                f"{said}; {GUESS_MARK} {n} real logs reads this as {label} (p={p:.2f})"
                + (f". If so: {expl[0].lower()}{expl[1:]}" if expl else ".")
            ),
            "fix": Fix(
                kind=fix_kind,
                description=(
                    "Read the full log around the quoted lines first (this is a model's guess); if it holds: "
                    + (f"{fix_words[0].lower()}{fix_words[1:]}" if fix_words else "fix what they show.")
                ),
            ),
            "what_would_confirm": fam.what_would_confirm,
        }
    )
