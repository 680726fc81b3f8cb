"""Each fix rule on a small spec: the diff is minimal, correct, valid, and never touches Jinja or resources wrongly."""

from __future__ import annotations

import yaml

from runshepherd.backends.base import Node
from runshepherd.diagnosis import Diagnosis, Fix
from runshepherd.diagnosis.fixes import pip_package, propose_fix

SPEC = """\
workflow:
  name: demo  # keep this comment
  resources:
    default:
      cpu: 4
      memory: 16Gi
  timeout:
    exec_timeout: 3h
  tasks:
  - name: train
    image: pytorch/pytorch:2.2.1
    command: ["python", "train.py"]
    args: ["--batch-size", "64", "--lr=3e-4", "--gradient_accumulation_steps", "2", "--out", "{{output}}/m"]
    environment:
      BATCH_SIZE: "32"
      LEARNING_RATE: "0.001"
    files:
    - path: /tmp/entry.sh
      contents: |
        #!/bin/bash
        set -e
        python train.py --out {{outputs}}/model
"""


def _d(label: str, kind: str, evidence: list[str] | None = None, origin: str = "user") -> Diagnosis:
    return Diagnosis(
        label=label,
        origin=origin,
        confidence=0.9,
        evidence=evidence or [],
        explanation="x",
        fix=Fix(kind=kind, description="d"),
        task="train",
    )


def _changed(patch: str) -> list[str]:
    return [l for l in patch.splitlines() if l[:1] in "+-" and not l.startswith(("+++", "---"))]


def _node(mem: float) -> Node:
    return Node(
        hostname="n",
        pool="p",
        cpu_total=32,
        cpu_free=32,
        memory_total_gi=mem,
        memory_free_gi=mem,
        gpu_total=8,
        gpu_free=8,
    )


def test_host_oom_doubles_memory_and_keeps_comments() -> None:
    fix = propose_fix(_d("host_oom", "increase_memory"), SPEC)
    assert _changed(fix.patch) == ["-      memory: 16Gi", "+      memory: 32Gi"]
    assert fix.kind == "increase_memory"


def test_host_oom_capped_by_largest_node() -> None:
    fix = propose_fix(_d("host_oom", "increase_memory"), SPEC, nodes=[_node(20), _node(24)])
    assert "+      memory: 22Gi" in fix.patch  # 24 - 2 (sizing rule below 50Gi) < 32
    at_cap = propose_fix(_d("host_oom", "increase_memory"), SPEC.replace("16Gi", "22Gi"), nodes=[_node(24)])
    assert at_cap.patch is None and "batch size" in at_cap.description


def test_gpu_oom_halves_batch_sizes_and_keeps_effective_batch() -> None:
    fix = propose_fix(_d("gpu_oom", "reduce_memory"), SPEC)
    changed = "\n".join(_changed(fix.patch))
    assert '"--batch-size", "32"' in changed and 'BATCH_SIZE: "16"' in changed
    assert '"--gradient_accumulation_steps", "4"' in changed
    assert "memory" not in changed and "cpu" not in changed


def test_gpu_oom_without_batch_size_suggests_instead() -> None:
    spec = SPEC.replace('"--batch-size", "64", ', "").replace('      BATCH_SIZE: "32"\n', "")
    fix = propose_fix(_d("gpu_oom", "reduce_memory"), spec)
    assert fix.patch is None and "GPUs with more memory" in fix.description


def test_nan_lowers_learning_rate_tenfold() -> None:
    fix = propose_fix(_d("nan_loss", "lower_lr_or_fix_data"), SPEC)
    changed = "\n".join(_changed(fix.patch))
    assert '"--lr=3e-5"' in changed and 'LEARNING_RATE: "0.0001"' in changed


def test_timeout_doubles_exec_timeout() -> None:
    fix = propose_fix(_d("timeout", "increase_timeout_or_checkpoint", origin="config"), SPEC)
    assert _changed(fix.patch) == ["-    exec_timeout: 3h", "+    exec_timeout: 6h"]
    assert "checkpoint" in fix.description


def test_missing_module_maps_import_name_and_inserts_after_header() -> None:
    fix = propose_fix(_d("missing_dependency", "add_dependency", ["ModuleNotFoundError: No module named 'cv2'"]), SPEC)
    assert _changed(fix.patch) == ["+        pip install --no-cache-dir opencv-python-headless"]
    new = yaml.safe_load(SPEC)  # still valid YAML after patching is covered by propose_fix's validation
    assert new
    assert (
        pip_package("sklearn") == "scikit-learn" and pip_package("PIL") == "pillow" and pip_package("yaml") == "pyyaml"
    )


def test_missing_binary_gets_apt_step() -> None:
    fix = propose_fix(
        _d("missing_dependency", "add_dependency", ["/tmp/entry.sh: line 6: jq: command not found"]), SPEC
    )
    assert _changed(fix.patch) == ["+        apt-get update && apt-get install -y jq"]


def test_outputs_typo_fixed() -> None:
    fix = propose_fix(_d("output_missing", "fix_path"), SPEC)
    assert _changed(fix.patch) == [
        "-        python train.py --out {{outputs}}/model",
        "+        python train.py --out {{output}}/model",
    ]


def test_ask_the_person_labels_never_patch() -> None:
    for label, kind in [
        ("image_pull", "fix_image"),
        ("permission_or_auth", "fix_credentials"),
        ("file_not_found", "fix_path"),
        ("cuda_driver", "fix_driver_or_image"),
        ("user_code_error", "fix_code"),
    ]:
        fix = propose_fix(_d(label, kind), SPEC)
        assert fix.patch is None and fix.kind == kind


