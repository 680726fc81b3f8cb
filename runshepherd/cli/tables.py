"""Listing tables that keep one line per row at any terminal width (80 columns included).

Rich squeezes a table that is too wide by wrapping every cell, so an id breaks across lines. Here the boxed table
is used when it fits; otherwise the borders go and the columns take their short forms or drop out, step by step
in the order they name, until the rest fits; every column still shown is printed in full.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table


@dataclass
class Col:
    head: str
    cells: list[str]
    short: tuple[str, list[str]] | None = None  # (head, cells) from step ``shorten`` on
    shorten: int = 0
    drop: int = 0  # the step that leaves the column out; 0: always shown

    def form(self, step: int) -> tuple[str, list[str]]:
        return (
            self.short if self.short is not None and self.shorten and step >= self.shorten else (self.head, self.cells)
        )

    def width(self, step: int) -> int:
        head, cells = self.form(step)
        return max([len(head), *(len(c) for c in cells)])


def fitted_table(cols: list[Col], width: int) -> tuple[Table, list[Col]]:
    """The table for ``width`` columns, and the columns left out (for the caller to show another way)."""
    if sum(c.width(0) for c in cols) + 3 * len(cols) + 1 <= width:  # the boxed table fits: as it always was
        table = Table(*(c.head for c in cols))
        for row in zip(*(c.cells for c in cols), strict=True):
            table.add_row(*row)
        return table, []
    steps = sorted({0, *(c.shorten for c in cols if c.shorten), *(c.drop for c in cols if c.drop)})
    for step in steps:
        shown = [c for c in cols if not c.drop or step < c.drop]
        if sum(c.width(step) for c in shown) + 2 * (len(shown) - 1) <= width:
            break
    table = Table(box=None, pad_edge=False, header_style="bold")
    for c in shown:
        table.add_column(c.form(step)[0], no_wrap=True, min_width=c.width(step))
    for row in zip(*(c.form(step)[1] for c in shown), strict=True):
        table.add_row(*row)
    return table, [c for c in cols if all(c is not s for s in shown)]
