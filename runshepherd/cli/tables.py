"""Listing tables that keep one line per row at any terminal width (80 columns included).

Rich squeezes a table that is too wide by wrapping every cell, so an id breaks across lines. Here the boxed table
is used when it fits; otherwise the borders go and the columns take their short forms or drop out, step by step
in the order they name, until the rest fits; every column still shown is printed in full, except a `fill` column
(free text such as a request): it takes the room left and its cells are cut with "…". When nothing is left to
shorten or drop and the rest is still too wide, the widest column is cut the same way: a value is never cropped
without a "…", and no column disappears off the right edge.
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
    fill: bool = False  # free text: counted at FILL_MIN while fitting, then given the room left, cut with "…"

    def form(self, step: int) -> tuple[str, list[str]]:
        return (
            self.short if self.short is not None and self.shorten and step >= self.shorten else (self.head, self.cells)
        )

    def width(self, step: int) -> int:
        head, cells = self.form(step)
        return max([len(head), *(len(c) for c in cells)])

    def fitting_width(self, step: int) -> int:
        """The width it needs to be shown: a `fill` column needs only FILL_MIN (or less when it is narrower)."""
        return min(self.width(step), max(FILL_MIN, len(self.form(step)[0]))) if self.fill else self.width(step)


FILL_MIN = 24  # below this a request says too little: the time shortens and the workflow drops first


def _cut(text: str, room: int) -> str:
    return text if len(text) <= room else text[: room - 1] + "…"


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
        if sum(c.fitting_width(step) for c in shown) + 2 * (len(shown) - 1) <= width:
            break
    # a column dropped at an earlier step than the one that made the rest fit comes back when there is room for it
    # (the last dropped is the most wanted: it is tried first): a workflow id too long to keep drops alone, never
    # taking the updated time with it
    for c in sorted((c for c in cols if all(c is not s for s in shown)), key=lambda c: -c.drop):
        if sum(s.fitting_width(step) for s in shown) + c.fitting_width(step) + 2 * len(shown) <= width:
            shown = [s for s in cols if s is c or any(s is t for t in shown)]
    fills = [c for c in shown if c.fill]
    if not fills and sum(c.width(step) for c in shown) + 2 * (len(shown) - 1) > width:
        # nothing left to shorten or drop and still too wide: the widest column is cut with "…" rather than
        # rich cropping whole columns off the right edge without a sign
        widest = max(shown, key=lambda c: c.width(step))
        fills = [widest]
    fixed = sum(c.width(step) for c in shown if c not in fills) + 2 * (len(shown) - 1)
    room = max(FILL_MIN, (width - fixed) // len(fills)) if fills else 0
    table = Table(box=None, pad_edge=False, header_style="bold")
    for c in shown:
        cut = c in fills
        w = min(c.width(step), room) if cut else c.width(step)
        table.add_column(_cut(c.form(step)[0], w), no_wrap=True, min_width=w, max_width=w if cut else None)
    for row in zip(*(c.form(step)[1] for c in shown), strict=True):
        table.add_row(*(_cut(cell, room) if c in fills else cell for c, cell in zip(shown, row, strict=True)))
    return table, [c for c in cols if all(c is not s for s in shown)]
