"""Escalations from recorded nvidia-smi / sstat output and from log digests: evidence, never a guess."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from runshepherd.logs import read_log
from runshepherd.logs.models import KeyEvent, TaskDigest
from runshepherd.watch.escalations import (
    from_digests,
    parse_nvidia_smi,
    parse_sstat,
    read_nvidia_smi,
    setup_overhead,
    utilisation,
)

PROBES = Path(__file__).resolve().parents[2] / "data" / "probes"


def probe(name: str) -> str:
    return (PROBES / name).read_text()


def test_four_gpus_with_one_busy_are_underutilized_with_a_launch_recommendation() -> None:
    samples = parse_nvidia_smi(probe("nvidia-smi-4gpu-one-busy.csv"))
    assert [s.util_percent for s in samples] == [97.0, 0.0, 0.0, 0.0]
    u = utilisation(4, samples, "nvidia-smi")
    assert u.verdict == "underutilized"
    assert "4 GPU(s) allocated, 1 active" in u.evidence and "GPU 1: utilisation 0%" in u.evidence
    assert u.recommendation and "torchrun" in u.recommendation and "array" in u.recommendation


def test_busy_gpus_are_healthy_and_unmeasured_ones_unknown() -> None:
    busy = parse_nvidia_smi(probe("nvidia-smi-2gpu-busy.csv"))
    assert utilisation(2, busy, "nvidia-smi").verdict == "healthy"
    na = parse_nvidia_smi(probe("nvidia-smi-not-supported.csv"))
    assert na[0].util_percent is None
    assert utilisation(1, na, "nvidia-smi").verdict == "unknown"
    nothing = utilisation(2, None, "none")
    assert nothing.verdict == "unknown" and "nothing measures" in nothing.evidence


def test_sstat_gpu_tres_is_read_and_missing_tres_measures_nothing() -> None:
    samples = parse_sstat(probe("sstat-gpuutil.txt"))
    assert [(s.index, s.util_percent) for s in samples] == [("4711.batch", 97.0), ("4711.0", 0.0)]
    assert samples[0].memory_used_mib == 71 * 1024
    assert parse_sstat(probe("sstat-no-gpu-tres.txt")) == []


def test_nvidia_smi_runner_is_used_when_given() -> None:
    got = read_nvidia_smi(run=lambda argv: probe("nvidia-smi-2gpu-busy.csv"))
    assert got is not None and len(got) == 2


def _digest(lines: list[str], status: str = "RUNNING") -> TaskDigest:
    return read_log(lines, task="train", status=status, now=datetime(2026, 1, 1, 12, 0, tzinfo=UTC))


def test_repeated_exceptions_nan_and_checkpoint_failures_are_escalated() -> None:
    lines = [f"2026-01-01T11:59:{i:02d}Z step {i} loss=0.5" for i in range(10)]
    for i in range(3):  # a data-loader worker's traceback, logged and retried each time
        lines += [
            f"2026-01-01T11:59:3{i}Z Traceback (most recent call last):",
            f'2026-01-01T11:59:3{i}Z   File "/workspace/data.py", line 40, in fetch',
            f"2026-01-01T11:59:3{i}Z ConnectionResetError: [Errno 104] Connection reset by peer",
        ]
    lines += [
        "2026-01-01T11:59:40Z step 11 loss=nan",
        "2026-01-01T11:59:50Z ERROR: Failed to save checkpoint to /ckpt/step-11: No space left on device",
    ]
    got = dict(from_digests({"train": _digest(lines)}, running=True))
    assert "ConnectionResetError" in got["repeated_exception"] and "3 times" in got["repeated_exception"]
    assert "nan_loss" in got["metric_anomaly"]
    assert "No space left on device" in got["checkpoint_failure"]


def test_a_silent_running_task_is_stale() -> None:
    d = _digest(["2026-01-01T10:00:00Z step 1 loss=0.5"])
    assert dict(from_digests({"train": d}, running=True))["stale"].startswith("train: no log output since")


def test_long_environment_setup_is_overhead_and_a_job_specific_env_is_flagged() -> None:
    start = datetime(2026, 1, 1, 11, 0, tzinfo=UTC)
    d = TaskDigest(
        task="train",
        stage="setup",
        first_timestamp=start,
        last_timestamp=start + timedelta(minutes=12),
        key_events=[KeyEvent(kind="setup", line="Creating virtual environment at: /tmp/venv-job-48213")],
    )
    text = setup_overhead(d)
    assert text is not None and text.startswith("12 min in environment setup")
    assert "job-specific environment" in text
    quick = d.model_copy(update={"last_timestamp": start + timedelta(seconds=40)})
    assert setup_overhead(quick) is None


def test_gpu_utilisation_prefers_the_backends_sstat_probe() -> None:
    from runshepherd.watch.escalations import gpu_utilisation

    class SlurmLike:
        def sstat_tres(self, workflow_id: str) -> str:
            return probe("sstat-gpuutil.txt")

    u = gpu_utilisation(SlurmLike(), "wf", 2)
    assert u.source == "sstat" and u.verdict == "underutilized" and "1 active" in u.evidence

    class NoGpuAccounting:
        def sstat_tres(self, workflow_id: str) -> str:
            return probe("sstat-no-gpu-tres.txt")

    # nothing measures GPUs on this machine either (no NVML, no nvidia-smi): unknown, never healthy
    assert gpu_utilisation(NoGpuAccounting(), "wf", 2).verdict == "unknown"


def test_escalations_reach_the_status_report_and_its_risk_line(tmp_path: Path) -> None:
    """Through the report builder the `status` command and the monitor share: a running task whose log repeats
    a traceback shows the escalation in `escalations` and in the artifact's Risk line."""
    from runshepherd.backends.base import Status, TaskState, TaskStatus, WorkflowStatus
    from runshepherd.config import Settings
    from runshepherd.reports.build import snapshot
    from runshepherd.watch.escalations import escalations_for

    lines = []
    for i in range(3):
        lines += [
            f"2030/01/01 11:59:3{i} [train] Traceback (most recent call last):",
            f'2030/01/01 11:59:3{i} [train]   File "/workspace/data.py", line 40, in fetch',
            f"2030/01/01 11:59:3{i} [train] ConnectionResetError: [Errno 104] Connection reset by peer",
        ]

    class Backend:
        name = "fake"

        def query(self, wid: str) -> WorkflowStatus:
            task = TaskState(name="train", group="train", status=TaskStatus.RUNNING)
            return WorkflowStatus(workflow_id=wid, name="w", status=Status.RUNNING, backend="fake", tasks=[task])

        def logs(self, wid: str, task: str | None = None, *, tail: int | None = None, timeout: float | None = None):  # noqa: ANN201
            return iter(lines)

        def spec(self, wid: str, *, template: bool = False) -> str:
            return ""

        def events(self, wid: str, task: str | None = None) -> list:
            return []

    snap = snapshot(Backend(), "wf-9", runs_dir=tmp_path, settings=Settings(), escalate=escalations_for)
    _monitor_announces_once(Backend(), tmp_path)
    labels = [e.label for e in snap.report.escalations]
    assert "repeated_exception" in labels
    artifact = (tmp_path / "wf-9-status.md").read_text()
    assert "escalation repeated_exception: train: ConnectionResetError seen 3 times" in artifact


