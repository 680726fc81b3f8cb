"""Issue 12: the arrow beside a metric says where it is heading now (the last two points of a smoothed series)."""

from __future__ import annotations

from runshepherd.logs import read_log
from runshepherd.logs.markdown import stage_line


def _losses(values: list[float]) -> list[str]:
    return [f"epoch 1/3 step {i}/100 loss={v}" for i, v in enumerate(values, 1)]


def test_a_rise_after_a_long_fall_points_up() -> None:
    # The window's halves still say "decreasing"; the arrow beside 0.5945 must not.
    values = [1.2, 1.1, 0.95, 0.9, 0.8, 0.7, 0.62, 0.542, 0.5945]
    digest = read_log(_losses(values))
    loss = digest.metrics["loss"]
    assert loss.trend == "decreasing" and loss.direction == "increasing"
    assert "loss 0.5945↑" in stage_line(digest)


def test_a_fall_points_down_and_a_plateau_is_flat() -> None:
    assert "loss 0.3↓" in stage_line(read_log(_losses([0.9, 0.8, 0.6, 0.5, 0.3])))
    assert "loss 0.5→" in stage_line(read_log(_losses([0.5] * 6)))
    assert read_log(_losses([0.5])).metrics["loss"].direction == "unknown"


def test_a_mixed_signal_gets_no_arrow() -> None:
    # the last step is down a hair, but the smoothed series still rises: no arrow rather than a wrong one
    line = stage_line(read_log(_losses([0.1, 0.1, 0.1, 0.5, 0.9, 0.89])))
    assert "loss 0.89 " in line + " " or "loss 0.89;" in line or line.rstrip().endswith("loss 0.89")
    assert "0.89↑" not in line and "0.89↓" not in line
