"""Throughput and peak memory of the streaming log reader, against a baseline measured in the same run.

Baseline: a plain ``for line in f: pass`` over the same file (the floor any Python line reader pays).
Usage: python benchmarks/logs_throughput.py [--mb 50] [--error-at late] [--keep FILE]
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
from pathlib import Path

import psutil

from runshepherd.logs import count_tokens, digest_to_markdown, read_log_file
from runshepherd.logs.config import LogConfig
from runshepherd.logs.synthetic import ROOT_ERROR, write_log


def baseline(path: Path) -> float:
    started = time.perf_counter()
    with open(path, encoding="utf-8", errors="replace") as f:
        for _line in f:
            pass
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=float, default=50.0, help="size of the generated log")
    parser.add_argument("--error-at", choices=["early", "middle", "late", "none"], default="late")
    parser.add_argument("--keep", type=Path, help="write the log here instead of a temp dir")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "bench.log"
        write_log(path, args.mb, error_at=args.error_at)
        size_mb = path.stat().st_size / 1e6
        base = baseline(path)
        config = LogConfig(max_seconds=None)
        rss_before = psutil.Process().memory_info().rss
        started = time.perf_counter()
        digest = read_log_file(path, config=config)
        elapsed = time.perf_counter() - started
        rss_after = psutil.Process().memory_info().rss
        # A second pass under tracemalloc measures the Python-level peak (slower, so not timed).
        tracemalloc.start()
        read_log_file(path, config=config)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        markdown = digest_to_markdown([digest])

    print(f"log: {size_mb:.1f} MB, {digest.lines_read} lines, root error at: {args.error_at}")
    print(f"baseline  for line in f: pass   {base:8.2f} s   {size_mb / base:9.1f} MB/s")
    print(f"read_log_file                   {elapsed:8.2f} s   {size_mb / elapsed:9.1f} MB/s")
    print(f"ratio read_log / baseline       {base / elapsed:8.3f}x")
    print(f"peak traced Python memory       {peak / 1e6:8.2f} MB   (RSS growth {(rss_after - rss_before) / 1e6:.1f} MB)")
    print(f"digest markdown tokens          {count_tokens(markdown):8d}")
    if args.error_at != "none":
        print(f"root error kept                 {digest.root_error == ROOT_ERROR}")


if __name__ == "__main__":
    main()
