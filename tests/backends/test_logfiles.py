"""Reading task logs: tail from the end of a large file, interleaving by time, following appended lines."""

from __future__ import annotations

import heapq
import os
import random
from pathlib import Path

import pytest

from runshepherd.backends.files.logfiles import STAMP_LEN, Follower, complete_end, format_line, iter_existing


def tail_lines(path: Path, n: int, end: int) -> list[str]:
    return list(iter_existing([path], {path: end}, n))


def test_tail_reads_last_lines_of_a_large_file(tmp_path: Path) -> None:
    log = tmp_path / "log"
    with log.open("w") as fh:
        for i in range(200_000):
            fh.write(f"2025/01/01 00:00:00 [t] line {i}\n")
    end = complete_end(log)
    assert end == log.stat().st_size
    assert tail_lines(log, 3, end) == [f"2025/01/01 00:00:00 [t] line {i}" for i in (199_997, 199_998, 199_999)]
    assert tail_lines(log, 0, end) == []
    many = tail_lines(log, 150_000, end)  # many 64 KiB blocks back: every line once, in order, none split
    assert len(many) == 150_000 and many[0].endswith("line 50000") and many[-1].endswith("line 199999")
    assert len(tail_lines(log, 10**9, end)) == 200_000  # more than the file holds: the whole file


