"""Reading task logs: tail from the end of a large file, interleaving by time, following appended lines."""

from __future__ import annotations

from pathlib import Path

from runshepherd.backends.files.logfiles import Follower, complete_end, format_line, iter_existing, tail_lines


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
    assert iter_existing([log], {log: end}, None) == ["2025/01/01 00:00:00 [t] whole"]
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
    merged = iter_existing([a, b], ends, None)
    assert [line.split()[-1] for line in merged] == ["a1", "b1", "a2", "b2"]
    assert [line.split()[-1] for line in iter_existing([a, b], ends, 3)] == ["b1", "a2", "b2"]


def test_line_format_matches_osmo() -> None:
    assert format_line("train", "epoch 1").endswith(" [train] epoch 1")
    assert format_line("train", "Uploading outputs", control=True).endswith(" [train][osmo] Uploading outputs")
