"""The learned fallback (issue 14 item 4): it speaks only when the rules are unsure, never over a healthy verdict, says
it is a model's guess, quotes verbatim lines, stays below the confident band, and gives the same answer every time."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.fallback import (
    MAX_CONFIDENCE,
    MODEL_PATH,
    MODEL_SHA256,
    extract_features,
    fallback_enabled,
    guess,
    guess_fix,
    is_enabled,
    is_model_guess,
    line_features,
    load_model,
)
from runshepherd.diagnosis.rules import FAMILIES, Context

UNEXPLAINED = """\
step 10 loss 2.31
step 20 loss 2.12
ERROR worker 3: frobnicator wobbled past its gimbal limit; the quux manifold gave up
job failed
"""
CONFIDENT_OOM = """\
Traceback (most recent call last):
  File "train.py", line 10, in <module>
    loss.backward()
torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity)
"""
FINISHED = """\
epoch 3/3 loss 0.41
Training completed. Saved model to /out/model.bin
"""


def _sure_model(label: str = "gpu_oom") -> dict[str, Any]:
    """A model that reads the wobbling frobnicator (and any completion line) as ``label``, very surely."""
    labels = sorted({label, "healthy", "host_oom"})
    k = labels.index(label)
    heavy = [0.0] * len(labels)
    heavy[k] = 40.0
    return {
        "version": 2,
        "enabled": True,
        "trained_on": {"cases": 789},
        "rule_confidence_below": 0.7,
        "min_probability": 0.5,
        "labels": labels,
        "bias": [0.0] * len(labels),
        "weights": {"w:frobnicator": heavy, "w:completed": heavy, "w:loss": heavy},
    }


def test_shipped_model_loads_is_small_and_names_only_known_families() -> None:
    model = load_model()
    assert model is not None
    assert model["version"] == 2
    assert "healthy" in model["labels"] and "unknown" not in model["labels"]
    assert set(model["labels"]) <= set(FAMILIES) | {"healthy"}
    assert all(len(w) == len(model["labels"]) for w in model["weights"].values())
    assert 0.0 <= model["rule_confidence_below"] <= 0.8 and 0.0 <= model["min_probability"] <= 1.0
    assert model["trained_on"]["cases"] >= 700 and len(model["trained_on"]["features_sha256"]) == 64
    assert MODEL_PATH.stat().st_size < 200_000
    # written by the training script's serialisation (sorted keys, compact), so a retrain diffs cleanly
    assert MODEL_PATH.read_text() == json.dumps(model, sort_keys=True, separators=(",", ":")) + "\n"
    # the documented version of the file (scripts/train_diagnosis_fallback.py --check says whether it is current)
    assert hashlib.sha256(MODEL_PATH.read_bytes()).hexdigest() == MODEL_SHA256


def _trainer() -> object:
    path = Path(__file__).resolve().parents[3] / "scripts" / "train_diagnosis_fallback.py"
    spec = importlib.util.spec_from_file_location("train_diagnosis_fallback", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up while being defined
    spec.loader.exec_module(mod)
    return mod


def test_training_reads_only_the_train_parts() -> None:
    t: Any = _trainer()
    names = [p.name for p in t.train_parts()]
    assert names == [f"part-{p}.jsonl" for p in "abfghijklmn"]  # never validation (c, d, e) or blind (o, p, q)


def test_training_is_deterministic_and_parts_never_straddle_folds() -> None:
    t: Any = _trainer()
    logs = {
        "gpu_oom": "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB",
        "host_oom": "slurmstepd: error: Detected 1 oom_kill event in StepId=123.batch. Killed by the cgroup",
        "healthy": "epoch 2 loss 0.3\nTraining completed in 812 s",
    }

    def feats(text: str) -> list[str]:
        return sorted({f for ln in text.splitlines() for f in line_features(ln)})

    cases = [  # each case also names its own user ("user qa", "user qb", …): an id only one repository shows
        t.Case(
            f"{'ab'[i % 2]}-{i}",
            "ab"[i % 2],
            f"repo{i % 4}/r",
            lab,
            "none",
            feats(f"{text} user q{chr(97 + i)}"),
            "unknown",
            "none",
            0.3,
            [feats(text)],
            {},
        )
        for i, (lab, text) in enumerate(list(logs.items()) * 4)
    ]
    first, second = t.dumps(t.train(cases)), t.dumps(t.train(list(cases)))
    assert first == second
    model = json.loads(first)
    assert "w:allocate" in model["weights"]
    assert not any(f.startswith("w:q") or "_q" in f for f in model["weights"])  # ids fall below MIN_GROUPS
    assert guess(model, line_features("RuntimeError: CUDA out of memory. Tried to allocate 2 GiB"))[0] == "gpu_oom"
    folds = t.folds_of(cases)
    by_part: dict[str, set[int]] = {}
    for c, f in zip(cases, folds, strict=True):
        by_part.setdefault(c.part, set()).add(f)
    assert all(len(f) == 1 for f in by_part.values()) and len(set(folds)) == 2
    assert t.group_of("pytorch/pytorch#123") == t.group_of("https://github.com/PyTorch/pytorch/issues/9")


def test_tokens_drop_numbers_hex_paths_and_ids() -> None:
    a = line_features("RuntimeError: CUDA error at /home/alice/run_17/x.py:88 ptr 0x7f3a9c00 job 8f14e45fceea167a")
    b = line_features("RuntimeError: CUDA error at /scratch/bob/exp2/x.py:12 ptr 0x11 job 45c48cce2e2d7fbd")
    assert a == b
    assert "exc:runtimeerror" in a and "w:cuda" in a and not any("alice" in f or "7f3a" in f for f in a)


def test_a_guess_replaces_an_unknown_verdict_and_says_it_is_a_model_guess() -> None:
    with fallback_enabled(False):
        rules = diagnose_log_text(UNEXPLAINED)
    assert rules.label == "unknown"
    with fallback_enabled(True, _sure_model()):
        d = diagnose_log_text(UNEXPLAINED)
    assert d.label == "gpu_oom"
    ctx = Context.build(log_lines=UNEXPLAINED.splitlines())
    assert d.fix.kind == guess_fix(ctx, "gpu_oom", extract_features(ctx).lines)[0] == FAMILIES["gpu_oom"].fix_kind
    assert d.explanation.startswith("No rule matched; a model trained on 789 real logs reads this as gpu_oom (p=1.00)")
    assert is_model_guess(d) and "model's guess" in d.fix.description
    assert d.confidence <= MAX_CONFIDENCE < 0.8
    assert d.evidence and all(e in UNEXPLAINED.splitlines() for e in d.evidence)
    assert any("frobnicator" in e for e in d.evidence)


def test_same_input_same_verdict() -> None:
    with fallback_enabled(True, _sure_model()):
        first = diagnose_log_text(UNEXPLAINED)
        assert all(diagnose_log_text(UNEXPLAINED) == first for _ in range(3))
    model = load_model()
    assert model is not None
    x = extract_features(Context.build(log_lines=UNEXPLAINED.splitlines()))
    assert guess(model, x.features) == guess(model, list(reversed(x.features)))


def test_confident_rule_verdicts_are_left_alone() -> None:
    with fallback_enabled(False):
        rules = diagnose_log_text(CONFIDENT_OOM)
    assert rules.label == "gpu_oom" and rules.confidence >= 0.8
    with fallback_enabled(True, _sure_model("host_oom")):
        assert diagnose_log_text(CONFIDENT_OOM) == rules


def test_a_healthy_verdict_is_never_turned_into_a_failure() -> None:
    with fallback_enabled(True, _sure_model()):
        d = diagnose_log_text(FINISHED)
    assert d.label == "healthy"
    assert not is_model_guess(d)


def test_a_model_unsure_of_itself_keeps_the_rules_verdict() -> None:
    shy = _sure_model()
    shy["min_probability"] = 1.01
    with fallback_enabled(True, shy):
        assert diagnose_log_text(UNEXPLAINED).label == "unknown"


def test_off_means_the_rules_alone() -> None:
    with fallback_enabled(False, _sure_model()):
        assert diagnose_log_text(UNEXPLAINED).label == "unknown"


def test_the_session_does_not_resubmit_unchanged_on_a_model_guess() -> None:
    from runshepherd.backends.base import Status
    from runshepherd.diagnosis import DiagnosisInput, TaskRecord, diagnose
    from runshepherd.nodes.diagnose_fix import retries_unchanged

    def inp(log: str) -> DiagnosisInput:
        return DiagnosisInput(
            status=Status.FAILED,
            tasks=[TaskRecord(name="train", status="FAILED", exit_code=1)],
            log_lines={"train": log.splitlines()},
        )

    guessing = inp(UNEXPLAINED)
    with fallback_enabled(True, _sure_model("nccl_or_distributed")):
        [guess_verdict] = diagnose(guessing)
    assert guess_verdict.label == "nccl_or_distributed" and is_model_guess(guess_verdict)
    assert not retries_unchanged(guessing, guess_verdict)
    found = inp("torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled system error")
    with fallback_enabled(True, _sure_model()):
        [rules_verdict] = diagnose(found)
    assert rules_verdict.label == "nccl_or_distributed" and not is_model_guess(rules_verdict)
    assert retries_unchanged(found, rules_verdict)


UNEXPLAINED_ERRORS = [
    ("step 3 loss 0.4\nERROR ~ Error executing process > 'STAR_mapping (S31)'\n", "ERROR ~ Error executing process"),
    ("loading shards\nstep 10 loss 2.31\nFATAL: frobnicator lost its marbles (code 7)\n", "FATAL: frobnicator"),
    ("I0102 10:00:00.000 1 a.cc:1] started\nE0102 10:00:01.000 1 b.cc:9] widget pool drained\n", "widget pool"),
    ("(raylet) [2025-01-02 10:00:00,117 E 1357 1357] (raylet) thing.cc:30: gadget refused\n", "gadget refused"),
]


def test_with_the_shipped_model_an_unexplained_error_is_still_quoted_and_never_sure() -> None:
    """Issue 14 item 2 holds with the fallback on: the error line no family explains is quoted first, the fix says to
    read the full log, and a guess is labelled as one, below the confident band; never healthy."""
    with fallback_enabled(True):
        for log, line in UNEXPLAINED_ERRORS:
            d = diagnose_log_text(log)
            assert d.label != "healthy", log
            assert d.evidence and line in d.evidence[0], log
            assert "full log" in d.fix.description, log
            if d.label != "unknown":
                assert is_model_guess(d) and d.confidence <= MAX_CONFIDENCE < 0.8, log


def test_the_setting_turns_it_on_and_off(monkeypatch: Any) -> None:
    model = load_model()
    assert model is not None
    monkeypatch.setenv("RUNSHEPHERD_DIAGNOSIS__FALLBACK", "on")
    assert is_enabled()
    monkeypatch.setenv("RUNSHEPHERD_DIAGNOSIS__FALLBACK", "off")
    assert not is_enabled()
    monkeypatch.delenv("RUNSHEPHERD_DIAGNOSIS__FALLBACK")
    assert is_enabled() is bool(model["enabled"])  # the shipped decision (cross-validation's, see the docs)


def _a_log_only_the_model_names() -> tuple[str, str]:
    """A log no rule names that the shipped model reads as some family above its threshold: an error line made of
    the words the model weighs most for that family (built from the file, so a retrain does not break the test)."""
    model = load_model()
    assert model is not None
    for k, label in enumerate(model["labels"]):
        if label == "healthy":
            continue
        words = sorted(
            (f[2:] for f, w in model["weights"].items() if f.startswith("w:") and w[k] > 0),
            key=lambda f: -model["weights"]["w:" + f][k],
        )
        for n in (4, 6, 8, 12):
            text = "starting job\nERROR: " + " ".join(words[:n]) + "\n"
            with fallback_enabled(False):
                if diagnose_log_text(text).label != "unknown":
                    continue
            with fallback_enabled(True):
                d = diagnose_log_text(text)
            if d.label == label:
                return text, label
    raise AssertionError("the shipped model names no log the rules cannot")


def test_the_product_path_shows_the_guess(tmp_path: Path) -> None:
    """`orchestrate diagnose --log X --json` with the fallback on prints the model's guess, labelled as one."""
    text, label = _a_log_only_the_model_names()
    log = tmp_path / "x.log"
    log.write_text(text)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUNSHEPHERD_")}
    env.update(HOME=str(tmp_path), RUNSHEPHERD_STATE_DIR=str(tmp_path / "state"))
    out = {}
    for setting in ("on", "off"):
        env["RUNSHEPHERD_DIAGNOSIS__FALLBACK"] = setting
        res = subprocess.run(
            [sys.executable, "-m", "runshepherd.cli.main", "diagnose", "--log", str(log), "--json"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
        assert res.returncode == 0, res.stderr
        out[setting] = json.loads(res.stdout.splitlines()[0])
    assert out["off"]["label"] == "unknown"
    on = out["on"]
    assert on["label"] == label and on["confidence"] < 0.8
    assert on["explanation"].startswith(f"No rule matched; a model trained on 789 real logs reads this as {label} (p=")
    assert on["evidence"] and all(e in text.splitlines() for e in on["evidence"])