def test_jinja_resource_values_are_never_edited() -> None:
    spec = SPEC.replace("memory: 16Gi", 'memory: "{{mem}}"')
    fix = propose_fix(_d("host_oom", "increase_memory"), spec)
    assert fix.patch is None


def test_jinja_template_that_is_not_yaml_still_gets_a_safe_text_fix() -> None:
    spec = "{% set n = 2 %}\n" + SPEC
    fix = propose_fix(
        _d("missing_dependency", "add_dependency", ["ModuleNotFoundError: No module named 'einops'"]), spec
    )
    assert _changed(fix.patch) == ["+        pip install --no-cache-dir einops"]
    assert propose_fix(_d("host_oom", "increase_memory"), spec).patch is None


GPU_SPEC = """\
workflow:
  name: big
  resources:
    default:
      gpu: 16
      cpu: 200
      memory: 2000Gi
  tasks:
  - name: train
    image: pytorch/pytorch:2.2.1
    command: ["python", "train.py"]
    args: ["--out", "{{output}}/m", "--model", "X"]
"""


def test_every_applied_fix_is_told_as_done_not_as_a_proposal() -> None:
    """A fixer writes the bare action ('Lower …'); once the fix ran, the comparison and the reports say what was
    done ('Lowered …'), before it runs a proposal ('Proposed: lower …'), never the conditional 'Would lower …'."""
    from runshepherd.diagnosis.rules import fixer_for
    from runshepherd.wording import _DONE, applied, proposed

    big = Node(
        hostname="n",
        pool="p",
        cpu_total=64,
        cpu_free=64,
        memory_total_gi=512,
        memory_free_gi=512,
        gpu_total=8,
        gpu_free=8,
    )
    cases = [
        (_d("host_oom", "increase_memory"), SPEC, None, "Doubled the memory request: memory 16Gi → 32Gi."),
        (_d("gpu_oom", "reduce_memory"), SPEC, None, "Halved the batch size (--batch-size 64 → 32"),
        (_d("nan_loss", "lower_lr_or_fix_data"), SPEC, None, "Lowered the learning rate ×0.1 (--lr 3e-4 → 3e-5"),
        (_d("timeout", "increase_timeout_or_checkpoint", origin="config"), SPEC, None, "Doubled the time limit"),
        (
            _d("missing_dependency", "add_dependency", ["ModuleNotFoundError: No module named 'cv2'"]),
            SPEC,
            None,
            "Installed the Python package 'opencv-python-headless'",
        ),
        (_d("output_missing", "fix_path"), SPEC, None, "Replaced `{{outputs}}` with `{{output}}`"),
        (_d("validation_error", "change_resources_or_wait", origin="capacity"), GPU_SPEC, [big], "Sized the resources"),
        (
            _d("validation_error", "fix_code", ["t.py: error: unrecognized arguments: --model X"]),
            GPU_SPEC,
            None,
            "Removed the option(s) the program does not accept from `args`: --model X.",
        ),
        (_d("unschedulable", "change_resources_or_wait"), GPU_SPEC, [big], "Asked for the largest size one machine"),
    ]
    covered = set()
    for diag, spec, nodes, told in cases:
        fix = propose_fix(diag, spec, nodes=nodes)
        assert fix.patch, (diag.label, fix.description)  # a fix that would run
        assert fix.description.split(" ", 1)[0].lower() in _DONE, fix.description  # the bare action, no tense
        covered.add(fixer_for(diag.label))
        done = applied(fix.description)
        assert done.startswith(told), (fix.description, done)
        assert "would" not in done.lower() and "; or " not in done, done  # no proposal, no alternative not taken
        assert applied(done) == done  # told once, never 'Applied: Lowered …'
        asked = proposed(fix.description)  # before it runs: a proposal, not a conditional, one closing period
        assert asked.startswith("Proposed: ") and asked[len("Proposed: ")].islower(), asked
        assert "would" not in asked.lower() and ".." not in asked and asked.endswith(".") and proposed(asked) == asked
    labels = ["host_oom", "gpu_oom", "nan_loss", "timeout", "missing_dependency", "output_missing", "unschedulable"]
    assert {fixer_for(x) for x in [*labels, "validation_error"]} <= covered  # every fixer the rules name
    assert applied("lr 50 makes the loss explode; the model chose lr 2").startswith("Applied: lr 50")  # a model's words


def test_a_fix_that_did_not_validate_is_proposed_with_one_period() -> None:
    """The question when no fix can run: 'Proposed: lower … (not applied automatically: …).', never 'Suggested:
    Would lower …' nor a doubled period."""
    from runshepherd.wording import proposed

    said = (
        "Lower the learning rate ×0.1 (--lr 1.0 → 0.1); also consider gradient clipping and checking the "
        "data (not applied automatically: the edited spec did not validate)."
    )
    assert proposed(said) == (
        "Proposed: lower the learning rate ×0.1 (--lr 1.0 → 0.1); also consider gradient clipping and checking the "
        "data (not applied automatically: the edited spec did not validate)."
    )
    assert proposed("Add gradient clipping.") == "Proposed: add gradient clipping."
    assert proposed("the model says: lr 2") == "Proposed: the model says: lr 2."  # a model's own words kept
