"""The cue scan of big files: same findings as the line-by-line read, where it matters, in bounded work."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.logs import LogConfig, TaskDigest, digest_to_markdown, read_log_file
from runshepherd.logs.filescan import count_newlines
from runshepherd.logs.synthetic import PLANTED_SECRETS, ROOT_ERROR, Where, trainer_lines

# Small windows and chunks so a few hundred KB exercise head, middle (many chunks) and tail.
SMALL = LogConfig(head_window_bytes=4096, tail_window_bytes=8192, scan_chunk_bytes=16384, sample_every_bytes=65536)
FILLER = [
    "2025/10/08 20:00:00 [train] {'loss': 0.4123, 'grad_norm': 1.07, 'learning_rate': 5e-05, 'epoch': 0.41}",
    "2025/10/08 20:00:00 [train]  41%|####      | 410/1000 [00:41<01:00, 4.1it/s]",
    "2025/10/08 20:00:00 [train] step 410/1000 loss=0.4123 lr=5.0e-05 throughput=24.1 samples/s",
    "2025/10/08 20:00:00 [train] [W reducer.cpp:1360] Warning: find_unused_parameters=True was specified in DDP",
    "2025/10/08 20:00:00 [train] Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0",
]


def _write(path: Path, lines: list[str], newline_at_end: bool = True) -> Path:
    text = "\n".join(lines) + ("\n" if newline_at_end else "")
    path.write_bytes(text.encode())
    return path


def _both(path: Path, config: LogConfig = SMALL) -> tuple[TaskDigest, TaskDigest]:
    fast = read_log_file(path, config=config)
    plain = read_log_file(path, config=config.model_copy(update={"fast_scan": False}))
    assert fast.lines_skimmed > 0 and plain.lines_skimmed == 0
    return fast, plain


@pytest.mark.parametrize("where", ["early", "middle", "late"])
def test_fast_scan_finds_what_the_line_by_line_read_finds(tmp_path: Path, where: Where) -> None:
    path = tmp_path / f"{where}.log"
    path.write_text("".join(trainer_lines(6000, error_at=where)))
    fast, plain = _both(path)
    assert fast.root_error == plain.root_error == ROOT_ERROR
    assert fast.error_lines == plain.error_lines
    assert (fast.lines_read, fast.bytes_read) == (plain.lines_read, plain.bytes_read) == (6000, path.stat().st_size)
    assert fast.progress == plain.progress
    assert fast.eta_seconds == plain.eta_seconds and fast.eta_seconds is not None
    assert (fast.first_timestamp, fast.last_update) == (plain.first_timestamp, plain.last_update)
    assert [e.kind for e in fast.key_events] == [e.kind for e in plain.key_events]
    assert fast.metrics["loss"].latest == plain.metrics["loss"].latest
    assert fast.lines_read - fast.lines_skimmed < 600  # most lines were never parsed
    dumped = fast.model_dump_json() + digest_to_markdown([fast])
    assert not any(secret.split("=")[-1] in dumped for secret in PLANTED_SECRETS[:2])


@pytest.mark.parametrize("cut_at", [0, 1, 40, 120, 200, 260])
def test_traceback_across_a_chunk_boundary_is_kept_whole(tmp_path: Path, cut_at: int) -> None:
    traceback = [
        "Traceback (most recent call last):",
        '  File "/workspace/train.py", line 212, in <module>',
        "    main()",
        '  File "/workspace/train.py", line 88, in load',
        "    return torch.load(path)",
        "KeyError: 'model_state'",  # no cue word in the exception line itself: only following finds it
    ]
    before = FILLER * 60
    path = _write(tmp_path / "tb.log", before + traceback + FILLER * 200)
    # The middle starts after the head window's last whole line; the first chunk ends ``cut_at`` bytes into
    # the traceback, so its lines are split between two chunks.
    head_end = 0
    for line in before:
        head_end += len(line) + 1
        if head_end >= SMALL.head_window_bytes:
            break
    traceback_at = sum(len(line) + 1 for line in before)
    config = SMALL.model_copy(update={"scan_chunk_bytes": traceback_at + cut_at - head_end})
    fast, plain = _both(path, config)
    assert fast.root_error == plain.root_error == "KeyError: 'model_state'"
    assert fast.error_lines == plain.error_lines == traceback


def test_secrets_in_the_middle_are_redacted_or_never_read(tmp_path: Path) -> None:
    lines = [
        *FILLER * 100,
        "export HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",  # no cue: skimmed, never decoded
        *FILLER * 50,
        "ERROR: clone failed for https://builder:Sup3rS3cret@git.example.com/team/repo.git",  # cue: parsed, redacted
        "-----BEGIN RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEA7f0Jc1oV1bmXwCz1Q2p",
        "d8Zk3Yl1ZcZbq0nq9mJ3Tz5vY0a0rA9m0Yb",
        "-----END RSA PRIVATE KEY-----",
        *FILLER * 100,
    ]
    fast, _ = _both(_write(tmp_path / "secret.log", lines))
    dumped = fast.model_dump_json() + digest_to_markdown([fast])
    for secret in ("hf_AbCdEf", "Sup3rS3cret", "MIIEowIBAAKCAQEA", "d8Zk3Yl1"):
        assert secret not in dumped
    assert (
        "ERROR: clone failed for https://builder:[REDACTED:url_password]@git.example.com/team/repo.git"
        in fast.error_lines
    )
    assert fast.redactions == {"private_key": 1, "url_password": 1}  # counted on parsed lines only


def test_long_lines_and_a_missing_final_newline(tmp_path: Path) -> None:
    lines = [
        *FILLER * 100,
        "RuntimeError: bad batch " + "x" * 50_000,  # longer than a chunk: read in long-line mode, cut
        "y" * 30_000,  # long and without a cue: counted only
        *FILLER * 100,
    ]
    path = _write(tmp_path / "long.log", lines, newline_at_end=False)
    fast, plain = _both(path)
    assert fast.lines_read == plain.lines_read == len(lines)
    assert fast.bytes_read == path.stat().st_size
    assert fast.root_error is not None and fast.root_error.startswith("RuntimeError: bad batch xxx")
    assert fast.root_error == plain.root_error and len(fast.root_error) < 20_000
    assert fast.long_lines_cut == 1  # the cue-less long line was never parsed, so never cut


@pytest.mark.parametrize("extra", [-1, 0, 1, 4096, 8191, 8200, 20000])
def test_lines_around_the_chunk_size_are_counted_once(tmp_path: Path, extra: int) -> None:
    chunk = 8192
    lines = [*FILLER * 60, "ok", "z" * (chunk + extra), "ValueError: after the long line", "q" * (2 * chunk + extra)]
    lines += ["Killed " + "k" * (chunk + extra), *FILLER * 100]
    path = _write(tmp_path / "edge.log", lines)
    fast, plain = _both(path, SMALL.model_copy(update={"scan_chunk_bytes": chunk}))
    assert fast.lines_read == plain.lines_read == len(lines)
    assert fast.bytes_read == path.stat().st_size
    assert fast.root_error == plain.root_error == "ValueError: after the long line"
    assert any(line.startswith("Killed kkk") for line in fast.error_lines)


def test_a_file_over_max_bytes_is_scanned_from_its_tail_end(tmp_path: Path) -> None:
    path = tmp_path / "huge.log"
    path.write_text("".join(trainer_lines(6000, error_at="late")))
    size = path.stat().st_size
    digest = read_log_file(path, config=SMALL.model_copy(update={"max_bytes": size // 2}))
    assert digest.truncated and digest.truncation_reason == "max_bytes"
    assert digest.bytes_skipped + digest.bytes_read == size and digest.bytes_skipped >= size // 2
    assert digest.root_error == ROOT_ERROR and digest.lines_skimmed > 0


def test_out_of_time_still_reads_the_tail(tmp_path: Path) -> None:
    path = tmp_path / "slow.log"
    path.write_text("".join(trainer_lines(6000, error_at="none")))
    digest = read_log_file(path, config=SMALL.model_copy(update={"max_seconds": 1e-9}))
    assert digest.truncated and digest.truncation_reason == "max_seconds"
    assert digest.progress is not None and digest.progress.current > 5000  # the latest state, from the tail


def test_newline_count_matches_bytes_count_on_any_range() -> None:
    data = ("\n".join(FILLER) + "\n").encode() * 3000  # ~1.4 MB: the numpy path, more than one block
    for lo, hi in [(0, len(data)), (17, len(data) - 5), (100, 200), (0, 0), (1 << 20, (1 << 20) + 70_000)]:
        assert count_newlines(data, lo, hi) == data.count(b"\n", lo, hi)


def test_the_middle_is_sampled_once_per_sample_every_bytes(tmp_path: Path) -> None:
    """Metric history from the middle: one parsed line per ``sample_every_bytes``, even without a cue."""
    loss_line = "2025/10/08 20:00:00 [train] {'loss': 0.4123, 'grad_norm': 1.07, 'learning_rate': 5e-05, 'epoch': 0.41}"
    path = _write(tmp_path / "metrics.log", [loss_line] * 6000)  # ~630 KB, no cue anywhere
    middle = path.stat().st_size - SMALL.head_window_bytes - SMALL.tail_window_bytes
    every = SMALL.sample_every_bytes
    sampled = read_log_file(path, config=SMALL)
    unsampled = read_log_file(path, config=SMALL.model_copy(update={"sample_every_bytes": 10 * path.stat().st_size}))
    extra = sampled.metrics["loss"].samples - unsampled.metrics["loss"].samples
    assert middle // every - 1 <= extra <= middle // every + 1
    assert sampled.lines_read == unsampled.lines_read == 6000
