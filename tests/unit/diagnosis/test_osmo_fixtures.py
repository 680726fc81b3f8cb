"""Every OSMO eval failure fixture, diagnosed from its data alone, with the right label and fix kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.diagnosis import DiagnosisInput, TaskRecord, diagnose, diagnose_log_text
from runshepherd.diagnosis.fixes import propose_fix

ROOT = Path(__file__).resolve().parents[2] / "data" / "osmo_evals" / "files"  # vendored; see its README
FIX = ROOT / "fixtures" / "default"


def _input(name: str, spec: str | None = None) -> DiagnosisInput:
    q = json.loads((FIX / f"workflow_query_{name}.json").read_text())
    tasks = [
        TaskRecord(
            name=t["name"],
            group=g["name"],
            status=t["status"],
            exit_code=t["exit_code"],
            failure_message=t["failure_message"],
            lead=t.get("lead", False),
        )
        for g in q["groups"]
        for t in g["tasks"]
    ]
    ev = FIX / f"workflow_events_{name}.txt"
    logs = FIX / f"workflow_logs_{name}.txt"
    return DiagnosisInput(
        workflow_id=q["name"],
        status=q["status"],
        tasks=tasks,
        events=ev.read_text().splitlines() if ev.exists() else [],
        log_lines={tasks[0].name: logs.read_text().splitlines()} if logs.exists() else {},
        spec_text=(FIX / spec).read_text() if spec else None,
        workflow_outputs=[q["outputs"]] if q["outputs"] else [],
    )


@pytest.mark.parametrize(
    ("name", "spec", "label", "kind"),
    [
        ("oom", "workflow_spec_template.yaml", "host_oom", "increase_memory"),
        ("tool", None, "missing_dependency", "add_dependency"),
        ("badimage", None, "image_pull", "fix_image"),
        ("private_image", "workflow_spec_private_image.yaml", "image_pull", "fix_credentials"),
        ("pending", "workflow_spec_pending.yaml", "unschedulable", "change_resources_or_wait"),
        ("sdg", "workflow_spec_sdg.yaml", "output_missing", "fix_path"),
    ],
)
def test_fixture(name: str, spec: str | None, label: str, kind: str) -> None:
    [d] = diagnose(_input(name, spec))
    assert (d.label, d.fix.kind) == (label, kind)
    assert d.evidence


def test_oom_patch_doubles_literal_memory_and_keeps_jinja() -> None:
    [d] = diagnose(_input("oom", "workflow_spec_template.yaml"))
    assert d.origin == "config" and d.confidence > 0.9
    assert "-      memory: 256Gi" in d.fix.patch and "+      memory: 512Gi" in d.fix.patch
    assert "num_gpu" not in "".join(
        l for l in d.fix.patch.splitlines() if l.startswith(("+", "-")) and not l.startswith(("+++", "---"))
    )


def test_tool_names_jq_and_suggests_install() -> None:
    [d] = diagnose(_input("tool"))
    assert "jq" in d.explanation and "apt-get install -y jq" in d.fix.description
    assert "jq: command not found" in d.evidence[0]


def test_private_image_points_to_registry_credential_not_yaml() -> None:
    [d] = diagnose(_input("private_image", "workflow_spec_private_image.yaml"))
    assert d.fix.patch is None and "osmo credential set" in d.fix.description


def test_pending_spec_is_resized_to_one_node() -> None:
    [d] = diagnose(_input("pending", "workflow_spec_pending.yaml"))
    assert d.origin == "capacity"
    assert "+      gpu: 8" in d.fix.patch


def test_sdg_spec_with_typo_gets_the_placeholder_fix() -> None:
    spec = (FIX / "workflow_spec_sdg.yaml").read_text().replace("{{output}}/images", "{{outputs}}/images")
    inp = _input("sdg").model_copy(update={"spec_text": spec})
    [d] = diagnose(inp)
    assert d.label == "output_missing" and d.confidence >= 0.9
    assert "+          --out {{output}}/images" in d.fix.patch


def test_oversized_validation_error_gets_osmo_sizing() -> None:
    d = diagnose_log_text((ROOT / "fixtures" / "submit_err" / "submit_validation_error.txt").read_text())
    assert (d.label, d.origin, d.fix.kind) == ("validation_error", "capacity", "change_resources_or_wait")
    fix = propose_fix(d, (ROOT / "oversized.yaml").read_text())
    for line in ("+      cpu: 10", "+      memory: 84Gi", "+      storage: 57Gi"):
        assert line in fix.patch
    assert "gpu: 4" in fix.patch and "+      gpu" not in fix.patch
