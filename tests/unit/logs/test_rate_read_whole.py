"""A rate is read whole. The number before `samples/s` was the digits after the last `e` or `,`: a log that said
`throughput=2.5e3 samples/s` was shown as "samples_per_second 3", and `1,234.5 samples/s` as 234.5."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.logs.reader import read_log_file


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("throughput=2.5e3 samples/s", "2500"),
        ("throughput=1e5 samples/s", "100000"),
        ("1,234.5 samples/s", "1234.5"),
        ("3107.7 samples/s", "3107.7"),
        ("4.2e-1 s/it", "2.38095"),
    ],
)
def test_the_rate_shown_is_the_rate_the_log_says(tmp_path: Path, said: str, shown: str) -> None:
    log = tmp_path / "log"
    log.write_text(f"2026/12/01 07:21:31 step 1/100 loss=0.5 {said}\n")
    metrics = read_log_file(log, task="t").metrics
    rate = metrics.get("samples_per_second") or metrics["it_per_second"]
    assert rate.latest_text == shown


@pytest.mark.parametrize("said", ["throughput=1e400 samples/s", "12,34 samples/s"])
def test_a_number_that_is_no_rate_is_left_out(tmp_path: Path, said: str) -> None:
    log = tmp_path / "log"
    log.write_text(f"2026/12/01 07:21:31 step 1/100 loss=0.5 {said}\n")
    metrics = read_log_file(log, task="t").metrics
    assert "samples_per_second" not in metrics and metrics["loss"].latest_text == "0.5"
