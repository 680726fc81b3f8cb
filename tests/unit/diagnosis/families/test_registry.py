"""The family registry is the one place a family is declared: labels, phases, echoes, fixers, infra all come from it."""

from __future__ import annotations

import importlib
import pkgutil

import runshepherd.diagnosis.rules as rules_pkg
from runshepherd.diagnosis import LABELS, Diagnosis, diagnose_log_text
from runshepherd.diagnosis.fixes import propose_fix
from runshepherd.diagnosis.rules import FAMILIES, REGISTRY, infra_labels, labels_for
from runshepherd.diagnosis.rules.base import Context
from runshepherd.diagnosis.rules.family import StatusAndExitRule


def test_every_label_but_healthy_is_exactly_one_family_module() -> None:
    assert set(FAMILIES) | {"healthy"} == set(LABELS)
    modules = {m.name for m in pkgutil.iter_modules(rules_pkg.__path__)} - {"base", "family"}
    assert modules == set(FAMILIES)
    for name in modules:
        assert importlib.import_module(f"runshepherd.diagnosis.rules.{name}").FAMILY.label == name


def test_phase_sets_come_from_the_families() -> None:
    assert labels_for("completed") == {"output_missing", "nan_loss"}
    running = labels_for("running")
    assert {"unschedulable", "image_pull", "gpu_oom", "host_oom"} <= running
    assert "user_code_error" not in running and "timeout" not in running


def test_infra_labels_are_the_families_with_infra_origin() -> None:
    assert {"preempted", "network_download", "nccl_or_distributed"} <= infra_labels()
    assert "user_code_error" not in infra_labels() and "gpu_oom" not in infra_labels()


def test_one_exit_code_rule_serves_every_family() -> None:
    exit_rules = [r for r in REGISTRY if isinstance(r, StatusAndExitRule)]
    assert {r.fam.label for r in exit_rules} >= {"host_oom", "segfault", "timeout", "missing_dependency", "preempted"}
    ctx = Context.build(exit_code=139, log_lines=["starting", "done?"])
    seg = [s for r in exit_rules for s in r(ctx) if s.label == "segfault"]
    assert seg and seg[0].evidence == ["exit_code: 139"]


def test_exit_code_in_a_bare_log_is_quoted_verbatim() -> None:
    d = diagnose_log_text("step 1\nsrun: error: node1: task 0: Exited with exit code 127\n")
    assert d.label == "missing_dependency"
    assert d.evidence == ["srun: error: node1: task 0: Exited with exit code 127"]


def test_fix_dispatch_reads_the_family_fixer() -> None:
    spec = (
        "workflow:\n  name: t\n  tasks:\n  - name: train\n    image: x\n    command: [python]\n    args: [train.py]\n"
    )
    spec += "  resources:\n    default:\n      memory: 16Gi\n"
    d = Diagnosis(label="host_oom", origin="config", confidence=0.9, explanation="x")
    fix = propose_fix(d, spec)
    assert fix.patch and "+      memory: 32Gi" in fix.patch
