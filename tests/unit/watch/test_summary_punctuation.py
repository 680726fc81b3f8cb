"""The watch summary (terminal, `--json`, notifications) joins its parts with one period each: a part that
already ends a sentence gets no second one (it printed "… the exact change.). risk: …")."""

from __future__ import annotations

import json
import re
from pathlib import Path

from runshepherd import wording

NAN_LOG = [
    "2030/01/01 12:00:00 [train] epoch 1/3 step 1/60 loss 2.31 lr 50",
    "2030/01/01 12:00:01 [train] Traceback (most recent call last):",
    '2030/01/01 12:00:01 [train]   File "/app/train.py", line 180, in _train_epoch',
    "2030/01/01 12:00:01 [train] FloatingPointError: Loss is nan at epoch 1 step 3; try a lower learning rate",
]
SPEC = """\
workflow:
  name: w
  resources:
    default: {cpu: 1, memory: 512Mi}
  tasks:
  - name: train
    image: python:3.11-slim
    command: [python, train.py]
    args: [--lr, "50"]
"""


class FailedRun:
    name = "fake"

    def query(self, wid: str):  # noqa: ANN201
        from runshepherd.backends.base import Status, TaskState, TaskStatus, WorkflowStatus

        task = TaskState(name="train", group="train", status=TaskStatus.FAILED, exit_code=1)
        return WorkflowStatus(workflow_id=wid, name="w", status=Status.FAILED, backend="fake", tasks=[task])

    def logs(self, wid: str, task: str | None = None, *, tail: int | None = None, timeout: float | None = None):  # noqa: ANN201
        return iter(NAN_LOG)

    def spec(self, wid: str, *, template: bool = False) -> str:
        return SPEC

    def events(self, wid: str, task: str | None = None) -> list:
        return []


def _doubled(text: str) -> list[str]:
    return re.findall(r"[.!?][)\"'`]*\.(?!\d)|\.\s+\.", text)


def test_a_failed_runs_watch_summary_and_notification_have_single_periods(tmp_path: Path) -> None:
    from runshepherd.config import Settings
    from runshepherd.notify import Notifier, parse_targets
    from runshepherd.watch.escalations import escalations_for
    from runshepherd.watch.monitor import RunMonitor

    notes = tmp_path / "notes.jsonl"
    m = RunMonitor(
        FailedRun(),
        "wf-1",
        settings=Settings(),
        runs_dir=tmp_path,
        notifier=Notifier(parse_targets([f"file:{notes}"])),
        escalate=escalations_for,
    )
    obs = m.poll()
    assert m.notifier is not None
    m.notifier.close(timeout=10)
    assert "diagnosis: nan_loss" in obs.summary and "shows the evidence and the exact change" in obs.summary
    assert _doubled(obs.summary) == [], obs.summary
    sent = [json.loads(x)["summary"] for x in notes.read_text().splitlines()]
    assert sent and all(_doubled(s) == [] for s in sent), sent


def test_sentences_add_a_period_only_where_one_is_missing() -> None:
    parts = ["wf is FAILED (failed)", "Next step: lower lr (see `diagnose`.)", "stop.", "", "risk: none"]
    assert wording.sentences(parts) == "wf is FAILED (failed). Next step: lower lr (see `diagnose`.) stop. risk: none"
    assert (
        wording.sentences(["a", "b?"], close=True) == "a. b?" and wording.sentences(["a", "b"], close=True) == "a. b."
    )
