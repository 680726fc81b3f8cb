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


def test_a_table_still_too_wide_cuts_its_widest_column_with_an_ellipsis_never_a_column() -> None:
    """With nothing left to shorten or drop, rich used to crop the columns on the right without a sign."""
    node = "gke-research-cluster-a100-spot-pool-7f3c9e2a-node-0001-us-central1-b-x"
    cols = [
        Col("Node", [node, "short"]),
        Col("CPU free/total", ["1/2", "3/4"]),
        Col("Memory free/total (Gi)", ["1.0/2.0", "3.0/4.0"]),
        Col("GPU free/total", ["0/8", "1/8"]),
    ]
    lines = _lines(cols, 80)
    assert all(len(ln) <= 80 for ln in lines), lines
    assert lines[0].endswith("GPU free/total") and lines[1].endswith("0/8"), lines  # every column still shown
    assert lines[1].startswith(node[:20]) and "…" in lines[1] and lines[2].startswith("short "), lines
