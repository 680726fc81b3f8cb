"""The family registry is the one place a family is declared: labels, phases, echoes, fixers, infra all come from it."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace

import pytest

import runshepherd.diagnosis.rules as rules_pkg
from runshepherd.diagnosis import LABELS, Diagnosis, diagnose_log_text
from runshepherd.diagnosis.errorblock import prepare
from runshepherd.diagnosis.fixes import propose_fix
from runshepherd.diagnosis.rules import FAMILIES, REGISTRY, infra_labels, labels_for, yield_to_details
from runshepherd.diagnosis.rules.base import Context, Signal
from runshepherd.diagnosis.rules.family import StatusAndExitRule, cause_detail


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


# PyTorch appends "\nLast error:\n" + ncclGetLastError() to an NCCL error
# (torch/csrc/distributed/c10d/NCCLUtils.cpp, getNcclErrorDetailStr)
_NCCL_DETAIL = (
    "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error "
    "(run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
    "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.\n"
    "Last error:\n"
    "nvmlInit_v2() failed: Driver/library version mismatch\n"
)


def test_a_familys_cause_detail_is_its_declaration_not_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    assert diagnose_log_text(_NCCL_DETAIL).label == "cuda_driver"
    nccl = FAMILIES["nccl_or_distributed"]
    monkeypatch.setitem(FAMILIES, "nccl_or_distributed", replace(nccl, detail=None))
    assert diagnose_log_text(_NCCL_DETAIL).label == "nccl_or_distributed"


def test_any_family_declaring_a_cause_detail_yields_to_the_cause_it_names(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = prepare(["RuntimeError: the launcher failed", "Reason:", "the node went away"]).lines
    summary = Signal("user_code_error", "user", 0.9, 0, [lines[0].raw], "x", "fix_code", "x")
    cause = Signal("preempted", "infra", 0.85, 2, [lines[2].raw], "y", "resubmit", "y")
    assert yield_to_details([summary, cause], lines)[0].strength == 0.9
    own = replace(FAMILIES["user_code_error"], detail=cause_detail(r"^Reason:$", origins=("infra",)))
    monkeypatch.setitem(FAMILIES, "user_code_error", own)
    got = yield_to_details([summary, cause], lines)
    assert [round(s.strength, 2) for s in got] == [0.7, 0.85]
    # a weak reading of the detail line (below a family's own wording) names no cause
    assert yield_to_details([summary, replace(cause, strength=0.6)], lines)[0].strength == 0.9
