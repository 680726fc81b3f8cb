"""`orchestrate diagnose` with a model configured (`expert: provider:model`) gives the model the second look a session
gives it: before, the command read the rules alone, so the same log got one answer in a session and another here.
Only an unsure verdict is shown to the model, its answer is used only when its evidence is in the log, the printed
verdict says it is the model's and what the rules had said, and `--rules-only` never asks the model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_fakes import call, fake

from runshepherd.cli.main import main

# the rules read a bare KeyError as the code's (unsure); the command line shows the option the program refused
LOG = """\
$ python train.py --aug_types color transition
Traceback (most recent call last):
  File "train.py", line 40, in <module>
    for f in AUGMENT_FNS[p]:
KeyError: 'transition'
"""
OOM = 'Traceback (most recent call last):\n  File "t.py", line 3\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n'


def _answer(evidence: list[str]) -> dict:
    return {
        "label": "validation_error",
        "origin": "config",
        "confidence": 0.7,
        "evidence": evidence,
        "explanation": "The --aug_types option names an augmentation the program does not have ('transition').",
        "fix_kind": "fix_code",
        "fix_description": "Pass only augmentations the program knows to --aug_types",
    }


@pytest.fixture
def model(here: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    """A configured model expert whose chat model is the recording fake; ``answers`` are its replies, in order."""
    monkeypatch.setenv("RUNSHEPHERD_EXPERT", "openai:gpt-4o-mini")
    answers: list[dict] = []
    chat, rec = fake(lambda messages, tools: call("LLMDiagnosis", **answers.pop(0)))
    monkeypatch.setattr("runshepherd.experts.llm.factory.build_chat_model", lambda name, cfg: chat)
    (here / "run.log").write_text(LOG)
    (here / "oom.log").write_text(OOM)
    return answers, rec


def test_an_unsure_verdict_gets_the_models_reading_marked_as_such(model, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    answers, rec = model
    answers.append(_answer(["$ python train.py --aug_types color transition", "KeyError: 'transition'"]))
    assert main(["diagnose", "--log", "run.log", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["label"] == "validation_error" and got["evidence"][1] == "KeyError: 'transition'"
    assert got["second_look"] == {
        "expert": "openai:gpt-4o-mini",
        "rules_label": "user_code_error",
        "rules_confidence": 0.66,
    }
    assert "KeyError: 'transition'" in rec.text()  # the model read the log
    answers.append(_answer(["KeyError: 'transition'"]))
    assert main(["diagnose", "--log", "run.log"]) == 0
    out = capsys.readouterr().out
    assert "validation_error" in out and "read by the model openai:gpt-4o-mini: the rules were unsure" in out


def test_invented_evidence_keeps_the_rules_verdict_and_says_why(model, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    answers, _ = model
    answers.append(_answer(["ValueError: unknown augmentation 'transition'"]))  # not a line of the log
    assert main(["diagnose", "--log", "run.log", "--json"]) == 0
    cap = capsys.readouterr()
    got = json.loads(cap.out)
    assert got["label"] == "user_code_error" and "second_look" not in got
    assert "not in the material" in cap.err and "using the built-in heuristic instead" in cap.err


def test_confident_verdicts_and_rules_only_never_reach_the_model(model, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    _, rec = model
    assert main(["diagnose", "--log", "oom.log"]) == 0
    assert "gpu_oom" in capsys.readouterr().out
    assert main(["diagnose", "--log", "run.log", "--rules-only"]) == 0
    assert "user_code_error" in capsys.readouterr().out
    assert rec.calls == []
