"""The learned fallback: asked only where the rules fell back (a bare exception, "unknown"), never says or overrides
"healthy", never overrides a family's own reading, quotes the root line verbatim and says it is a learned reading."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from runshepherd.diagnosis import DiagnosisInput, TaskRecord, diagnose, diagnose_log_text
from runshepherd.diagnosis.engine import rules_verdict
from runshepherd.diagnosis.learned import (
    CONFIDENCE,
    DISPUTE,
    DISPUTED,
    Model,
    arbitrate,
    dispute,
    shipped_model,
    tokens,
)
from runshepherd.diagnosis.rules import Context

ROOT = Path(__file__).resolve().parents[3]

BARE = "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n    run()\nTypeError: frob() got an unexpected keyword argument 'gizmo'\n"
ROOT_LINE = "TypeError: frob() got an unexpected keyword argument 'gizmo'"


def _model(label: str, word: str = "R:gizmo", weight: float = 5.0) -> Model:
    """A one-word model: seeing ``word`` makes ``label`` likely; otherwise every label is as likely as the next."""
    labels = ("healthy", "missing_dependency", "user_code_error", "file_not_found", "gpu_oom", label)
    labels = tuple(dict.fromkeys(labels))
    row = tuple(weight if lb == label else 0.0 for lb in labels)
    return Model(labels=labels, rows={word: row}, intercepts=(0.0,) * len(labels), trained_on={})


def _ctx(text: str) -> Context:
    return Context.build(log_lines=text.splitlines())


def test_a_bare_exception_the_rules_cannot_place_takes_the_models_reading_and_says_so() -> None:
    ctx = _ctx(BARE)
    rules = rules_verdict(ctx)
    assert rules.label == "user_code_error" and rules.confidence < 0.8
    d = arbitrate(ctx, rules, model=_model("missing_dependency"))
    assert d.label == "missing_dependency"
    assert d.confidence == CONFIDENCE < 0.8  # never among the confident verdicts calibration counts
    assert d.evidence == [ROOT_LINE]  # the root line, verbatim
    assert d.explanation.startswith("The rules fell back on this log (they read user_code_error at 0.66)")
    assert "learned from labelled real logs" in d.explanation and "about half the time" in d.explanation
    assert d.fix.kind == "add_dependency"  # the family's own fix


def test_the_model_never_says_healthy_and_never_overrides_healthy_or_a_familys_reading() -> None:
    ctx = _ctx(BARE)
    rules = rules_verdict(ctx)
    assert arbitrate(ctx, rules, model=_model("healthy")) == rules
    done = _ctx("epoch 3/3 loss 0.12\nTraining finished.\n")
    healthy = rules_verdict(done)
    assert healthy.label == "healthy"
    assert arbitrate(done, healthy, model=_model("gpu_oom", word="L:finished")) == healthy
    oom = _ctx("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity)\n")
    named = rules_verdict(oom)
    assert named.label == "gpu_oom"
    assert arbitrate(oom, named, model=_model("host_oom", word="R:memory")) == named


def test_a_weak_reading_or_a_label_the_caller_did_not_allow_keeps_the_rules_verdict() -> None:
    ctx = _ctx(BARE)
    rules = rules_verdict(ctx)
    assert arbitrate(ctx, rules, model=_model("missing_dependency", weight=0.1)) == rules  # p below the floor
    assert arbitrate(ctx, rules, allowed={"user_code_error", "gpu_oom"}, model=_model("missing_dependency")) == rules


def test_an_unknown_is_read_by_the_model_with_the_unexplained_line_quoted() -> None:
    text = "loading shards\nFATAL: frobnicator lost its gizmo (code 7)\n"
    ctx = _ctx(text)
    rules = rules_verdict(ctx)
    assert rules.label == "unknown"
    d = arbitrate(ctx, rules, model=_model("file_not_found", word="E:gizmo"))
    assert d.label == "file_not_found" and d.evidence == ["FATAL: frobnicator lost its gizmo (code 7)"]
    assert "they read no family" in d.explanation and d.reading == "learned"


def test_the_tokens_are_the_regions_an_expert_is_given() -> None:
    toks = tokens(_ctx(BARE).log)
    assert "X:typeerror" in toks  # the root line's exception type
    assert "R:unexpected_keyword" in toks  # its word pairs
    assert any(t.startswith("W:") for t in toks) and any(t.startswith("L:") for t in toks)


def test_the_shipped_model_reads_a_library_built_without_a_forks_option_as_its_dependency() -> None:
    """The shipped model on a whole run (the same path as `orchestrate diagnose --log`): a renderer's keyword the
    installed build does not take, where the fix was installing the repository's own fork of the extension."""
    text = (
        'Traceback (most recent call last):\n  File "train.py", line 84, in training\n'
        "    render_pkg = render(viewpoint_cam, gaussians, pipe, background)\n"
        '  File "gaussian_renderer/__init__.py", line 49, in render\n    bwd_depth=pipe.bwd_depth\n'
        "TypeError: __new__() got an unexpected keyword argument 'bwd_depth'\n"
    )
    assert shipped_model().trained_on["cases"] > 5000
    d = diagnose_log_text(text)
    assert (d.label, d.confidence) == ("missing_dependency", CONFIDENCE)


