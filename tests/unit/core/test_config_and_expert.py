"""Configuration precedence, request parsing, the app registry and the cadence policy: pure logic."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.apps.registry import AppError, AppRegistry
from runshepherd.config import Cadence, load_settings
from runshepherd.errors import ConfigError
from runshepherd.experts.heuristic.expert import HeuristicExpert
from runshepherd.experts.heuristic.request import parse_request
from runshepherd.nodes.cadence import interval
from runshepherd.spec import load_spec_text


def test_file_then_env_then_flags(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("backend: slurm\ncadence:\n  training: 45\n  short: 12\n")
    s = load_settings(cfg, environ={"RUNSHEPHERD_CADENCE__TRAINING": "20"}, flags={"backend": "osmo"})
    assert s.backend == "osmo"  # flag beats file
    assert s.cadence.training == 20  # env beats file
    assert s.cadence.short == 12  # file beats default
    assert s.cadence.backoff == 60  # the embedded default
    assert s.fixes.max_fix_attempts == 3 and s.logs.tasks_per_reader == 5


def test_bad_config_is_a_clear_error(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("backend: kubernetes\n")
    with pytest.raises(ConfigError, match="setting 'backend'"):
        load_settings(cfg, environ={})
    cfg.write_text("cadence: [1\n")
    with pytest.raises(ConfigError, match=r"c.yaml:\d+: config is not valid YAML"):
        load_settings(cfg, environ={})
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "missing.yaml", environ={})


def test_a_rejected_checkpointer_url_never_prints_its_password(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("{}\n")
    with pytest.raises(ConfigError) as exc:
        load_settings(cfg, flags={"checkpointer": "mysql://me:hunter2secret@db.example/x"}, environ={})
    assert "checkpointer" in str(exc.value) and "postgresql://" in str(exc.value)
    assert "hunter2secret" not in str(exc.value) and "db.example" in str(exc.value)


def test_request_parsing_takes_only_what_was_said(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("print('hi')\n")
    p = parse_request(
        "train model resnet50 with train.py for 5 epochs, lr 3e-4, batch size 32 on 2 GPUs, 8Gi memory, time limit 2h",
        tmp_path,
    )
    assert (p.epochs, p.lr, p.batch_size, p.gpus, p.memory, p.time_limit) == (5, 3e-4, 32, 2, "8Gi", "2h")
    assert p.script == "train.py" and p.model == "resnet50"
    bare = parse_request("train a small classifier", tmp_path)
    assert bare.epochs is None and bare.lr is None and bare.gpus is None and bare.name == "train-classifier"
    # a number's exponent is not a word: "lr 3e-4" named the workflow "e"
    assert parse_request("run train.py with lr 3e-4", tmp_path).name == "train"  # was "run"
    assert parse_request("python train.py --epochs 2", tmp_path).name == "train"  # was "python"
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "01_Prep.Data.py").write_text("print('hi')\n")
    (tmp_path / "my_job.sh").write_text("echo hi\n")
    assert parse_request("run scripts/01_Prep.Data.py", tmp_path).name == "run-01-prep-data"
    assert parse_request("bash my_job.sh", tmp_path).name == "my-job"
    assert parse_request("train resnet50 with lr 1e-3 on 8x gpus", tmp_path).name == "train-resnet50"
    # everyday phrasing names no model or dataset to ask about ("own", "my", "csv" were asked about as names)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "train.csv").write_text("a,label\n1,0\n")
    for said in ("train a classifier on my own data", "train a model on my data", "train it again on my csv"):
        assert parse_request(said, tmp_path).subject is None, said
    assert parse_request("fine-tune bert-base on my csv data/train.csv", tmp_path).subject == "bert-base"
    assert parse_request("fine-tune bert on imdb", tmp_path).subject == "bert, imdb"


def test_a_request_that_names_no_job_is_asked_about_not_run_as_the_demo(tmp_path: Path) -> None:
    expert = HeuristicExpert()
    assert any("a job to run" in m for m in expert.draft_spec("hello there", cwd=tmp_path).missing)
    for said in ("train a small classifier", "fine-tune with lr 0.1", "a quick experiment", "run the demo"):
        assert not any("a job to run" in m for m in expert.draft_spec(said, cwd=tmp_path).missing), said


@pytest.mark.parametrize(
    ("said", "asked"),
    [  # before: -3 epochs planned epochs=3, 1e9 epochs epochs=9, 2.5 epochs epochs=5, batch size 0 was submitted
        ("train a small classifier for -3 epochs", "epochs -3 (not a whole number of at least 1)"),
        ("train a small classifier for 2.5 epochs", "epochs 2.5 (not a whole number of at least 1)"),
        ("train a small classifier with batch size 0", "batch size 0 (not a whole number of at least 1)"),
        ("train a small classifier with lr -0.1", "lr -0.1 (not a number above 0)"),
        ("train a small classifier on 0.5 gpus", "gpus 0.5 (not a whole number of 0 or more)"),
    ],
)
def test_a_number_no_run_can_take_is_asked_about_never_misread(tmp_path: Path, said: str, asked: str) -> None:
    draft = HeuristicExpert().draft_spec(said, cwd=tmp_path)
    assert asked in draft.missing
    assert not any(u.startswith(asked.split()[0]) for u in draft.understood)  # nothing planned from it


def test_a_number_is_read_whole(tmp_path: Path) -> None:
    big = parse_request("train a small classifier for 1e3 epochs and 10,000 steps, lr 0.1.", tmp_path)
    assert (big.epochs, big.steps, big.lr, big.unusable) == (1000, 10000, 0.1, [])
    assert parse_request("train for 3epochs on 0 gpus", tmp_path).epochs == 3


def test_drafted_specs_validate_and_carry_the_parameters(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("import argparse\np = argparse.ArgumentParser()\np.add_argument('--epochs')\n")
    expert = HeuristicExpert()
    demo = expert.draft_spec("train a small classifier for 4 epochs with lr 0.1", cwd=tmp_path)
    task = load_spec_text(demo.spec_text).workflow.tasks[0]
    assert task.args[:4] == ["--epochs", "4", "--lr", "0.1"] and "{{output}}" in task.args
    mine = expert.draft_spec("fine-tune with train.py for 2 epochs on 1 gpu", cwd=tmp_path)
    doc = load_spec_text(mine.spec_text, base_dir=Path(mine.base_dir or "."))
    t = doc.workflow.tasks[0]
    assert t.files[0].localpath == "train.py" and t.args == ["--epochs", "2"]
    assert doc.workflow.resources_for(t).gpu == 1
    named = expert.draft_spec("fine-tune model bert with train.py for 2 epochs and lr 0.1", cwd=tmp_path)
    assert load_spec_text(named.spec_text, base_dir=tmp_path).workflow.tasks[0].args == ["--epochs", "2"]
    assert any("no flag for lr, model" in n for n in named.notes)  # said, not silently passed


def test_app_registry_versions_only_on_change(tmp_path: Path) -> None:
    reg = AppRegistry(tmp_path)
    reg.save("trainer", "Trains.", "workflow: {}\n")
    app = reg.save("trainer", "Trains.", "workflow: {}\n")
    assert app.latest == 1
    app = reg.save("trainer", "Trains more.", "workflow: {name: x}\n")
    assert (
        app.latest == 2 and reg.spec("trainer:1") == "workflow: {}\n" and reg.spec("trainer") == "workflow: {name: x}\n"
    )
    with pytest.raises(AppError, match="no app 'nope'"):
        reg.get("nope")
    with pytest.raises(AppError, match="not valid"):
        reg.save("9bad", "x", "y")


def test_cadence_follows_the_skill() -> None:
    c = Cadence()
    assert interval(c, training=False, unchanged_polls=0, override=None) == 10
    assert interval(c, training=True, unchanged_polls=0, override=None) == 30
    assert interval(c, training=True, unchanged_polls=c.backoff_after, override=None) == 60
    assert interval(c, training=True, unchanged_polls=9, override=2.5) == 2.5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: " + "[" * 5000 + "]" * 5000 + "\n", r"deep.yaml:1: YAML is nested more than 64 levels deep"),
        (b"cadence: \xff\n", r"deep.yaml: is not UTF-8 text"),
        ("x: " + "a" * 1_100_000 + "\n", r"deep.yaml: holds more than 1,000,000 bytes, the limit for a config file"),
        # were accepted: 0 readers crashed after the plan, -5 fixes "gave up after 0 fix attempts", ".*" redacted
        # every line (and the error saying why), a negative cadence polled without a pause
        ("logs: {max_concurrency: 0}\n", r"setting 'logs.max_concurrency': Input should be greater than or equal to 1"),
        ("fixes: {max_fix_attempts: -5}\n", r"setting 'fixes.max_fix_attempts': Input should be greater than or eq"),
        ("cadence: {short: -1}\n", r"setting 'cadence.short': Input should be greater than 0 \(got -1\)"),
        ("logs: {redaction_patterns: ['.*']}\n", r"'\.\*' matches an empty text, so it would hide every line"),
        # was accepted: "." turned a one-line config error into 147 KB of "[REDACTED:custom]"
        ("logs: {redaction_patterns: ['.']}\n", r"'\.' matches a single ordinary character \('a'\), so it would hide"),
        ("logs: {redaction_patterns: ['[a-z]+']}\n", r"'\[a-z\]\+' matches a single ordinary character \('a'\)"),
    ],
)
def test_a_hostile_config_file_is_a_config_error_not_a_crash(tmp_path: Path, text: str | bytes, message: str) -> None:
    """Was: deep nesting raised RecursionError (an internal error), and /dev/zero was read until memory ran out."""
    from runshepherd.config import load_settings
    from runshepherd.errors import ConfigError

    cfg = tmp_path / "deep.yaml"
    cfg.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ConfigError, match=message):
        load_settings(cfg, flags={})


def test_a_hostile_runs_file_is_a_usage_error(tmp_path: Path) -> None:
    from runshepherd.errors import UsageError
    from runshepherd.watch.runsfile import load_runs

    runs = tmp_path / "runs.yaml"
    runs.write_text("runs: " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(UsageError, match=r"runs.yaml:1: YAML is nested more than 64 levels deep"):
        load_runs(runs)


def test_the_plan_names_a_setting_given_as_a_flag_once(tmp_path: Path) -> None:
    """The plan line read '(epochs=2, script=train.py, --epochs=2)': the same setting twice."""
    (tmp_path / "train.py").write_text("print('hi')\n")
    said = "python train.py --epochs 2 --learning-rate=1e-3 --per-device-train-batch-size 8 --max-steps 100"
    draft = HeuristicExpert().draft_spec(said, cwd=tmp_path)
    assert draft.understood == [
        "script=train.py",
        "--epochs=2",
        "--learning-rate=1e-3",
        "--per-device-train-batch-size=8",
        "--max-steps=100",
    ], draft.understood
    both = parse_request("train.py for 3 epochs --epochs 2", tmp_path).understood
    assert both == ["epochs=3", "script=train.py", "--epochs=2"]  # two different values: both said, both shown


def test_an_app_description_never_changes_the_case_of_a_file_or_identifier() -> None:
    """The save-app question read '("Train.py for 2 epochs.")' for the request 'train.py for 2 epochs'."""
    from runshepherd.apps.registry import describe
    from runshepherd.render.session import done_line

    assert describe("train", "train.py for 2 epochs") == "train.py for 2 epochs."
    assert describe("train", "python train.py --epochs 2") == "python train.py --epochs 2."
    assert describe("b", "bert-base on imdb with NaN guard") == "bert-base on imdb with NaN guard."
    assert describe("c", "train a small classifier") == "Train a small classifier."  # a plain word still starts it
    said = done_line("s1", {"declined": True, "reason": "not submitted: you said no to train.py on H100"})
    assert said.endswith("Not submitted: you said no to train.py on H100"), said  # was: "… to train.py on h100"


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("train a classifier with HF_TOKEN={t}", "train-classifier"),
        ("train a classifier with my hf token {t}", "train-classifier"),
        ('train a classifier with "HF_TOKEN={t}"', "train-classifier"),
        ("train a classifier, token: {t}", "train-classifier"),
        ("fine-tune bert using my Hugging Face hf token {t} on imdb", "fine-tune-bert"),
        ("{t} train resnet50", "train-resnet50"),
        ("train a classifier --hf-token {t}", "train-classifier"),
    ],
)
def test_a_workflow_is_never_named_after_a_secret_or_its_place(tmp_path: Path, said: str, name: str) -> None:
    """'train a classifier with HF_TOKEN=hf_…' was named 'train-classifier-hf' (the redacted request's HF_TOKEN=)."""
    from runshepherd.logs import redact

    token = "hf_Tq7ZmW2x9LkP4vRb8NcY3dHsQ"  # token-like: what a person pastes
    request, found = redact(said.format(t=token))  # as the CLI, the chat and MCP do before anything else
    assert found and token not in request
    got = parse_request(request, tmp_path).name
    assert got == name, got
    assert not [part for part in got.split("-") if len(part) >= 2 and part in token.lower()], got


def test_a_flag_whose_value_was_a_secret_is_left_out_of_the_job(tmp_path: Path) -> None:
    """'python train.py --hf-token hf_…' gave the job `--hf-token "[REDACTED:hf_token]"`; the request's warning says
    the secret is left out of the job, so the flag is too."""
    from runshepherd.logs import redact

    (tmp_path / "train.py").write_text("print('hi')\n")
    request = redact("python train.py --hf-token hf_Tq7ZmW2x9LkP4vRb8NcY3dHsQ --epochs 2")[0]
    draft = HeuristicExpert().draft_spec(request, cwd=tmp_path)
    args = load_spec_text(draft.spec_text, base_dir=tmp_path).workflow.tasks[0].args
    assert args == ["--epochs", "2"] and "REDACTED" not in draft.spec_text, draft.spec_text
    assert draft.understood == ["script=train.py", "--epochs=2"]


def test_a_redaction_pattern_that_names_a_secret_is_kept(tmp_path: Path) -> None:
    from runshepherd.config import load_settings

    cfg = tmp_path / "c.yaml"
    cfg.write_text("logs: {redaction_patterns: ['mytoken-[A-Za-z0-9]{20,}', 'secret=\\\\S+']}\n")
    assert load_settings(cfg, flags={}).logs.redaction_patterns[0] == "mytoken-[A-Za-z0-9]{20,}"
