"""The example specs: each loads, says what it shows, and succeeds or fails the way its header promises.

Tasks are run here the way the local backend runs them (files in the task's working dir, special tokens
substituted, ``python`` = this interpreter), without the scheduler, so the examples are checked on their own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from demo_runner import EXAMPLES, example_task, run_example_task

from runshepherd.demo.config import parse_config
from runshepherd.spec import load_spec_file

FAST = ["--step-delay", "0"]
ALL = sorted(p.name for p in EXAMPLES.glob("*.yaml"))
MIB = 2**20


def test_the_promised_examples_exist() -> None:
    assert set(ALL) >= {
        "train-classifier.yaml",
        "pipeline.yaml",
        "templated.yaml",
        "fail-oom.yaml",
        "fail-nan.yaml",
        "fail-module.yaml",
        "fail-command.yaml",
        "fail-missing-input.yaml",
        "fail-timeout.yaml",
        "fail-outputs-typo.yaml",
        "fail-gpu.yaml",
    }


@pytest.mark.parametrize("name", ALL)
def test_example_loads_starts_with_a_comment_and_is_in_the_readme(name: str) -> None:
    doc = load_spec_file(EXAMPLES / name)
    assert doc.workflow.tasks, f"{name} has tasks"
    assert (EXAMPLES / name).read_text().startswith("# ")
    assert f"`{name}`" in (EXAMPLES / "README.md").read_text()


def test_templated_example_renders_defaults_and_set_overrides() -> None:
    default = load_spec_file(EXAMPLES / "templated.yaml").workflow.tasks[0].args
    assert default[:4] == ["--epochs", "3", "--lr", "0.5"]
    overridden = load_spec_file(EXAMPLES / "templated.yaml", set_values={"epochs": 5}).workflow.tasks[0].args
    assert overridden[:2] == ["--epochs", "5"]
    assert overridden[-1] == "{{output}}", "special tokens survive Jinja rendering"


def test_train_classifier_example_writes_the_model(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = run_example_task(example_task("train-classifier.yaml"), tmp_path / "wd", out, extra_args=FAST)
    assert run.returncode == 0, run.stderr
    assert {"model.npz", "metrics.json", "checkpoints"} <= {p.name for p in out.iterdir()}
    assert json.loads((out / "metrics.json").read_text())["eval_acc"] >= 0.9


def test_pipeline_passes_data_through_input_0(tmp_path: Path) -> None:
    spec = load_spec_file(EXAMPLES / "pipeline.yaml").workflow
    prepare, train = spec.tasks
    assert [i.task for i in train.inputs] == ["prepare"]
    first = run_example_task(prepare, tmp_path / "wd-prepare", tmp_path / "out-prepare")
    assert first.returncode == 0, first.stderr
    inputs = [tmp_path / "out-prepare"]
    second = run_example_task(train, tmp_path / "wd-train", tmp_path / "out-train", inputs, FAST)
    assert second.returncode == 0, second.stderr
    data_file = tmp_path / "out-prepare" / "data.npz"
    assert f"data: loaded {data_file} (3000 samples, 8 features, 3 classes)" in second.lines
    with np.load(tmp_path / "out-train" / "model.npz") as model:
        assert model["w1"].shape == (8, 64)


def test_oom_example_exceeds_its_limit_but_fits_twice_the_limit(tmp_path: Path) -> None:
    spec = load_spec_file(EXAMPLES / "fail-oom.yaml").workflow
    limit_bytes = spec.resources["default"].memory_bytes
    assert limit_bytes is not None
    limit_mib = limit_bytes / MIB
    run = run_example_task(spec.tasks[0], tmp_path / "wd", tmp_path / "out", extra_args=["--epochs", "1", *FAST])
    assert run.returncode == 0, "without a limit it runs"
    assert limit_mib < run.peak_rss_mib < 2 * limit_mib - 100, (
        f"peak {run.peak_rss_mib:.0f} MiB must exceed {limit_mib:.0f} MiB and fit (with margin) in {2 * limit_mib:.0f}"
    )


def test_nan_example_diverges_and_a_tenth_of_its_lr_converges(tmp_path: Path) -> None:
    task = example_task("fail-nan.yaml")
    failed = run_example_task(task, tmp_path / "wd1", tmp_path / "out1", extra_args=FAST)
    assert failed.returncode == 1
    assert re.search(r"^FloatingPointError: Loss is nan at epoch 1 step \d+", failed.stderr, re.M)
    assert any("loss=nan" in line for line in failed.lines)

    lr = float(task.args[task.args.index("--lr") + 1])
    fixed = task.model_copy(update={"args": [*task.args, "--lr", f"{lr * 0.1:g}"]})
    ok = run_example_task(fixed, tmp_path / "wd2", tmp_path / "out2", extra_args=FAST)
    assert ok.returncode == 0, ok.stderr
    assert json.loads((tmp_path / "out2" / "metrics.json").read_text())["eval_acc"] >= 0.85


def test_module_example_fails_with_module_not_found(tmp_path: Path) -> None:
    run = run_example_task(example_task("fail-module.yaml"), tmp_path / "wd", tmp_path / "out")
    assert run.returncode == 1
    assert run.stderr.rstrip().endswith("ModuleNotFoundError: No module named 'tomli_w'")


def test_command_example_fails_with_127(tmp_path: Path) -> None:
    run = run_example_task(example_task("fail-command.yaml"), tmp_path / "wd", tmp_path / "out")
    assert run.returncode == 127
    assert "entry.sh: line 3: torchrun-missing: command not found" in run.stderr


def test_missing_input_example_fails_with_file_not_found(tmp_path: Path) -> None:
    run = run_example_task(example_task("fail-missing-input.yaml"), tmp_path / "wd", tmp_path / "out")
    assert run.returncode == 1
    assert "FileNotFoundError: [Errno 2] No such file or directory: '/nonexistent/train.npz'" in run.stderr


def test_outputs_typo_example_succeeds_with_empty_outputs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = run_example_task(example_task("fail-outputs-typo.yaml"), tmp_path / "wd", out, extra_args=FAST)
    assert run.returncode == 0, run.stderr
    assert list(out.iterdir()) == [], "nothing lands in the real output dir"
    assert (tmp_path / "wd" / "{{outputs}}" / "model.npz").is_file(), "the model went to a literal folder"


def test_timeout_example_is_cut_but_one_doubling_is_enough() -> None:
    spec = load_spec_file(EXAMPLES / "fail-timeout.yaml").workflow
    args = spec.tasks[0].args
    assert spec.timeout is not None
    timeout = spec.timeout.exec_seconds
    config = parse_config([a for a in args if a != "{{output}}" and a != "--output-dir"], env={})
    train_samples = config.samples - round(config.samples * config.eval_fraction)
    planned = config.epochs * config.steps_for(train_samples) * config.step_delay
    assert timeout == 4
    assert timeout < planned < 2 * timeout - 2, f"planned {planned:.1f}s vs exec_timeout {timeout}s"


def test_gpu_example_asks_for_gpus() -> None:
    spec = load_spec_file(EXAMPLES / "fail-gpu.yaml").workflow
    assert spec.resources["default"].gpu == 2
    assert spec.timeout is None or spec.timeout.queue_timeout is None, "it must stay PENDING, not time out"