def test_a_run_whose_status_says_it_did_not_fail_is_the_rules_alone() -> None:
    inp = DiagnosisInput(
        status=None,
        tasks=[TaskRecord(name="train", status="COMPLETED", exit_code=0)],
        log_lines={"train": BARE.splitlines()},
    )
    assert all(d.confidence != CONFIDENCE or d.label == "healthy" for d in diagnose(inp))


@pytest.mark.timeout(120)
def test_the_shipped_model_was_trained_on_todays_dev_split() -> None:
    """`train_learned.py --check` (no scikit-learn needed) fails once a retired blind split joins dev untrained."""
    res = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "train_learned.py"), "--check"], capture_output=True, text=True
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "is current" in res.stdout


def test_an_error_about_the_programs_own_names_and_values_stays_the_rules() -> None:
    """`KeyError: 'nan'` is no NaN loss and a module of one's own without an attribute no missing package, whatever
    the words: Python's own-value exceptions at the root are never read by the model."""
    for root in ("KeyError: 'nan'", "AttributeError: module 'mymodel' has no attribute 'gizmo'"):
        text = f'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n{root}\n'
        ctx = _ctx(text)
        rules = rules_verdict(ctx)
        assert arbitrate(ctx, rules, model=_model("nan_loss", word="R:gizmo")) == rules
        assert arbitrate(ctx, rules, model=_model("nan_loss", word="R:nan")) == rules


def test_the_json_says_who_named_the_label() -> None:
    ctx = _ctx(BARE)
    learned = arbitrate(ctx, rules_verdict(ctx), model=_model("missing_dependency"))
    assert learned.to_json("run.log")["reading"] == "learned"
    assert rules_verdict(ctx).to_json("run.log")["reading"] == "rules"


def test_an_exit_code_report_alone_gives_the_model_nothing_to_read(monkeypatch: pytest.MonkeyPatch) -> None:
    labels = ("healthy", "user_code_error", "file_not_found")
    eager = Model(labels=labels, rows={}, intercepts=(0.0, 9.0, 0.0), trained_on={})  # reads everything as code
    monkeypatch.setattr("runshepherd.diagnosis.learned.shipped_model", lambda: eager)
    exit_only = "[rank0]: > initializing torch distributed ...\n[rank3]: Process exited with code 3\n"
    exit_only += "[rank1]: srun: error: node-9: task 0: Exited with exit code 3\n"
    d = diagnose_log_text(exit_only)
    assert (d.label, d.reading) == ("unknown", "rules")  # a launcher's exit report says nothing about why
    d = diagnose_log_text(exit_only + "FATAL: frobnicator lost its gizmo (code 7)\n")
    assert (d.label, d.reading) == ("user_code_error", "learned")