def test_a_line_still_being_written_is_not_returned(tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.write_text("2025/01/01 00:00:00 [t] whole\n2025/01/01 00:00:01 [t] hal")
    end = complete_end(log)
    assert list(iter_existing([log], {log: end}, None)) == ["2025/01/01 00:00:00 [t] whole"]
    follower = Follower([log], {log: end})
    assert follower.poll() == []
    with log.open("a") as fh:
        fh.write("f\n")
    assert follower.poll() == ["2025/01/01 00:00:01 [t] half"]


def test_all_tasks_interleave_by_time_and_tail_applies_to_the_merge(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("2025/01/01 00:00:00 [a] a1\n2025/01/01 00:00:02 [a] a2\n")
    b.write_text("2025/01/01 00:00:01 [b] b1\n2025/01/01 00:00:03 [b] b2\n")
    ends = {a: complete_end(a), b: complete_end(b)}
    merged = list(iter_existing([a, b], ends, None))
    assert [line.split()[-1] for line in merged] == ["a1", "b1", "a2", "b2"]
    assert [line.split()[-1] for line in iter_existing([a, b], ends, 3)] == ["b1", "a2", "b2"]


def test_line_format_matches_osmo() -> None:
    assert format_line("train", "epoch 1").endswith(" [train] epoch 1")
    assert format_line("train", "Uploading outputs", control=True).endswith(" [train][osmo] Uploading outputs")


# The reading before it streamed (it held the whole tail: blocks, their join, the text and the list of lines),
# kept as the oracle the streamed reading must equal line for line. Lines end at "\n" only: a "\r" or U+2028 a
# job printed stays inside its line, behind the task prefix (it once started a line with no prefix).
def _split(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:-1] if text.endswith("\n") else lines


def _old_tail(path: Path, n: int, end: int) -> list[str]:
    with path.open("rb") as fh:
        pos, blocks, newlines = end, [], 0
        while pos > 0 and newlines <= n:
            step = min(64 * 1024, pos)
            pos -= step
            fh.seek(pos)
            block = fh.read(step)
            blocks.append(block)
            newlines += block.count(b"\n")
    return _split(b"".join(reversed(blocks)).decode("utf-8", errors="replace"))[-n:]


def _old_existing(paths: list[Path], ends: dict[Path, int], tail: int | None) -> list[str]:
    if tail is None:
        per = [_split(p.read_bytes()[: ends[p]].decode("utf-8", errors="replace")) for p in paths]
        return list(heapq.merge(*per, key=lambda line: line[:STAMP_LEN]))
    per = [_old_tail(p, tail, ends[p]) for p in paths]
    return list(heapq.merge(*per, key=lambda line: line[:STAMP_LEN]))[-tail:]


@pytest.fixture
def awkward_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Two task logs with long lines (longer than a read), carriage returns (progress bars), other characters
    that end a line for Python, multi-byte and broken UTF-8, empty lines and an unfinished last line."""
    import runshepherd.backends.files.logfiles as logfiles

    monkeypatch.setattr(logfiles, "_BLOCK", 512)  # small blocks and reads: every boundary is crossed many times
    monkeypatch.setattr(logfiles, "_READ_BUDGET", 1)  # pieces of the 16 KiB floor, split across two files
    rng = random.Random(7)
    oddities = [b"", b"x" * 40_000, b"a\rb\r", b"50%|##  |\r60%|### |", b"f\x0cg\x1ch\xc2\x85i"]
    oddities += ["é…\u2028z".encode(), b"bad \xff\xfe \xe2\x80"]
    paths = []
    for task in ("a", "b"):
        path = tmp_path / task
        with path.open("wb") as fh:
            for i in range(3000):
                text = rng.choice(oddities) if rng.random() < 0.3 else b"step %d" % i
                fh.write(f"2025/01/01 00:{i // 60 % 60:02d}:{i % 60:02d} [{task}] ".encode() + text + b"\n")
            fh.write(f"2025/01/01 01:00:00 [{task}] unfinished".encode())
        paths.append(path)
    return paths


@pytest.mark.parametrize("tail", [None, 1, 2, 7, 500, 2999, 3000, 3400, 5999, 6000, 10**9])
def test_streamed_tail_equals_the_old_whole_in_memory_reading(awkward_logs: list[Path], tail: int | None) -> None:
    ends = {p: complete_end(p) for p in awkward_logs}
    assert all(ends[p] < os.path.getsize(p) for p in awkward_logs)  # the unfinished line is not read
    for paths in (awkward_logs[:1], awkward_logs):
        got = list(iter_existing(paths, ends, tail))
        assert got == _old_existing(paths, ends, tail)
        assert all(line.startswith("2025/01/01 ") for line in got)  # every line behind the writer's own prefix


def _cut(line: bytes, cap: int) -> bytes:
    return line[:cap] + f" … [line cut at {cap:,} of {len(line):,} bytes]".encode() if len(line) > cap else line


@pytest.mark.parametrize("tail", [None, 1, 7, 2999, 6000])
def test_a_line_longer_than_the_cap_is_cut_and_says_so(
    awkward_logs: list[Path], tail: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`logs --raw` of a 50 MB line once printed all of it (337 MB of memory): each line read back is at most
    RAW_LINE_BYTES of the log, the rest counted on the line; every other line is as the old reading gave it."""
    import runshepherd.backends.files.logfiles as logfiles

    monkeypatch.setattr(logfiles, "RAW_LINE_BYTES", 1000)  # the fixture's 40,000-byte lines are long; cut mid-UTF-8 too
    ends = {p: complete_end(p) for p in awkward_logs}
    for p in awkward_logs:  # the oracle: the old reading of a copy whose every line is cut the documented way
        data = p.read_bytes()
        cut = b"\n".join(_cut(line, 1000) for line in data[: ends[p]].split(b"\n"))
        (p.parent / f"{p.name}.cut").write_bytes(cut)
    copies = [p.parent / f"{p.name}.cut" for p in awkward_logs]
    want = _old_existing(copies, {c: c.stat().st_size for c in copies}, tail)
    got = list(iter_existing(awkward_logs, ends, tail))
    assert got == want
    monkeypatch.setattr(logfiles, "_READ_BUDGET", 8 * 1024 * 1024)  # reads holding many whole long lines each
    assert list(iter_existing(awkward_logs, ends, tail)) == want
    assert any("[line cut at 1,000 of 40,02" in line for line in got) or tail in (1, 7)
    unfinished = awkward_logs[0].parent / "one-line"
    unfinished.write_bytes(b"2025/01/01 00:00:00 [t] " + b"y" * 50_000)  # no newline, read whole (no follow)
    (only,) = iter_existing([unfinished], {unfinished: unfinished.stat().st_size}, None)
    assert only.endswith(" … [line cut at 1,000 of 50,024 bytes]") and len(only) < 1100


def test_a_token_the_cut_splits_is_left_out_not_shown_in_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Half a key matches no redaction rule (`AKIA` + 16 characters, then a word boundary): the cut drops the word."""
    import runshepherd.backends.files.logfiles as logfiles
    from runshepherd.logs import redacted_lines

    monkeypatch.setattr(logfiles, "RAW_LINE_BYTES", 1000)
    log = tmp_path / "log"
    prefix = (
        b"2025/01/01 00:00:00 [t] aws " + b"y" * (1000 - 24 - 4 - 8) + b" "
    )  # the key starts 7 bytes before the cut
    log.write_bytes(prefix + b"AKIAABCDEFGHIJKLMNOP and more " + b"z" * 5000 + b"\n")
    (line,) = redacted_lines(iter_existing([log], {log: log.stat().st_size}, None))
    assert "AKIA" not in line and line.endswith(f" … [line cut at {len(prefix):,} of {log.stat().st_size - 1:,} bytes]")


def test_a_followed_line_longer_than_the_cap_is_cut_like_a_read_one(tmp_path: Path) -> None:
    """Lines appended while a log is followed went out whole (a 200 KB line printed as it was): they are cut at
    RAW_LINE_BYTES with the same marker as a line read back; a long line still being written waits, unheld."""
    log = tmp_path / "log"
    log.write_bytes(b"2025/01/01 00:00:00 [t] start\n")
    follower = Follower([log], {log: log.stat().st_size})
    long = b"2025/01/01 00:00:01 [t] " + b"x" * 200_000
    with log.open("ab") as fh:
        fh.write(long + b"\n2025/01/01 00:00:02 [t] after\n2025/01/01 00:00:03 [t] " + b"y" * 100_000)
    cut, after = follower.poll()
    assert cut.endswith(f" … [line cut at 65,536 of {len(long):,} bytes]") and len(cut) < 65_600, cut[-60:]
    assert after == "2025/01/01 00:00:02 [t] after"
    with log.open("ab") as fh:
        fh.write(b"\n")
    (rest,) = follower.poll()
    assert rest.startswith("2025/01/01 00:00:03 [t] yyy") and rest.endswith("of 100,024 bytes]")
    assert follower.poll() == []
