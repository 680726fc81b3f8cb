"""`logs -f`: each poll prints only the lines after those already shown, and says when some were skipped."""

from __future__ import annotations

from runshepherd.cli.follow import new_lines


def test_only_new_lines_and_gaps_said() -> None:
    shown = [f"line {i}" for i in range(5)]
    assert new_lines([], shown) == (shown, False)
    assert new_lines(shown, [*shown, "line 5", "line 6"]) == (["line 5", "line 6"], False)
    assert new_lines(shown, shown[2:] + ["line 5"]) == (["line 5"], False)  # a sliding window
    assert new_lines(shown, shown) == ([], False)
    assert new_lines(shown, ["line 90", "line 91"]) == (["line 90", "line 91"], True)