OOM = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity)\n"


def test_a_confident_reading_the_model_disputes_keeps_its_label_and_loses_its_confidence() -> None:
    """Confident readings a held-out model gave under 0.2 while reading another family were right 7 times in 20
    (blind v32-v36): they must not count among the confident verdicts, and the person is told why."""
    ctx = _ctx(OOM)
    rules = rules_verdict(ctx)
    assert rules.label == "gpu_oom" and rules.confidence >= 0.8
    d = dispute(ctx, rules, model=_model("host_oom", word="R:memory"))
    assert (d.label, d.fix, d.evidence) == (rules.label, rules.fix, rules.evidence)
    assert d.confidence == DISPUTED < 0.5  # below the line where an LLM expert takes a second look
    assert d.explanation.startswith(rules.explanation)
    assert "disputes this reading (it reads the error lines as host_oom" in d.explanation


def test_no_dispute_when_the_model_agrees_reads_healthy_or_the_scheduler_stated_it() -> None:
    ctx = _ctx(OOM)
    rules = rules_verdict(ctx)
    assert dispute(ctx, rules, model=_model("gpu_oom", word="R:memory")) == rules  # it agrees
    assert dispute(ctx, rules, model=_model("healthy", word="R:memory")) == rules  # never a failure family's judge
    torn = Model(labels=("gpu_oom", "host_oom"), rows={"R:memory": (1.0, 1.5)}, intercepts=(0.0, 0.0), trained_on={})
    assert torn.read(tokens(ctx.log))[0] == "host_oom"
    assert dispute(ctx, rules, model=torn) == rules  # it reads another family, but gives this one 0.38
    slurm = _ctx("slurmstepd: error: *** JOB 4242 ON node-1 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT ***\n")
    stated = rules_verdict(slurm)
    assert stated.label == "timeout" and stated.confidence >= 0.8
    assert dispute(slurm, stated, model=_model("user_code_error", word="L:limit")) == stated
    learned = arbitrate(_ctx(BARE), rules_verdict(_ctx(BARE)), model=_model("missing_dependency"))
    assert dispute(_ctx(BARE), learned, model=_model("gpu_oom")) == learned  # the model's own reading stands


def test_the_product_disputes_a_confident_misreading_the_shipped_model_knows_better() -> None:
    """Dev zz-0009 (kwea123/ngp_pl#33): DataLoader bus errors from a shrunken /dev/shm, which the rules read as host
    memory at 0.94; the shipped model reads it as another family, so the CLI's confidence is the disputed one."""
    text = (ROOT / "tests/data/diagnosis_real/logs/zz-0009.log").read_text(encoding="utf-8")
    assert rules_verdict(_ctx(text)).confidence >= 0.8
    d = diagnose_log_text(text)
    assert d.confidence == DISPUTED and "disputes this reading" in d.explanation


def test_the_disputed_confidence_is_the_share_right_on_the_blind_splits_fresh_verdicts() -> None:
    """learned.DISPUTED is a measurement: the share of confident readings the held-out model disputed that were right,
    counted by benchmarks/blind_heldout.py on the recorded fresh verdicts of the blind splits in its FREEZES (each
    case's label there is the corpus's)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import blind_heldout
    from bench_diagnosis import load_real

    labels = {c.name: c.label for c in load_real("dev")}
    disputed = right = 0
    for split in blind_heldout.FREEZES:
        rows = blind_heldout.load(split)
        assert rows and all(labels[r["id"]] == r["gold"] for r in rows), split
        t = blind_heldout.tally(rows, DISPUTE)
        disputed, right = disputed + t.disputed, right + t.disputed_right
    assert disputed >= 20
    assert DISPUTED == round(right / disputed, 2)
