"""The learned model: it never names a label; it disputes a confident rule reading it gives almost no chance while
reading another failure family, and that verdict's confidence drops to the share such readings measured right."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from runshepherd.backends.base import Status
from runshepherd.diagnosis import DiagnosisInput, TaskRecord, diagnose, diagnose_log_text
from runshepherd.diagnosis.engine import rules_verdict
from runshepherd.diagnosis.learned import DISPUTE, DISPUTED, Model, dispute, tokens
from runshepherd.diagnosis.rules import Context
from runshepherd.experts.llm.expert import is_unsure

ROOT = Path(__file__).resolve().parents[3]

BARE = "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n    run()\nTypeError: frob() got an unexpected keyword argument 'gizmo'\n"
ROOT_LINE = "TypeError: frob() got an unexpected keyword argument 'gizmo'"
OOM = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity)\n"


def _model(label: str, word: str = "R:gizmo", weight: float = 5.0) -> Model:
    """A one-word model: seeing ``word`` makes ``label`` likely; otherwise every label is as likely as the next."""
    labels = ("healthy", "missing_dependency", "user_code_error", "file_not_found", "gpu_oom", label)
    labels = tuple(dict.fromkeys(labels))
    row = tuple(weight if lb == label else 0.0 for lb in labels)
    return Model(labels=labels, rows={word: row}, intercepts=(0.0,) * len(labels), trained_on={})


def _ctx(text: str) -> Context:
    return Context.build(log_lines=text.splitlines())


def test_the_tokens_are_the_regions_an_expert_is_given() -> None:
    toks = tokens(_ctx(BARE).log)
    assert "X:typeerror" in toks  # the root line's exception type
    assert "R:unexpected_keyword" in toks  # its word pairs
    assert any(t.startswith("W:") for t in toks) and any(t.startswith("L:") for t in toks)


def test_the_label_is_always_the_rules_whatever_the_model_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replacing the rules' unsure labels with the model's turned as many right labels wrong as wrong ones right on
    the blind splits (v32-v39), so the model never names one: not for a bare exception, not for an "unknown"."""
    labels = ("healthy", "missing_dependency", "user_code_error", "file_not_found")
    eager = Model(labels=labels, rows={}, intercepts=(0.0, 9.0, 0.0, 0.0), trained_on={})  # reads all as a package
    monkeypatch.setattr("runshepherd.diagnosis.learned.shipped_model", lambda: eager)
    unknown = "loading shards\nFATAL: frobnicator lost its gizmo (code 7)\n"
    for text in (BARE, unknown):
        d, rules = diagnose_log_text(text), rules_verdict(_ctx(text))
        assert d == rules and d.label in ("user_code_error", "unknown") and d.confidence < 0.8
    assert diagnose_log_text(BARE).evidence == [ROOT_LINE]


def test_a_run_whose_status_says_it_did_not_fail_is_never_disputed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("runshepherd.diagnosis.learned.shipped_model", lambda: _model("host_oom", word="R:memory"))

    def verdicts(status: Status) -> list[float]:
        tasks = [TaskRecord(name="train", status=status.value, exit_code=0 if status is Status.COMPLETED else 1)]
        return [d.confidence for d in diagnose(DiagnosisInput(status=status, tasks=tasks, log_lines={"train": [OOM]}))]

    assert DISPUTED in verdicts(Status.FAILED)  # the same log in a failed run is disputed
    assert DISPUTED not in verdicts(Status.COMPLETED)


@pytest.mark.timeout(120)
def test_the_shipped_model_was_trained_on_todays_dev_split() -> None:
    """`train_learned.py --check` (no scikit-learn needed) fails once a retired blind split joins dev untrained."""
    res = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "train_learned.py"), "--check"], capture_output=True, text=True
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "is current" in res.stdout


def test_a_confident_reading_the_model_disputes_keeps_its_label_and_loses_its_confidence() -> None:
    """Confident readings a held-out model gave under 0.2 while reading another family were right 7 times in 20
    (blind v32-v36): they must not count among the confident verdicts, and the person is told why."""
    ctx = _ctx(OOM)
    rules = rules_verdict(ctx)
    assert rules.label == "gpu_oom" and rules.confidence >= 0.8
    d = dispute(ctx, rules, model=_model("host_oom", word="R:memory"))
    assert (d.label, d.fix, d.evidence) == (rules.label, rules.fix, rules.evidence)
    assert d.confidence == DISPUTED and is_unsure(d)  # an LLM expert takes a second look at it
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
    unsure = rules_verdict(_ctx(BARE))
    assert unsure.confidence < 0.8 and dispute(_ctx(BARE), unsure, model=_model("gpu_oom")) == unsure


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
