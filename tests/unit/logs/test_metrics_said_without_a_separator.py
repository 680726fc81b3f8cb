"""A plain print of a step's metrics with no separator ("step 3 loss 0.41") is read as metrics.

Before: a plain sbatch job printing 'step N loss 0.x' five times had "Latest metrics: unknown" and stage "setup" in
its status and digest: the metrics reader needed "=" or ":" between a name and its value.
"""

from __future__ import annotations

from runshepherd.logs import read_log
from runshepherd.logs.metrics import MetricTracker
from runshepherd.reports.status import _metrics_text


def test_step_lines_without_a_separator_give_the_latest_metrics() -> None:
    lines = [f"step {i} loss 0.{9 - i} acc 0.{i}5" for i in range(1, 6)]
    lines.append("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
    digest = read_log(lines, task="train")
    assert digest.latest_metrics() == {"loss": 0.4, "accuracy": 0.55}, digest.latest_metrics()
    assert _metrics_text(digest.latest_metrics()) == "accuracy 0.55 · loss 0.4"  # was "unknown"
    assert digest.stage != "setup", digest.stage


def test_a_nan_or_a_count_after_a_space_is_not_read_as_a_metric() -> None:
    """A NaN is still read only where a separator says whose it is (the nan_loss flag, which diagnosis takes, is
    unchanged), and a percentage, a duration or a count of something else ("3 nodes") after the name is not the
    metric's value."""
    for line in ("loss nan", "step 4 loss inf", "packet loss 5%", "loss 0.41s", "aux_loss 0.3", "loss 3 nodes"):
        tracker = MetricTracker()
        tracker.observe(line)
        assert tracker.series() == {} and tracker.flags() == [], line


def test_spaced_values_followed_by_another_field_are_still_read() -> None:
    for line, want in (
        ("epoch 2 train loss 0.52 time 12.3", {"loss": 0.52}),
        ("step 7 loss 0.41, lr 3e-4", {"loss": 0.41}),
        ("it 9 | loss 0.2 | acc 0.81", {"loss": 0.2, "accuracy": 0.81}),
    ):
        tracker = MetricTracker()
        tracker.observe(line)
        got = {k: v.latest for k, v in tracker.series().items() if k in want}
        assert got == want, (line, tracker.series())
