"""The one cap on a raw log line a backend hands out (task log files, followed files, OSMO's log stream): a longer
line keeps its first ``RAW_LINE_BYTES`` bytes and says where it was cut, the rest counted, never held, so a
50 MB line costs neither 50 MB nor a screenful wherever it is read (`logs --raw`, `logs -f`, MCP's raw tail)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

RAW_LINE_BYTES = 64 * 1024
_SKIP = 1 << 20  # bytes read at a time past the cap of a long line (counted, dropped)


def cut_line(head: bytes, total: int) -> bytes:
    """``head`` (the first bytes of a line of ``total`` bytes) marked as cut. A word the cut splits is left out
    with it: half a token matches no redaction rule, so its first characters would be shown as they are."""
    near = max(0, len(head) - 256)
    gap = max(head.rfind(b" ", near), head.rfind(b"\t", near))
    kept = head[: gap + 1] if gap > 0 else head
    return kept + f" … [line cut at {len(kept):,} of {total:,} bytes]".encode()


def capped_lines(stream: IO[bytes], cap: int = RAW_LINE_BYTES) -> Iterator[tuple[bytes, bool]]:
    """The lines of a byte stream cut at "\\n" only, each without it and at most ``cap`` bytes (`cut_line` marks a
    longer one), as ``(line, ended)``: ``ended`` is False only for a last line the stream has not finished yet.
    Memory stays within ``cap`` plus one read whatever the line's length."""
    while True:
        head = stream.readline(cap + 1)
        if not head:
            return
        if head.endswith(b"\n"):
            yield head[:-1], True
            continue
        if len(head) <= cap:  # the end of the stream in the middle of a line
            yield head, False
            return
        total, ended = len(head), False
        while more := stream.readline(_SKIP):
            total += len(more)
            if more.endswith(b"\n"):
                total, ended = total - 1, True
                break
        yield cut_line(head[:cap], total), ended
        if not ended:
            return
