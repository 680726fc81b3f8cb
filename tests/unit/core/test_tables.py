"""cli/tables.py: one line per row at any width; a free-text `fill` column takes the room left, cut with "…"."""

from __future__ import annotations

import io

from rich.console import Console

from runshepherd.cli.tables import Col, fitted_table


def _lines(cols: list[Col], width: int) -> list[str]:
    table, _ = fitted_table(cols, width)
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(table)
    return [ln.rstrip() for ln in out.getvalue().splitlines() if ln.strip()]


def test_a_fill_column_takes_the_room_left_and_is_cut() -> None:
    text = "? Your request names what this plan cannot honour: model/dataset very (no script was named)"
    cols = [
        Col("Session", ["c0e1d969"]),
        Col("Workflow", ["train-a-resnet50-on-imagenet-subset-with-mixup-v2-1"], drop=1),
        Col("Request", [text], fill=True),
    ]
    lines = _lines(cols, 80)
    assert len(lines) == 2 and all(len(ln) <= 80 for ln in lines), lines
    assert "Workflow" not in lines[0] and lines[1].startswith("c0e1d969  ? Your request names"), lines
    assert lines[1].endswith("…") and len(lines[1]) == 80, lines  # all the room, never more
    wide = _lines(cols, 200)  # everything fits: the boxed table, the text in full
    assert any(text in ln for ln in wide) and wide[0].startswith("┏"), wide
