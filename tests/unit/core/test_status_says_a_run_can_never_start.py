"""`status` of a queued run no machine of its pool can ever hold says so, as the session graph does at once
(fresh27's finding: "Risk: none seen" until the watch's 600 s queue escalation)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_status_of_a_run_asking_for_gpus_the_machine_lacks_names_the_risk(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["submit", str(EXAMPLES / "fail-gpu.yaml"), "--json"]) == 0  # 2 GPUs on a machine with none
    wid = json.loads(capsys.readouterr().out)["workflow_id"]
    try:
        assert main(["status", wid]) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert "Risk: No single machine in pool local can ever hold this task: it asks for 2 GPUs" in out, out
        assert "none seen" not in out
    finally:
        main(["cancel", wid, "--yes"])


def test_a_run_that_fits_says_no_such_risk(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["submit", str(EXAMPLES / "train-classifier.yaml"), "--json"]) == 0  # 1 CPU: fits
    wid = json.loads(capsys.readouterr().out)["workflow_id"]
    try:
        assert main(["status", wid]) == 0
        assert "can ever hold" not in capsys.readouterr().out
    finally:
        main(["cancel", wid, "--yes"])


def test_a_queued_run_costs_one_backend_read_per_poll_for_the_fit(tmp_path: Path) -> None:
    """`_never_starts` read the spec again, the pools and every node on each poll of a queued run (three reads);
    now it reads the machines of the run's pool once and the spec the report already read."""
    from runshepherd.backends.base import Node, Status, WorkflowStatus
    from runshepherd.config import Settings
    from runshepherd.reports.build import snapshot

    reads: list[str] = []
    spec = (EXAMPLES / "fail-gpu.yaml").read_text()  # 2 GPUs

    class Backend:
        name = "fake"

        def query(self, wid: str) -> WorkflowStatus:
            return WorkflowStatus(workflow_id=wid, name="w", status=Status.PENDING, pool="debug", backend="fake")

        def logs(self, wid: str, task: str | None = None, *, tail: int | None = None, timeout: float | None = None):  # noqa: ANN201
            return iter([])

        def events(self, wid: str, task: str | None = None) -> list[object]:
            return []

        def spec(self, wid: str, *, template: bool = False) -> str:
            reads.append("spec")
            return spec

        def pools(self) -> list[object]:
            reads.append("pools")
            return []

        def resources(self, pool: str | None = None) -> list[Node]:
            reads.append(f"resources {pool}")
            return [
                Node(hostname="n1", pool="debug", cpu_total=8, cpu_free=8, memory_total_gi=32, memory_free_gi=32),
                Node(
                    hostname="big",
                    pool="other",
                    cpu_total=8,
                    cpu_free=8,
                    memory_total_gi=32,
                    memory_free_gi=32,
                    gpu_total=8,
                    gpu_free=8,
                ),
            ][: 1 if pool == "debug" else 2]

    snap = snapshot(Backend(), "wf-1", runs_dir=tmp_path, settings=Settings())  # type: ignore[arg-type]
    assert reads == ["spec", "resources debug"]  # before: spec, spec, pools, resources None
    assert (snap.report.risk or "").startswith(
        "No single machine in pool debug can ever hold this task: it asks for 2 GPUs, and the largest machine has 0"
    ), snap.report.risk
