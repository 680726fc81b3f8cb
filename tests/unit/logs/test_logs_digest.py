"""End to end: OSMO fixtures, markdown shape and budget, tokens, and the memory bound on a large log."""

from __future__ import annotations

import json
import time
import tracemalloc
from datetime import UTC, datetime
from pathlib import Path

from runshepherd.logs import LogConfig, TaskDigest, count_tokens, digest_to_markdown, read_log, read_log_file
from runshepherd.logs.synthetic import PLANTED_SECRETS, ROOT_ERROR, write_log

UTC = UTC


def test_osmo_single_task_fixture(fixtures_dir: Path) -> None:
    digest = read_log_file(fixtures_dir / "workflow_logs_single_task.txt", task="train")
    assert digest.stage == "training"
    assert digest.progress is not None
    assert (digest.progress.unit, digest.progress.current, digest.progress.total) == ("step", 3500, 10000)
    assert digest.progress.percent == 35.0
    assert digest.latest_metrics() == {"loss": 0.8915, "lr": 8.2e-05, "samples_per_second": 24.1}
    assert digest.metrics["loss"].trend == "decreasing"
    assert digest.first_timestamp == datetime(2026, 5, 5, 18, 1, 30, tzinfo=UTC)
    assert digest.last_update == datetime(2026, 5, 5, 18, 18, 42, tzinfo=UTC)
    # 3400 steps in 990 s from the first to the latest marker → 6500 steps left.
    assert digest.eta_seconds is not None and abs(digest.eta_seconds - 6500 * 990 / 3400) < 1
    assert digest.error_lines == [] and digest.root_error is None
    assert "training_start" in [e.kind for e in digest.key_events]


def test_osmo_tool_fixture_command_not_found(fixtures_dir: Path) -> None:
    digest = read_log_file(fixtures_dir / "workflow_logs_tool.txt")
    assert digest.root_error == "/tmp/entry.sh: line 6: jq: command not found"
    assert digest.error_lines == ["/tmp/entry.sh: line 6: jq: command not found"]
    assert digest.progress is None and digest.eta_seconds is None


def test_osmo_fixtures_without_application_output(fixtures_dir: Path) -> None:
    empty = read_log_file(fixtures_dir / "workflow_logs_badimage.txt")
    assert (empty.lines_read, empty.stage, empty.root_error) == (0, "no output", None)
    not_started = read_log_file(fixtures_dir / "workflow_logs_private_image.txt")
    assert not_started.stage == "not started"
    assert "Container starting, no application output yet" in digest_to_markdown([empty])
    assert "Not started yet, no application output" in digest_to_markdown([not_started])


def test_a_pending_task_is_not_said_to_be_starting(tmp_path: Path) -> None:
    """`orchestrate status` of a workflow that can never be scheduled (gpu: 2 on a machine with none) said
    "Container starting": nothing was starting. A queued task (PENDING, WAITING) with no output has not started."""
    log = tmp_path / "log"
    log.write_text("")
    for status in ("PENDING", "WAITING", "SCHEDULING"):
        shown = digest_to_markdown([read_log_file(log, status=status)])
        assert "Not started yet, no application output" in shown and "Container starting" not in shown, shown
    for status in ("INITIALIZING", "RUNNING"):
        assert "Container starting" in digest_to_markdown([read_log_file(log, status=status)])


def test_file_without_timestamps_uses_mtime_and_can_be_stale(tmp_path: Path) -> None:
    path = tmp_path / "plain.log"
    path.write_text("step 1/10 loss=0.5\n")
    digest = read_log_file(path, now=datetime(2100, 1, 1, tzinfo=UTC), status="RUNNING")
    assert digest.last_update_source == "file_mtime" and digest.stale is True


def test_markdown_shape_budget_and_tokens() -> None:
    traceback = ["Traceback (most recent call last):"]
    traceback += [f'  File "/very/long/path/to/module_{i}.py", line {i}, in function_{i} with words' for i in range(40)]
    traceback += [ROOT_ERROR]
    lines = ["NCCL version 2.20", "step 400/1000 loss=0.5", "Saving model checkpoint to /out/ckpt-400", *traceback]
    digests = [read_log(lines, task=f"train-{i}") for i in range(5)]
    md = digest_to_markdown(digests, workflow_id="wf-7")
    assert md.startswith("## Workflow: wf-7\n### Task: train-0\n- **Stage / progress**: ")
    assert len(md.split()) <= 300
    assert md.count(ROOT_ERROR) == 5
    assert "checkpoint saved" in md and "step 400/1000 — 40% complete" in md
    tokens = count_tokens(md)
    assert 0 < tokens <= 1500
    assert count_tokens("hello world") == 2


def test_digest_is_json_round_trippable() -> None:
    digest = read_log(["step 1/2 loss=nan", "RuntimeError: x"])
    again = TaskDigest.model_validate(json.loads(digest.model_dump_json()))
    assert again == digest


def _peak_while_reading(path: Path, config: LogConfig | None = None) -> tuple[int, TaskDigest]:
    tracemalloc.start()
    try:
        digest = read_log_file(path, status="RUNNING", now=datetime(2025, 10, 8, 21, tzinfo=UTC), config=config)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, digest


def test_large_log_streams_in_bounded_memory_and_keeps_root_error(tmp_path: Path) -> None:
    """Memory does not grow with the log: it is bounded by the scan chunk, far below the log's size."""
    chunk = 256 * 1024
    config = LogConfig(scan_chunk_bytes=chunk)
    small = write_log(tmp_path / "small.log", megabytes=0.5, error_at="late")
    big = write_log(tmp_path / "big.log", megabytes=4, error_at="early")
    read_log_file(big, config=config)  # warm up: numpy loads parts of itself on first use
    small_peak, _ = _peak_while_reading(small, config)
    peak, digest = _peak_while_reading(big, config)
    size = big.stat().st_size
    assert digest.bytes_read == size and not digest.truncated
    assert digest.lines_skimmed > digest.lines_read * 0.8  # the middle was scanned, not parsed
    assert peak < 4 * chunk + 1024 * 1024, f"peak {peak / 1e6:.2f} MB for a {size / 1e6:.1f} MB log"
    assert peak < small_peak * 1.5
    plain_peak, plain = _peak_while_reading(small, LogConfig(fast_scan=False))  # line by line: tiny memory
    assert plain_peak < 1024 * 1024 and plain.lines_skimmed == 0
    for d in (digest, plain):
        assert d.root_error == ROOT_ERROR
        assert not any("leaked semaphore" in line for line in d.error_lines)
        dumped = d.model_dump_json() + digest_to_markdown([d])
        for secret in ("wJalrXUtnFEMI", "hf_AbCdEf", "Sup3rS3cret"):
            assert any(secret in planted for planted in PLANTED_SECRETS)
            assert secret not in dumped
        assert len(dumped) < 20_000
        assert count_tokens(digest_to_markdown([d])) <= 1500


def test_time_bound_stops_reading(tmp_path: Path) -> None:
    def endless() -> object:
        i = 0
        while True:
            i += 1
            yield f"step {i}/1000000000 loss=0.5"

    started = time.monotonic()
    digest = read_log(endless(), config=LogConfig(max_seconds=0.3))  # type: ignore[arg-type]
    assert time.monotonic() - started < 5
    assert digest.truncated and digest.truncation_reason == "max_seconds"