def _monitor_announces_once(backend: object, tmp_path: Path) -> None:
    """A running run's new escalation is one notification, not one per poll."""
    import json

    from runshepherd.config import Settings
    from runshepherd.notify import Notifier, parse_targets
    from runshepherd.watch.escalations import escalations_for
    from runshepherd.watch.monitor import RunMonitor

    notes = tmp_path / "notes.jsonl"
    m = RunMonitor(
        backend,
        "wf-9",
        settings=Settings(),
        runs_dir=tmp_path,
        notifier=Notifier(parse_targets([f"file:{notes}"])),
        escalate=escalations_for,
    )
    first, second = m.poll(), m.poll()
    assert m.notifier is not None
    m.notifier.close(timeout=10)
    assert "repeated_exception" in first.escalations and second.escalations == first.escalations
    rows = [json.loads(x) for x in notes.read_text().splitlines()]
    assert [r["label"] for r in rows].count("repeated_exception") == 1
    assert all(r["status"] == "RUNNING" for r in rows)


def test_a_long_queue_is_escalated_with_the_schedulers_reason() -> None:
    from runshepherd.backends.base import Event, Status, TaskState, TaskStatus, WorkflowStatus
    from runshepherd.watch.escalations import waiting

    class Backend:
        def events(self, wid: str) -> list[Event]:
            return [
                Event(
                    time=datetime(2026, 1, 1, tzinfo=UTC),
                    task="train",
                    reason="Pending",
                    message="JobState=PENDING Reason=Resources (job 4711)",
                )
            ]

    task = TaskState(name="train", group="train", status=TaskStatus.SCHEDULING)
    ws = WorkflowStatus(
        workflow_id="w", name="w", status=Status.PENDING, backend="slurm", tasks=[task], queued_time=1500
    )
    [(label, evidence)] = waiting(Backend(), ws)
    assert label == "pending" and evidence.startswith("queued 25 min: ") and "Reason=Resources" in evidence
    fresh = ws.model_copy(update={"queued_time": 30.0})
    assert waiting(Backend(), fresh) == []
